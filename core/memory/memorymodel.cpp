// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/memory/memorymodel.h"

#include "core/memory/activationoffload.h"
#include "core/memory/activations.h"
#include "core/memory/modelstates.h"
#include "core/memory/pipelinememory.h"
#include "core/model/frameworkrules.h"
#include "core/model/frameworks.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace clusterplanner::core {

namespace {

/// The layer activations of one micro-batch on a stage (`layers` may be fractional: an offloading stage keeps
/// part of its layers).
double stageLayerBytes(const MemoryContext& ctx, const TrainingConfig& t, double layers)
{
    return layers * meanLayerActivationBytes(ctx, t);
}

struct StageInputs
{
    int stage = 0;
    /// DualPipe: the second stage this rank holds (stage p − 1 − stage of the other direction), else −1.
    int mirror = -1;
    bool first = false, last = false; ///< the rank holds the embedding / the LM head
    double inFlight = 1;
    /// DualPipe: of the inFlight micro-batches at the rank's peak, those in its far stage (mirror); the rest are in its
    /// near stage. At distance h from its end a rank holds p − h of the near stage and h + 1 of the far one (the
    /// replay of the published order, docs/methods-time.md §4.46).
    double farInFlight = 0;
    int microBatches = 1;
    int offloadedLayers = 0; ///< activation offload in effect (PP 1 only)
    /// Layer slots the embedding and the loss take (pipelineEndSlots): 2 shortens the first and the last rank by one
    /// layer each.
    int endSlots = 0;
    /// Under the interleaved schedule that layer comes out of one model chunk, which does not hold the rank's mean
    /// number of micro-batches: the first rank's first chunk holds min(2p − 1, m) of them, the last rank's last chunk
    /// one (Megatron's warm-up, docs/methods-memory.md §3.5). The micro-batches held there beyond inFlight (negative:
    /// fewer); each of them holds one layer fewer than the stage's count spread over its chunks assumes.
    double shortChunkExcess = 0;
};

/// The parameters a rank holds: its stage's, or under DualPipe its two stages' (two copies of the model over the
/// pipeline, DeepSeek-V3 report §3.2.1).
StageParams rankParams(const MemoryContext& ctx, const ParallelLayout& layout, const StageInputs& in)
{
    StageParams s = stageParams(ctx, layout, in.stage, in.endSlots);
    if (in.mirror < 0 || in.mirror == in.stage)
        return s;
    StageParams other = stageParams(ctx, layout, in.mirror);
    // A rank that holds both ends shares one embedding between them (DeepSeek-V3 report §3.2.3: the shallowest and
    // deepest layers on one rank, so that the MTP module and the main model share it physically).
    const bool bothEnds = in.first && in.last;
    const double copy
        = bothEnds && other.embedding > 0 && s.embedding > 0 ? ctx.vocab * ctx.h / std::max(1, layout.tp) : 0;
    other.embedding -= std::min(copy, other.embedding);
    other.total -= std::min(copy, other.total);
    s.total += other.total;
    s.experts += other.experts;
    s.matmul += other.matmul;
    s.embedding += other.embedding;
    s.layers += other.layers;
    return s;
}

/// Autocast caches a bf16 copy of every fp32 weight it casts until the autocast region ends. Without
/// checkpointing the graph keeps them into backward; with full recompute only the head's copy survives the
/// forward, so the larger of "end of forward" and "start of backward" is the peak.
void applyCastCache(const MemoryContext& ctx, const TrainingConfig& t, const StageInputs& in, const StageParams& params,
    const LogitsBytes& logits, MemoryBreakdown& b)
{
    const double all = 2 * params.matmul / (t.zeroStage >= 3 ? std::max(1, t.layout.shardDp() * t.layout.cp) : 1);
    if (t.recompute != Recompute::Full) {
        b.castCacheBytes = all;
        return;
    }
    const double head = in.last ? 2 * ctx.vocab * ctx.h / std::max(1, t.layout.tp) : 0;
    if (all + logits.forwardPeak > head + logits.peak) {
        b.castCacheBytes = all;
        b.logitsBytes = logits.forwardPeak;
    } else {
        b.castCacheBytes = head;
    }
}

/// Activations one micro-batch leaves on a stage of `layers` layers (with the embedding's or the head's where it holds
/// them) until its backward: layer inputs only under full recompute, the rest of the resident layers' otherwise.
double microBatchBytes(
    const MemoryContext& ctx, const TrainingConfig& t, int layers, bool first, bool last, int offloadedLayers)
{
    const double ends = (first ? embeddingActivationBytes(ctx, t) : 0) + (last ? headActivationBytes(ctx, t) : 0);
    if (t.recompute == Recompute::Full)
        return ends + layers * layerInputBytes(ctx, t);
    return ends + stageLayerBytes(ctx, t, residentActivationLayers(layers, offloadedLayers));
}

MemoryBreakdown backwardStart(const MemoryContext& ctx, const TrainingConfig& t, const StageInputs& in,
    const StageParams& params, const ModelStateBytes& states, const StateBytesPerParam& regime)
{
    MemoryBreakdown b;
    b.weightsBytes = states.weights;
    b.optimizerBytes = states.optimizer;
    b.shardBufferBytes = states.shardBuffers;
    b.workspaceBytes = ctx.workspaceBytes;
    const bool accumulating = regime.persistentGradients || in.microBatches > 1;
    b.gradientsBytes = accumulating ? states.gradients : 0;
    const LogitsBytes logits = in.last ? logitsBytes(ctx, t) : LogitsBytes {};
    b.logitsBytes = logits.peak;
    if (in.mirror < 0 || in.mirror == in.stage) {
        b.activationsBytes
            = in.inFlight * microBatchBytes(ctx, t, params.layers, in.first, in.last, in.offloadedLayers);
        if (in.shortChunkExcess != 0)
            b.activationsBytes
                = std::max(0.0, b.activationsBytes - in.shortChunkExcess * microBatchBytes(ctx, t, 1, false, false, 0));
    } else { // DualPipe: each in-flight micro-batch is in one of the rank's two stages
        const int pp = std::max(1, t.layout.pp);
        const auto stageBytes = [&](int stage) {
            return microBatchBytes(ctx, t, stageLayerCount(ctx, pp, stage), stage == 0, stage == pp - 1, 0);
        };
        b.activationsBytes
            = (in.inFlight - in.farInFlight) * stageBytes(in.stage) + in.farInFlight * stageBytes(in.mirror);
    }
    if (usesAutocast(t))
        applyCastCache(ctx, t, in, params, logits, b);
    return b;
}

/// Whether a layer's activations are rebuilt inside the backward (full, or op-level selective checkpointing).
bool recomputesLayers(const TrainingConfig& t)
{
    return t.recompute == Recompute::Full || opLevelCheckpointing(t);
}

/// Full recompute, deep in backward: one layer recomputed while nearly all gradients already exist.
MemoryBreakdown recomputePoint(const MemoryContext& ctx, const TrainingConfig& t, const StageInputs& in,
    const StageParams& params, const ModelStateBytes& states, MemoryBreakdown b)
{
    const double layerShare = params.total > 0 ? (params.perLayer + params.embedding) / params.total : 0;
    b.gradientsBytes = std::max(b.gradientsBytes, states.gradients * (1 - layerShare));
    b.logitsBytes = in.last ? logitsBytes(ctx, t).held : 0;
    TrainingConfig whole = t; // the recomputed layer holds every tensor it saves when not checkpointed
    whole.recompute = Recompute::Full;
    b.activationsBytes += stageLayerBytes(ctx, whole, 1);
    if (b.castCacheBytes > 0)
        b.castCacheBytes = 2 * (params.layers > 0 ? params.matmul / params.layers : 0); // only the live layer
    return b;
}

MemoryBreakdown stepEnd(
    const MemoryContext& ctx, const TrainingConfig& t, const StageInputs& in, const ModelStateBytes& states)
{
    MemoryBreakdown b;
    b.weightsBytes = states.weights;
    b.optimizerBytes = states.optimizer;
    b.gradientsBytes = states.gradients;
    b.workspaceBytes = ctx.workspaceBytes;
    b.logitsBytes = in.last ? logitsBytes(ctx, t).held : 0;
    return b;
}

/// Gradient shards a reduce-scatter allocated on FSDP's own stream: freed between steps (zero_grad sets them to None),
/// their blocks stay in that stream's pool, which the caching allocator does not hand to the compute stream, so
/// whatever of them is not allocated at the peak is still reserved there (docs/methods-memory.md §3.23).
double cachedGradientBytes(const TrainingConfig& t, const ModelStateBytes& states, const MemoryBreakdown& peak)
{
    if (t.zeroStage < 2 || !frameworkCapabilities(t.framework).shardedGradientsOnReduceStream)
        return 0;
    return std::max(0.0, states.gradients - peak.gradientsBytes);
}

StageMemory evaluateStage(const MemoryContext& ctx, const TrainingConfig& t, const StageInputs& in)
{
    const StageParams params = rankParams(ctx, t.layout, in);
    const ModelStateBytes states = modelStateBytes(ctx, t, params);
    const StateBytesPerParam regime = stateBytesPerParam(t);
    StageMemory s;
    s.stage = in.stage;
    s.layers = params.layers;
    s.inFlightMicroBatches = in.inFlight;
    if (in.offloadedLayers > 0) // the per-layer figure is the costly part of an evaluation: only when needed
        s.hostActivationBytes = in.inFlight * in.offloadedLayers * offloadedLayerBytes(ctx, t);
    s.peak = backwardStart(ctx, t, in, params, states, regime);
    if (recomputesLayers(t)) {
        const MemoryBreakdown deep = recomputePoint(ctx, t, in, params, states, s.peak);
        if (deep.totalBytes() > s.peak.totalBytes())
            s.peak = deep;
    }
    const MemoryBreakdown end = stepEnd(ctx, t, in, states);
    if (end.totalBytes() > s.peak.totalBytes()) {
        s.peak = end;
        s.phase = PeakPhase::StepEnd;
    }
    s.persistentBytes
        = states.weights + states.optimizer + ctx.workspaceBytes + (regime.persistentGradients ? states.gradients : 0);
    const double transient = std::max(0.0, s.peak.totalBytes() - s.persistentBytes);
    s.cachedGradientBytes = cachedGradientBytes(t, states, s.peak);
    s.reservedBytes = s.peak.totalBytes() + memoryconstants::kFragmentationShare * transient + s.cachedGradientBytes;
    return s;
}

double usableBytes(const MemoryContext& ctx, const TrainingConfig& t)
{
    const bool multiGpu = t.layout.gpuCount() > 1;
    return std::max(
        0.0, ctx.capacityBytes - ctx.contextReserveBytes - (multiGpu ? memoryconstants::kNcclBufferBytes : 0.0));
}

/// DualPipe: rank d holds stages d and p − 1 − d. Rank 0 holds the embedding and the head; the rank with the most
/// layers is the other candidate for the peak (uneven splits give the first ranks one layer more).
int dualPipeFullestRank(const MemoryContext& ctx, int pp)
{
    int fullest = 0, most = -1;
    for (int d = 0; d < pp / 2; ++d) {
        const int held = stageLayerCount(ctx, pp, d) + stageLayerCount(ctx, pp, pp - 1 - d);
        if (held > most) {
            most = held;
            fullest = d;
        }
    }
    return fullest;
}

} // namespace

