// SPDX-License-Identifier: GPL-3.0-or-later
// Scratch free-GPU histograms for reservation look-ahead.
#include "core/sched/freecounts.h"

namespace clusterplanner::core::sched {

FreeCounts::FreeCounts(const ClusterState& state)
    : m_state(state)
{
    for (int t = 0; t < static_cast<int>(state.gpuTypeIds().size()); ++t) {
        m_histograms.push_back(state.freeHistogram(t));
        m_free.push_back(state.freeGpus(t));
    }
}

bool FreeCounts::fits(int type, int gpus, int maxNodes) const
{
    return m_free[static_cast<std::size_t>(type)] >= gpus
        && fitsInFreeHistogram(m_histograms[static_cast<std::size_t>(type)], gpus, maxNodes);
}

void FreeCounts::release(const GpuSlice& slice)
{
    if (slice.milli < 1000)
        return; // a fractional share frees no whole GPU
    const auto type = static_cast<std::size_t>(m_state.nodes()[static_cast<std::size_t>(slice.node)].gpuType);
    auto [it, inserted] = m_nodeFree.try_emplace(slice.node, m_state.freeGpusOn(slice.node));
    auto& histogram = m_histograms[type];
    --histogram[static_cast<std::size_t>(it->second)];
    it->second += static_cast<int>(slice.gpus.size());
    ++histogram[static_cast<std::size_t>(it->second)];
    m_free[type] += static_cast<int>(slice.gpus.size());
}

} // namespace clusterplanner::core::sched
