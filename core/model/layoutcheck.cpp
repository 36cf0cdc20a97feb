// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/layoutcheck.h"

#include "core/model/frameworkrules.h"
#include "core/model/modelmath.h"

#include <algorithm>
#include <iterator>

namespace clusterplanner::core {

namespace {

std::uint32_t bit(LayoutProblem p)
{
    return static_cast<std::uint32_t>(p);
}

std::string n(long long value)
{
    return std::to_string(value);
}

LayoutProblems checkDegrees(const ParallelLayout& l, int gpuCount)
{
    if (l.dp < 1 || l.tp < 1 || l.pp < 1 || l.cp < 1 || l.ep < 1 || l.virtualStages < 1 || l.expertTp < 0)
        return bit(LayoutProblem::NonPositiveDegree);
    return 1LL * l.dp * l.tp * l.pp * l.cp != gpuCount ? bit(LayoutProblem::GpuCount) : 0;
}

LayoutProblems checkModelSplit(const ModelConfig& m, const TrainingConfig& t)
{
    const ParallelLayout& l = t.layout;
    LayoutProblems p = 0;
    if (m.heads % l.tp != 0)
        p |= bit(LayoutProblem::TpHeads);
    if (m.kvHeads % l.tp != 0 && l.tp % m.kvHeads != 0)
        p |= bit(LayoutProblem::TpKvHeads);
    if (l.pp > m.layers) // every schedule: a stage without a layer (docs/methods-time.md §4.4)
        p |= bit(LayoutProblem::PpLayers);
    if (t.schedule == PipelineSchedule::Interleaved && l.virtualStages > 1) {
        // Uneven chunks are allowed (Llama 3 405B: 126 layers over PP 16; Megatron-Core's first/last-stage layer
        // counts), but every model chunk needs a layer, or the embedding's or the loss's slot where the framework
        // counts them (Megatron-Bridge's Llama 3.1 405B on PP 16 with 8 chunks per rank: 126 + 2 slots in 128 chunks).
        if (m.layers + pipelineEndSlots(m.layers, t) < l.pp * l.virtualStages)
            p |= bit(LayoutProblem::InterleavedLayers);
        if (microBatchesPerStep(t) % l.pp != 0)
            p |= bit(LayoutProblem::InterleavedMicroBatches);
    }
    if (l.cp > 1 && m.seqLen % (2 * l.cp) != 0)
        p |= bit(LayoutProblem::CpSequence);
    if (t.schedule == PipelineSchedule::DualPipe && l.pp > 1) {
        // Two directions meeting in the middle: DualPipe's schedule asserts both (deepseek-ai/DualPipe).
        const int microBatches = microBatchesPerStep(t);
        if (l.pp % 2 != 0)
            p |= bit(LayoutProblem::DualPipeStages);
        if (microBatches % 2 != 0 || microBatches < 2 * l.pp)
            p |= bit(LayoutProblem::DualPipeMicroBatches);
    }
    return p;
}

LayoutProblems checkExperts(const ModelConfig& m, const ParallelLayout& l)
{
    const long long stageRanks = 1LL * l.dp * l.cp * l.tp;
    LayoutProblems p = 0;
    // Megatron-Core lays expert TP × EP × expert DP over the same ranks as TP × CP × DP (world / PP).
    if (m.moe && l.expertTp != kExpertTpDefault && stageRanks % (1LL * l.expertTp * l.ep) != 0)
        p |= bit(LayoutProblem::ExpertTpGroup);
    if (l.ep <= 1)
        return p;
    if (!m.moe)
        return bit(LayoutProblem::EpDense);
    if (m.moe->experts % l.ep != 0)
        p |= bit(LayoutProblem::EpExperts);
    if (stageRanks % l.ep != 0)
        p |= bit(LayoutProblem::EpGroup);
    return p;
}

/// Megatron-Core (>= 0.10) builds the expert layers' groups apart from the attention's, for dense models too (EP 1,
/// expert TP = TP); with PP before DP in the rank order it starts only when both pipeline groups are the same ranks,
/// i.e. the two DP sizes agree: expert TP × EP = TP × CP. EP 1 with CP > 1 is refused as well.
LayoutProblems checkRankOrder(const ParallelLayout& l)
{
    if (l.pp <= 1 || l.rankOrder != RankOrdering::TpCpEpPpDp || (1LL * l.dp * l.cp * l.tp) % l.ep != 0)
        return 0;
    return expertDataParallel(l) != l.dp ? bit(LayoutProblem::EpPipelineOrder) : 0;
}

/// The first of hybridShardFits' two rules, which dpShardProblem words apart from the second.
bool shardDegreeDividesDp(const ParallelLayout& layout, int dpShard)
{
    return dpShard >= 1 && dpShard <= layout.dp && layout.dp % dpShard == 0;
}

/// Hybrid sharding splits DP into shard groups of dpShard ranks and their copies; the copies replicate the routed
/// experts' shards as well, so they must divide the experts' DP group too. Without sharded states (ZeRO 0, no
/// distributed optimizer) there is nothing to split and the setting is not read.
LayoutProblems checkHybridShard(const TrainingConfig& t)
{
    return !t.shardsOptimizerStates() || hybridShardFits(t.layout, t.layout.dpShard) ? 0 : bit(LayoutProblem::DpShard);
}

} // namespace

bool hybridShardFits(const ParallelLayout& layout, int dpShard)
{
    if (dpShard == kDpShardAll || dpShard == layout.dp)
        return true;
    if (!shardDegreeDividesDp(layout, dpShard))
        return false;
    return expertDataParallel(layout) % (layout.dp / dpShard) == 0;
}

int fittingDpShard(const ParallelLayout& layout, int dpShard)
{
    return hybridShardFits(layout, dpShard) ? dpShard : kDpShardAll;
}

void setDataParallel(ParallelLayout& layout, int dp)
{
    layout.dp = dp;
    layout.dpShard = fittingDpShard(layout, layout.dpShard);
}

LayoutProblems checkLayout(const ModelConfig& model, const TrainingConfig& t, int gpuCount)
{
    LayoutProblems p = checkDegrees(t.layout, gpuCount);
    if (t.zeroStage < 0 || t.zeroStage > 3)
        p |= bit(LayoutProblem::ZeroStage);
    if (t.microBatch < 1 || t.globalBatch < 1)
        p |= bit(LayoutProblem::BatchSize);
    if (hasProblem(p, LayoutProblem::NonPositiveDegree) || hasProblem(p, LayoutProblem::BatchSize))
        return p; // the remaining rules divide by these
    if (t.globalBatch % (1LL * t.layout.dp * t.microBatch) != 0)
        p |= bit(LayoutProblem::GlobalBatch);
    p |= checkHybridShard(t);
    if (model.heads < 1 || model.kvHeads < 1 || model.layers < 1)
        return p;
    return p | checkModelSplit(model, t) | checkExperts(model, t.layout) | checkRankOrder(t.layout);
}

const char* layoutProblemSummary(LayoutProblems p)
{
    static const char* const summaries[] = {"every parallel degree must be at least 1",
        "DP × TP × PP × CP must equal the GPU count", "TP must divide the attention heads",
        "TP must divide the KV heads or be a multiple of them", "more pipeline stages than layers",
        "interleaved: fewer layers than PP × virtual stages", "interleaved: micro-batches per step not divisible by PP",
        "sequence length not divisible by 2 × CP", "EP must divide the experts", "EP must divide DP × CP × TP",
        "EP on a dense model", "global batch must be a multiple of DP × micro-batch", "ZeRO stage outside 0..3",
        "micro-batch and global batch must be at least 1",
        "rank order tp-cp-ep-pp-dp with PP: the experts' DP must equal DP", "DualPipe: PP must be even",
        "DualPipe: micro-batches per step must be even and at least 2 × PP", "expert TP × EP must divide DP × CP × TP",
        "hybrid sharding: the shard degree must divide DP, and its copies the experts' DP"};
    for (std::size_t bitIndex = 0; bitIndex < std::size(summaries); ++bitIndex)
        if (p & (1u << bitIndex))
            return summaries[bitIndex];
    return "";
}

int microBatchesPerStep(const TrainingConfig& t)
{
    const long long perPass = std::max(1LL, 1LL * std::max(1, t.layout.dp) * std::max(1, t.microBatch));
    return int(std::max(1LL, (t.globalBatch + perPass - 1) / perPass));
}

namespace {

std::string dpShardProblem(const TrainingConfig& t)
{
    const ParallelLayout& l = t.layout;
    const std::string head = "hybrid sharding over " + n(l.dpShard) + " of DP " + n(l.dp) + ": ";
    if (!shardDegreeDividesDp(l, l.dpShard))
        return head + "the shard degree must divide DP";
    return head + "its " + n(l.shardReplicas()) + " copies of each shard must divide the experts' DP group ("
        + n(expertDataParallel(l)) + ")";
}

} // namespace

std::vector<std::string> describeLayoutProblems(
    LayoutProblems p, const ModelConfig& m, const TrainingConfig& t, const int gpuCount)
{
    const ParallelLayout& l = t.layout;
    std::vector<std::string> out;
    const auto add = [&](LayoutProblem which, const std::string& text) {
        if (hasProblem(p, which))
            out.push_back(text);
    };
    add(LayoutProblem::NonPositiveDegree,
        "every parallel degree (DP, TP, PP, CP, EP, virtual stages) must be at least 1, and expert TP at least 1 "
        "where it is set");
    add(LayoutProblem::GpuCount,
        "DP × TP × PP × CP = " + n(l.dp) + " × " + n(l.tp) + " × " + n(l.pp) + " × " + n(l.cp) + " = "
            + n(1LL * l.dp * l.tp * l.pp * l.cp) + ", but the cluster has " + n(gpuCount) + " GPUs");
    add(LayoutProblem::TpHeads, "TP " + n(l.tp) + " does not divide the " + n(m.heads) + " attention heads");
    add(LayoutProblem::TpKvHeads,
        "TP " + n(l.tp) + " neither divides the " + n(m.kvHeads) + " KV heads nor is a multiple of them");
    add(LayoutProblem::PpLayers, "PP " + n(l.pp) + " is larger than the " + n(m.layers) + " layers");
    add(LayoutProblem::InterleavedLayers,
        "interleaved schedule: " + n(m.layers) + " layers are fewer than PP × v = " + n(l.pp * l.virtualStages)
            + " model chunks");
    add(LayoutProblem::InterleavedMicroBatches,
        "interleaved schedule: " + n(microBatchesPerStep(t)) + " micro-batches per step are not divisible by PP "
            + n(l.pp));
    add(LayoutProblem::CpSequence,
        "CP " + n(l.cp) + ": sequence length " + n(m.seqLen) + " is not divisible by 2 × CP = " + n(2 * l.cp));
    add(LayoutProblem::EpExperts,
        "EP " + n(l.ep) + " does not divide the " + n(m.moe ? m.moe->experts : 0) + " experts");
    add(LayoutProblem::EpGroup, "EP " + n(l.ep) + " does not divide DP × CP × TP = " + n(1LL * l.dp * l.cp * l.tp));
    add(LayoutProblem::EpDense, "EP " + n(l.ep) + " is set but the model has no experts");
    add(LayoutProblem::GlobalBatch,
        "global batch " + n(t.globalBatch) + " is not divisible by DP × micro-batch = " + n(1LL * l.dp * t.microBatch));
    add(LayoutProblem::ZeroStage, "ZeRO stage " + n(t.zeroStage) + " is not one of 0, 1, 2, 3");
    add(LayoutProblem::BatchSize, "micro-batch and global batch must be at least 1");
    add(LayoutProblem::EpPipelineOrder,
        "rank order tp-cp-ep-pp-dp with PP " + n(l.pp) + ": the experts' DP, TP × DP × CP / (expert TP × EP) = "
            + n(expertDataParallel(l)) + ", must equal DP " + n(l.dp)
            + " (Megatron-Core builds the expert layers' groups, for dense models too, and starts this order only"
              " when their pipelines match the attention's)");
    add(LayoutProblem::DualPipeStages,
        "DualPipe: PP " + n(l.pp) + " is odd (its two directions meet in the middle of an even pipeline)");
    add(LayoutProblem::DualPipeMicroBatches,
        "DualPipe: " + n(microBatchesPerStep(t))
            + " micro-batches per step; it needs an even number, at least 2 × PP = " + n(2LL * l.pp));
    add(LayoutProblem::ExpertTpGroup,
        "expert TP " + n(l.expertTp) + " × EP " + n(l.ep) + " = " + n(1LL * l.expertTp * l.ep)
            + " does not divide DP × CP × TP = " + n(1LL * l.dp * l.cp * l.tp)
            + " (the expert layers' groups are laid over the same GPUs as the attention's)");
    add(LayoutProblem::DpShard, dpShardProblem(t));
    return out;
}

} // namespace clusterplanner::core
