// SPDX-License-Identifier: GPL-3.0-or-later
// Gandiva-style time slicing (Xiao et al., OSDI'18): jobs of equal size share the same GPUs in a group, a
// group's jobs progress at (1 − overhead)/k each, and when GPUs free up, a sliced job migrates to them (un-slicing).
#include "core/sched/simulator.h"

#include <algorithm>

namespace clusterplanner::core::sched {

void Simulator::passGandiva()
{
    // FIFO with overcommit: the head starts on free GPUs if it can, else time-slices with a group of its size;
    // a head that can do neither blocks the line, so large jobs are not starved by a stream of small ones.
    for (;;) {
        passOrdered();
        unslice();
        if (m_waiting.empty() || !startShared(m_waiting.begin()->job))
            return;
    }
}

int Simulator::firstGpuOf(const std::vector<GpuSlice>& slices) const
{
    return m_state.globalGpu(slices.front().node, slices.front().gpus.front());
}

bool Simulator::startShared(int job)
{
    // Groups with room are keyed by (GPUs, first GPU): the first groups of the job's size are tried, a few at most,
    // so the cost stays O(log n) per pass.
    constexpr int kGroupsTried = 8;
    const PlacementRequest& request = m_active[static_cast<std::size_t>(job)].request;
    if (request.gpus == 0)
        return false;
    int tried = 0;
    for (auto it = m_shareable.lower_bound({request.gpus, -1});
         it != m_shareable.end() && it->first == request.gpus && tried < kGroupsTried; ++it, ++tried) {
        const int member = m_gpuResidents[static_cast<std::size_t>(it->second)].front();
        auto slices = m_placer.placeOnSameGpus(request, m_active[static_cast<std::size_t>(member)].slices);
        if (slices) {
            start(job, std::move(*slices));
            return true;
        }
    }
    return false;
}

void Simulator::unslice()
{
    // Smallest groups first; after a failure for one size, larger sizes are tried (the free GPUs may still fit
    // none of them, which ends the loop).
    auto it = m_sliced.begin();
    while (it != m_sliced.end() && it->first <= m_state.freeGpus()) {
        const auto [gpus, firstGpu] = *it;
        const int job = m_gpuResidents[static_cast<std::size_t>(firstGpu)].back();
        auto slices = m_placer.place(m_active[static_cast<std::size_t>(job)].request, minPendingGpus());
        if (!slices) {
            it = m_sliced.lower_bound({gpus + 1, -1});
            continue;
        }
        stop(job, StopReason::Migrate);
        start(job, std::move(*slices));
        it = m_sliced.lower_bound({gpus, -1});
    }
}

void Simulator::joinGroup(int job)
{
    const Active& a = m_active[static_cast<std::size_t>(job)];
    for (const auto& slice : a.slices)
        for (int g : slice.gpus)
            m_gpuResidents[static_cast<std::size_t>(m_state.globalGpu(slice.node, g))].push_back(job);
    updateGroup(firstGpuOf(a.slices), a.request.gpus);
}

void Simulator::leaveGroup(int job, const std::vector<GpuSlice>& slices)
{
    for (const auto& slice : slices)
        for (int g : slice.gpus) {
            auto& list = m_gpuResidents[static_cast<std::size_t>(m_state.globalGpu(slice.node, g))];
            list.erase(std::find(list.begin(), list.end(), job));
        }
    int gpus = 0;
    for (const auto& slice : slices)
        gpus += static_cast<int>(slice.gpus.size());
    updateGroup(firstGpuOf(slices), gpus);
}

void Simulator::updateGroup(int firstGpu, int gpus)
{
    // Every member of a group of k jobs progresses at its own rate × (1 − overhead)/k (k = 1: full rate).
    const auto& members = m_gpuResidents[static_cast<std::size_t>(firstGpu)];
    const auto k = static_cast<int>(members.size());
    if (k > 0 && k < m_options.timeSliceMaxJobs)
        m_shareable.insert({gpus, firstGpu});
    else
        m_shareable.erase({gpus, firstGpu});
    if (k > 1)
        m_sliced.insert({gpus, firstGpu});
    else
        m_sliced.erase({gpus, firstGpu});
    const double share = k > 1 ? (1.0 - m_options.switchOverhead) / k : 1.0;
    for (int member : members) {
        advance(member);
        m_active[static_cast<std::size_t>(member)].rate = rateOf(member) * share;
        reschedule(member);
    }
}

} // namespace clusterplanner::core::sched
