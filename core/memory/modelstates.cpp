// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/memory/modelstates.h"

#include "core/memory/activations.h"
#include "core/model/frameworkrules.h"
#include "core/model/frameworks.h"

#include <algorithm>

namespace clusterplanner::core {

namespace {

bool isMixed(Precision p)
{
    return p == Precision::AmpBf16 || p == Precision::AmpFp16 || p == Precision::Fp8;
}

bool keepsLowPrecisionWeights(Framework f)
{
    return kernelStyle(f) == KernelStyle::Fused; // Megatron-style mixed precision comes with the fused stacks
}

double adamLikeStates(Optimizer o)
{
    switch (o) {
    case Optimizer::Adam:
    case Optimizer::AdamW:
        return 2;
    case Optimizer::SgdMomentum:
        return 1;
    case Optimizer::Sgd:
        return 0;
    }
    return 2;
}

StateBytesPerParam mixedRegime(const TrainingConfig& t)
{
    StateBytesPerParam r;
    const double states = adamLikeStates(t.optimizer);
    if (keepsLowPrecisionWeights(t.framework)) {
        r.weights = 2;
        // Megatron accumulates bf16 training's gradients in an fp32 buffer where it reduces them in fp32; NeMo's
        // performance recipes keep a 16-bit buffer (frameworks.json grad_reduce_fp32), as fp16 training does, and
        // Megatron's distributed optimizer then keeps an fp32 copy of its shard's gradients (its table: 18 bytes per
        // parameter with fp32 gradients, 20 with 16-bit ones). DeepSpeed keeps 16-bit gradients and casts a
        // partition's gradients to fp32 only inside the step (ZeRO's 2 + 2 + 12 bytes).
        const bool megatron = t.framework != Framework::DeepSpeed;
        const bool sixteenBitGrads
            = !megatron || !frameworkCapabilities(t.framework).gradReduceFp32 || t.precision == Precision::AmpFp16;
        r.gradients = sixteenBitGrads ? 2 : 4;
        r.optimizer = 4 + 4 * states + (megatron && sixteenBitGrads ? 4 : 0);
        // 16-bit states: bf16 moments and a 16-bit master copy (bf16, or the remainder bits beside the bf16 weights),
        // updated from the 16-bit gradients themselves, so the fp32 gradient copy goes too (§3.15).
        // (The first test skips the framework lookup for the default: this runs for every stage of every layout.)
        if (t.optimizerStates != OptimizerStates::Fp32
            && optimizerStatesInEffect(t, frameworkCapabilities(t.framework)) == OptimizerStates::Bf16) {
            r.gradients = 2;
            r.optimizer = 2 + 2 * states;
        }
        r.persistentGradients = true;
        return r;
    }
    r.weights = 4; // fp32 weights are the master copy; autocast makes bf16 copies per forward
    r.gradients = 4;
    r.optimizer = 4 * states;
    r.autocastCopies = true;
    return r;
}

} // namespace

StateBytesPerParam stateBytesPerParam(const TrainingConfig& t)
{
    // A framework whose bf16 keeps fp32 master weights trains a scenario's pure bf16 as bf16 mixed precision
    // (mixedRegime's own test of the precision, fp16 or not, reads the same either way).
    const Precision precision = precisionInEffect(t);
    StateBytesPerParam r;
    if (isMixed(precision)) {
        r = mixedRegime(t);
    } else {
        const double element = precision == Precision::Fp32 ? 4 : 2;
        r.weights = element;
        r.gradients = element;
        r.optimizer = element * adamLikeStates(t.optimizer);
        r.persistentGradients = keepsLowPrecisionWeights(t.framework);
    }
    r.computeBytes = precision == Precision::Fp32 ? 4 : 2;
    return r;
}

int layersOnStage(int layers, int pp, int stage, int endSlots)
{
    pp = std::max(1, pp);
    if (endSlots > 0 && pp > 1) { // the embedding's slot on the first rank, the loss's on the last
        const int slots = (layers + endSlots) / pp;
        return slots - (stage == 0 ? 1 : 0) - (stage == pp - 1 ? 1 : 0);
    }
    return layers / pp + (stage < layers % pp ? 1 : 0);
}

int stageLayerCount(const MemoryContext& ctx, int pp, int stage, int endSlots)
{
    pp = std::max(1, pp);
    return layersOnStage(ctx.model.layers, pp, stage, endSlots) + (stage == pp - 1 ? ctx.params.mtpLayers : 0);
}

double lastStageEmbeddingCopy(const ModelConfig& model, int mtpLayers, int pp)
{
    const bool copy = (model.tiedEmbeddings || mtpLayers > 0) && pp > 1;
    return copy ? double(model.vocab) * model.hidden : 0.0;
}

StageParams stageParams(const MemoryContext& ctx, const ParallelLayout& layout, int stage, int endSlots)
{
    StageParams s;
    const double t = std::max(1, layout.tp);
    const double ep = std::max(1, layout.ep);
    const double etp = expertTensorParallel(layout);
    s.layers = stageLayerCount(ctx, layout.pp, stage, endSlots);
    const double moeShare = ctx.layers > 0 ? double(ctx.params.moeLayers) / ctx.layers : 0.0;
    const double dense = (1 - moeShare) * ctx.layerParamsDense;
    const double moeNonExpert = moeShare * (ctx.layerParamsMoe - ctx.params.routedExpertsPerMoeLayer);
    const double experts = moeShare * ctx.params.routedExpertsPerMoeLayer;
    s.perLayer = (dense + moeNonExpert) / t + experts / (ep * etp); // experts split by EP × ETP
    const bool first = stage == 0;
    const bool last = stage == std::max(1, layout.pp) - 1;
    const double embeddingCopy = last ? lastStageEmbeddingCopy(ctx.model, ctx.params.mtpLayers, layout.pp) : 0.0;
    s.embedding = ((first ? ctx.params.embedding : 0) + embeddingCopy) / t;
    const double head = last ? (ctx.params.head + ctx.params.finalNorm + ctx.params.mtpExtras) / t : 0;
    s.total = s.layers * s.perLayer + s.embedding + head;
    s.experts = s.layers * experts / (ep * etp);
    s.matmul = s.layers * ctx.matmulPerLayer / t + (last ? ctx.vocab * ctx.h / t : 0);
    return s;
}

ModelStateBytes modelStateBytes(const MemoryContext& ctx, const TrainingConfig& t, const StageParams& stage)
{
    const StateBytesPerParam r = stateBytesPerParam(t);
    // A routed expert's parameters live on one rank of each EP group, so its replicas, and the ranks that shard
    // its states, are the expert-data-parallel group (Megatron's expert_data_parallel_size = world / (ETP·EP·PP);
    // TorchTitan's and DeepSpeed's expert FSDP / ZeRO groups alike).
    const double shardedParams = shardedParameters(stage.total, stage.experts, t.layout);
    ModelStateBytes m;
    m.weights = r.weights * stage.total;
    m.gradients = r.gradients * stage.total;
    m.optimizer = r.optimizer * stage.total;
    if (t.shardsOptimizerStates())
        m.optimizer = r.optimizer * shardedParams;
    if (t.zeroStage >= 2)
        m.gradients = r.gradients * shardedParams;
    if (t.zeroStage >= 3) {
        m.weights = r.weights * shardedParams;
        // Working set: the unit being computed plus one prefetched, gathered in compute precision, and the
        // unit's unsharded gradients before reduce-scatter (docs/methods-memory.md §3.2, LLMA/DS).
        const double unit = ctx.largestUnitParams / std::max(1, t.layout.tp);
        m.shardBuffers = 2 * r.computeBytes * unit + r.gradients * unit;
        // FSDP inside pipeline stages (TorchTitan): parameters are not resharded after forward and gradients are
        // not reduced before the last micro-batch. The stage's gathered 16-bit parameters stay resident, and FSDP2
        // accumulates each micro-batch's unsharded gradient in its reduce dtype (fp32 under mixed precision, the
        // gradient element size here) for the whole stage; the unit being computed adds its 16-bit gradient
        // before it is accumulated (docs/methods-memory.md §3.8).
        if (t.layout.pp > 1 && frameworkCapabilities(t.framework).keepsGatheredParamsWithPipeline)
            m.shardBuffers = (r.computeBytes + r.gradients) * stage.total + r.computeBytes * unit;
    }
    return m;
}

} // namespace clusterplanner::core