MemoryEstimate evaluateMemory(const MemoryContext& ctx, const TrainingConfig& t)
{
    MemoryEstimate e;
    const int pp = std::max(1, t.layout.pp);
    const int m = microBatchesPerStep(t);
    const int offloaded = activationOffloadLayersInEffect(ctx, t);
    const bool dualPipe = t.schedule == PipelineSchedule::DualPipe && pp > 1;
    const int endSlots = pipelineEndSlots(ctx.model.layers, t);
    const bool chunked = t.schedule == PipelineSchedule::Interleaved && t.layout.virtualStages > 1;
    const auto inputsFor = [&](int stage) {
        StageInputs in;
        in.stage = stage;
        in.mirror = dualPipe ? pp - 1 - stage : -1;
        in.first = stage == 0 || in.mirror == 0;
        in.last = stage == pp - 1 || in.mirror == pp - 1;
        in.microBatches = m;
        in.inFlight = inFlightMicroBatches(t.schedule, pp, t.layout.virtualStages, m, stage);
        in.farInFlight = dualPipe ? std::min(in.inFlight, double(stage + 1)) : 0.0;
        in.offloadedLayers = offloaded;
        in.endSlots = endSlots;
        if (endSlots > 0 && chunked && (stage == 0 || stage == pp - 1))
            in.shortChunkExcess = (stage == 0 ? std::min(2 * pp - 1, m) : 1) - in.inFlight;
        return in;
    };
    const int second = dualPipe ? dualPipeFullestRank(ctx, pp) : pp - 1;
    e.first = evaluateStage(ctx, t, inputsFor(0));
    e.last = second != 0 ? evaluateStage(ctx, t, inputsFor(second)) : e.first;
    const bool lastIsPeak = e.last.peak.totalBytes() > e.first.peak.totalBytes();
    e.peakStage = lastIsPeak ? second : 0;
    e.peakAllocatedBytes = std::max(e.first.peak.totalBytes(), e.last.peak.totalBytes());
    e.peakReservedBytes = std::max(e.first.reservedBytes, e.last.reservedBytes);
    e.usableBytes = usableBytes(ctx, t);
    e.fits = ctx.valid && e.peakReservedBytes <= e.usableBytes;
    e.gradientAccumulationSteps = m;
    e.offloadedLayers = offloaded;
    return e;
}

