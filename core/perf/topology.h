// SPDX-License-Identifier: GPL-3.0-or-later
// Which level of the fabric each parallel group spans, from the layout's rank order and the scale-up domain size.
#pragma once

#include "core/model/scenario.h"
#include "core/perf/collectives.h"

#include <array>
#include <string>

namespace clusterplanner::core::perf {

enum class ParallelDim { Tp, Cp, Ep, Dp, Pp };

/// Order in which the parallel dimensions are laid over consecutive global ranks, fastest first. Megatron's
/// default is tp-cp-ep-dp-pp (docs/methods-search.md §5): a TP group is contiguous GPUs of one node. The attention's
/// groups take the order without EP; the expert layers' own groups (EP, expert DP) take it without CP, with the
/// expert TP and expert DP sizes (MoE parallel folding, docs/methods-time.md §4.44).
struct RankOrder
{
    std::array<ParallelDim, 5> dims {
        ParallelDim::Tp, ParallelDim::Cp, ParallelDim::Ep, ParallelDim::Dp, ParallelDim::Pp};

    /// Parses "tp-cp-ep-dp-pp" (each name once); throws std::invalid_argument naming the bad part.
    static RankOrder parse(const std::string& text);
    std::string toString() const;
    bool operator==(const RankOrder&) const = default;
};

/// The group order of a scenario's layout setting (no allocation; static instances).
const RankOrder& rankOrderOf(RankOrdering ordering);

/// Spans of every group a rank belongs to (the group of global rank 0; groups are alike up to uneven edges).
struct LayoutSpans
{
    GroupSpan tp, cp, ep, dp, pp;
    GroupSpan dpCp; ///< DP × CP: the gradient-reduction and distributed-optimizer group (CP ranks hold equal weights)
    /// Expert DP × CP: the ranks that hold the same routed experts, over which their gradients are reduced and their
    /// optimizer states sharded (Megatron's expert-data-parallel group); dpCp without expert parallelism.
    GroupSpan expertDpCp;
    /// Expert TP: the ranks that split each routed expert and gather its rows (the TP group's first ranks where
    /// expert TP is TP; a single rank where EP folds over TP).
    GroupSpan expertTp;
    /// Hybrid sharding (ParallelLayout::dpShard): the ranks that shard the states, over which parameters are gathered
    /// and gradients reduce-scattered (the inner dpShard × CP of DP × CP), and the ranks holding copies of one shard,
    /// over which the sharded gradients are then all-reduced (the outer dp / dpShard). Without it dpCp and a group of
    /// one; the expert pair likewise splits expertDpCp.
    GroupSpan shardDpCp, shardReplicas;
    GroupSpan expertShard, expertShardReplicas;
};

/// Spans for a layout on domains of domainGpus consecutive ranks. No allocation.
LayoutSpans layoutSpans(const ParallelLayout& layout, int domainGpus, const RankOrder& order = {});

} // namespace clusterplanner::core::perf
