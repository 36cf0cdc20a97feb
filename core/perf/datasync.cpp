// SPDX-License-Identifier: GPL-3.0-or-later
// Data-parallel synchronisation of one step: which collectives run over which groups, and what of them the
// micro-batches' compute hides (docs/methods-time.md §4.5, §4.44, §4.57).
#include "core/perf/datasync.h"

#include <algorithm>

namespace clusterplanner::core::perf {

namespace {

/// Bytes per gradient element on the wire: fp32 for fp32 training and for mixed precision in frameworks that
/// reduce fp32 main gradients (Megatron, PyTorch autocast); the 16-bit dtype otherwise (DeepSpeed, FSDP recipes) and
/// where 16-bit optimizer states read the 16-bit gradients (docs/methods-memory.md §3.15).
double gradBytes(Precision p, const FrameworkCapabilities& caps, OptimizerStates width)
{
    if (p == Precision::Fp32)
        return 4.0;
    if (p == Precision::Bf16 || width == OptimizerStates::Bf16)
        return 2.0;
    return caps.gradReduceFp32 ? 4.0 : 2.0;
}

double weightBytes(Precision p)
{
    return p == Precision::Fp32 ? 4.0 : 2.0;
}

/// The two groups a collective runs over: the dense parameters' and the routed experts'.
struct GroupPair
{
    const GroupSpan& dense;
    const GroupSpan& experts;
};

/// The groups that reduce the gradients: DP × CP and the expert-data-parallel group.
GroupPair reductionGroups(const DataSyncSetup& s)
{
    return {s.spans.dpCp, s.spans.expertDpCp};
}

/// The groups that shard the states: the reduction groups, or under hybrid sharding their inner shard groups.
GroupPair shardGroups(const DataSyncSetup& s)
{
    return {s.spans.shardDpCp, s.spans.expertShard};
}

/// Time of one collective over a pair of groups, each on its own bytes; they run one after the other on the same
/// stream. A group of one rank moves nothing. cost(collective, group, bytes) prices one group.
template <typename Cost>
double overGroups(GroupPair groups, const ReductionShares& share, Collective c, double bytesPerParam, Cost cost)
{
    const auto one = [&](const GroupSpan& group, double params) {
        return group.size <= 1 ? 0.0 : cost(c, group, params * bytesPerParam);
    };
    return one(groups.dense, share.denseParams) + one(groups.experts, share.expertParams);
}

/// Hybrid sharding's second step: each shard's reduce-scattered gradients all-reduced over the copies of that shard
/// (nothing without hybrid sharding). The caller decides how often: every micro-batch or once a step.
double shardReplicaAllReduceS(const DataSyncSetup& s, const ReductionShares& share, double gradBytesPerParam)
{
    const Fabric& f = s.fabric;
    const auto one = [&](const GroupSpan& replicas, const GroupSpan& shard, double params) {
        return replicas.size <= 1 ? 0.0
                                  : groupCollectiveS(Collective::AllReduce,
                                      params / std::max(1, shard.size) * gradBytesPerParam, replicas, f);
    };
    return one(s.spans.shardReplicas, s.spans.shardDpCp, share.denseParams)
        + one(s.spans.expertShardReplicas, s.spans.expertShard, share.expertParams);
}

/// ZeRO-3: parameters gathered for forward and backward and gradients reduce-scattered, every micro-batch.
DataParallelTimes zero3Times(
    const DataSyncSetup& s, const ReductionShares& share, const MicroBatchWindows& compute, int m)
{
    const FrameworkCapabilities& caps = s.caps;
    const Fabric& f = s.fabric;
    const double h = caps.zero3Hierarchy.value_or(s.efficiency.zero3Hierarchy);
    // "Flat" is a ring whose every hop may cross the network, so NIC bandwidth bounds it; a group inside one
    // scale-up domain stays on NVLink either way.
    const auto cost = [&](Collective c, const GroupSpan& group, double bytes) {
        const GroupSpan flat = group.domains <= 1 ? group : GroupSpan {group.size, 1, group.size};
        return h * groupCollectiveS(c, bytes, group, f) + (1 - h) * groupCollectiveS(c, bytes, flat, f);
    };
    // Where the framework's hooks fire again on a recomputed forward (DeepSpeed), full recompute gathers the
    // parameters a third time (data/frameworks.json).
    const bool regather = s.tr.recompute == Recompute::Full && caps.zero3GathersOnRecompute;
    const double gathers = regather ? 3 : 2;
    // Hybrid sharding: where the framework all-reduces over the shard's copies in each unit's post-backward hook, every
    // micro-batch; else once, at the step's end.
    const double replicaS = shardReplicaAllReduceS(s, share, gradBytes(s.precision, caps, s.optimizerStates));
    const bool replicaEveryMicroBatch = caps.hybridShardReducesEveryMicroBatch;
    const double perMb
        = gathers * overGroups(shardGroups(s), share, Collective::AllGather, weightBytes(s.precision), cost)
        + overGroups(
            shardGroups(s), share, Collective::ReduceScatter, gradBytes(s.precision, caps, s.optimizerStates), cost)
        + (replicaEveryMicroBatch ? replicaS : 0.0);
    // Prefetched gathers run under every kernel of the micro-batch, the recomputed forward included.
    const double window = compute.forwardS + compute.backwardS + compute.recomputeS;
    const double overlap = caps.zero3Overlap.value_or(s.efficiency.zero3Overlap);
    DataParallelTimes dp;
    dp.totalS = m * perMb;
    dp.exposedS = m * std::max(0.0, perMb - overlap * window);
    if (!replicaEveryMicroBatch) { // once, under the last micro-batch's backward
        dp.totalS += replicaS;
        dp.exposedS += std::max(0.0, replicaS - s.efficiency.dpOverlap * compute.backwardS);
    }
    return dp;
}

} // namespace

DataParallelTimes dataParallelTimes(
    const DataSyncSetup& s, const ReductionShares& share, const MicroBatchWindows& compute, int m)
{
    DataParallelTimes dp;
    if (s.spans.dpCp.size <= 1 && s.spans.expertDpCp.size <= 1)
        return dp;
    const double gradBytesPerParam = gradBytes(s.precision, s.caps, s.optimizerStates);
    const double ov = s.efficiency.dpOverlap;
    const Fabric& f = s.fabric;
    const auto cost
        = [&f](Collective c, const GroupSpan& group, double bytes) { return groupCollectiveS(c, bytes, group, f); };
    if (s.tr.zeroStage >= 3) {
        dp = zero3Times(s, share, compute, m);
    } else if (s.tr.shardsOptimizerStates()) { // RS grads under backward, AG params under forward
        // Under hybrid sharding the shard's gradients are then all-reduced over its copies, also under backward.
        const double rs = overGroups(shardGroups(s), share, Collective::ReduceScatter, gradBytesPerParam, cost)
            + shardReplicaAllReduceS(s, share, gradBytesPerParam);
        const double ag = overGroups(shardGroups(s), share, Collective::AllGather, weightBytes(s.precision), cost);
        dp.totalS = rs + ag;
        dp.exposedS = std::max(0.0, rs - ov * compute.backwardS) + std::max(0.0, ag - ov * compute.forwardS);
    } else {
        dp.totalS = overGroups(reductionGroups(s), share, Collective::AllReduce, gradBytesPerParam, cost);
        dp.exposedS = std::max(0.0, dp.totalS - ov * compute.backwardS);
    }
    dp.hiddenS = dp.totalS - dp.exposedS;
    return dp;
}

} // namespace clusterplanner::core::perf