int maxMicroBatch(const MemoryContext& ctx, TrainingConfig t, int limit)
{
    // The global batch is what the optimizer sees; B_max asks how big one micro-batch may be, so hold the number
    // of micro-batches per step fixed at what the batch gives for b = 1 (pipelines keep their in-flight count).
    const auto fitsWith = [&](int b) {
        t.microBatch = b;
        const long long perPass = 1LL * b * std::max(1, t.layout.dp); // dp up to 10^7: beyond int
        t.globalBatch
            = int(std::min<long long>(std::numeric_limits<int>::max(), std::max<long long>(t.globalBatch, perPass)));
        return evaluateMemory(ctx, t).fits;
    };
    if (!fitsWith(1))
        return 0;
    int low = 1, high = limit;
    while (low < high) {
        const int mid = low + (high - low + 1) / 2;
        if (fitsWith(mid))
            low = mid;
        else
            high = mid - 1;
    }
    return low;
}

int seedMaxBatch(double gpuBytes, double staticBytes, double reservedBytes, double bytesPerSample)
{
    if (bytesPerSample <= 0)
        return 0;
    // Tolerance for decimal inputs such as 2400 MB / 50 MB that land a hair below an integer in binary.
    return std::max(0, int(std::floor((gpuBytes - staticBytes - reservedBytes) / bytesPerSample + 1e-9)));
}

} // namespace clusterplanner::core
