// SPDX-License-Identifier: GPL-3.0-or-later
// A scratch copy of the cluster's free-GPU counts, for "when would this job fit" questions (EASY reservations).
#pragma once

#include "core/sched/clusterstate.h"

#include <unordered_map>
#include <vector>

namespace clusterplanner::core::sched {

/// Per GPU type, how many nodes have k free GPUs, starting from the live ClusterState; release() adds a running
/// job's GPUs back without touching the state. Costs O(types × GPUs per node) to make, O(1) per released slice.
class FreeCounts
{
public:
    explicit FreeCounts(const ClusterState& state);
    /// Keeps a reference to the state: a temporary would dangle.
    explicit FreeCounts(ClusterState&&) = delete;

    int types() const { return static_cast<int>(m_histograms.size()); }
    int free(int type) const { return m_free[static_cast<std::size_t>(type)]; }
    /// Whether `gpus` GPUs of the type are free on at most maxNodes nodes (0 = no limit).
    bool fits(int type, int gpus, int maxNodes) const;
    void release(const GpuSlice& slice);

private:
    const ClusterState& m_state;
    std::vector<std::vector<int>> m_histograms;
    std::vector<int> m_free;
    std::unordered_map<int, int> m_nodeFree; ///< nodes changed so far → free GPUs
};

} // namespace clusterplanner::core::sched
