// SPDX-License-Identifier: GPL-3.0-or-later
// Validity of a parallel layout before it is evaluated: a cheap bitmask, messages only on request. The one layout
// check of the engine: memory, step time, the sweep and the evaluation facade all use it.
#pragma once

#include "core/model/scenario.h"

#include <cstdint>
#include <string>
#include <vector>

namespace clusterplanner::core {

/// One bit per rule; a layout is valid when checkLayout() returns 0.
enum class LayoutProblem : std::uint32_t {
    NonPositiveDegree = 1u << 0,
    GpuCount = 1u << 1, ///< DP × TP × PP × CP != GPUs
    TpHeads = 1u << 2, ///< TP must divide the attention heads
    TpKvHeads = 1u << 3, ///< TP must divide the KV heads, or be a multiple of them (GQA replication)
    PpLayers = 1u << 4, ///< more pipeline stages than layers (uneven splits are modeled otherwise)
    InterleavedLayers = 1u << 5, ///< interleaved: at least one layer per model chunk (layers >= PP × v)
    InterleavedMicroBatches = 1u << 6, ///< interleaved: micro-batches per step % PP == 0
    CpSequence = 1u << 7, ///< CP: sequence % (2 × CP) == 0 (load-balanced causal chunks)
    EpExperts = 1u << 8, ///< EP must divide the experts
    EpGroup = 1u << 9, ///< EP must divide DP × CP × TP (MoE parallel folding)
    EpDense = 1u << 10, ///< EP > 1 on a dense model
    GlobalBatch = 1u << 11, ///< global batch % (DP × micro-batch) == 0
    ZeroStage = 1u << 12, ///< ZeRO stage outside 0..3
    BatchSize = 1u << 13, ///< micro-batch or global batch < 1
    /// Rank order tp-cp-ep-pp-dp with PP > 1: Megatron-Core requires the experts' DP to equal the attention's (EP 1
    /// included: then CP must be 1)
    EpPipelineOrder = 1u << 14,
    DualPipeStages = 1u << 15, ///< DualPipe with PP > 1: an even number of pipeline stages
    DualPipeMicroBatches = 1u << 16, ///< DualPipe with PP > 1: an even number of micro-batches, at least 2 × PP
    /// A stated expert TP: expert TP × EP must divide DP × CP × TP (a MoE model; a dense one has no routed experts)
    ExpertTpGroup = 1u << 17,
    /// Hybrid sharding of sharded states: dpShard must divide DP, and the copies of a shard the experts' DP group
    DpShard = 1u << 18,
};

using LayoutProblems = std::uint32_t;

inline bool hasProblem(LayoutProblems problems, LayoutProblem p)
{
    return (problems & static_cast<std::uint32_t>(p)) != 0;
}

/// Whether hybrid sharding over dpShard of the layout's DP ranks fits it: kDpShardAll or DP itself, or a divisor
/// of DP whose copies (DP / dpShard) divide the experts' DP group.
bool hybridShardFits(const ParallelLayout& layout, int dpShard);

/// dpShard where it fits the layout, else kDpShardAll: how the explorer carries a scenario's shard degree to layouts
/// of another DP.
int fittingDpShard(const ParallelLayout& layout, int dpShard);

/// Sets the layout's DP and carries its shard degree over where it still fits (else shards over all of DP): every
/// change of DP alone goes through here, so that no derived layout fails the hybrid-sharding rule.
void setDataParallel(ParallelLayout& layout, int dp);

/// Checks every rule; never throws. Allocation-free, meant for a sweep's inner loop.
LayoutProblems checkLayout(const ModelConfig& model, const TrainingConfig& training, int gpuCount);

/// A short static text for the first problem set (empty when none): for hot paths that cannot allocate.
const char* layoutProblemSummary(LayoutProblems problems);

/// Micro-batches per pipeline per optimizer step: ceil(global batch / (DP × micro-batch)), at least 1.
int microBatchesPerStep(const TrainingConfig& training);

/// One specific message per problem, with the numbers involved, in the order of the enum.
std::vector<std::string> describeLayoutProblems(
    LayoutProblems problems, const ModelConfig& model, const TrainingConfig& training, int gpuCount);

} // namespace clusterplanner::core
