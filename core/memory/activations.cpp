// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/memory/activations.h"

#include "core/memory/modelstates.h"
#include "core/model/frameworkrules.h"
#include "core/model/frameworks.h"
#include "core/model/modelmath.h"

#include <algorithm>

namespace clusterplanner::core {

namespace {

/// Bytes per token of one layer, split by how tensor parallelism divides them.
struct PerToken
{
    double replicated = 0; ///< norm inputs/outputs, residual stream: divided by t only with sequence parallel
    double sharded = 0; ///< per-head and FFN tensors: divided by t
    double scoresPerKey = 0; ///< materialized attention (per key position, per token), divided by t
};

struct Dtypes
{
    double compute = 2; ///< bf16/fp16 (4 under fp32)
    double residual = 2; ///< residual stream: fp32 under autocast over fp32 weights
    bool autocast = false;
};

bool autocastRegime(const StateBytesPerParam& r, const TrainingConfig& t)
{
    return r.autocastCopies && kernelStyle(t.framework) == KernelStyle::Eager
        && frameworkCapabilities(t.framework).autocast;
}

Dtypes dtypesOf(const TrainingConfig& t)
{
    const StateBytesPerParam r = stateBytesPerParam(t);
    Dtypes d;
    d.compute = r.computeBytes;
    d.autocast = autocastRegime(r, t);
    d.residual = d.autocast ? 4 : d.compute;
    return d;
}

bool isLlamaStyle(const MemoryContext& ctx)
{
    return ctx.model.norm == NormKind::RmsNorm;
}

double expertTokensFactor(const MemoryContext& ctx, bool moeLayer)
{
    return moeLayer ? ctx.moeTopK * ctx.moeCapacity : 1.0;
}

/// Hugging Face keeps a KV cache (use_cache) when layers are not checkpointed: the cache copies K (and V)
/// with torch.cat, and those copies are what attention saves.
bool keepsKvCache(const TrainingConfig& t)
{
    return t.framework == Framework::HuggingFace && t.recompute == Recompute::None;
}

/// Bytes an eager norm keeps per element it normalises: RMSNorm its fp32 upcast (for pow and mul) and the normalised
/// tensor in `elementBytes` (for the weight multiply); LayerNorm its input.
double eagerNormSavedBytes(const MemoryContext& ctx, double elementBytes)
{
    return isLlamaStyle(ctx) ? 4 + elementBytes : elementBytes;
}

void eagerAttention(const MemoryContext& ctx, const TrainingConfig& t, const Dtypes& d, PerToken& p)
{
    const bool cache = keepsKvCache(t);
    if (isLlamaStyle(ctx)) {
        // RoPE multiplies by cos/sin in the residual dtype, so K after RoPE is fp32 under autocast.
        const double kRope = cache ? d.residual : d.compute;
        const double kCast = kRope != d.compute ? d.compute : 0;
        p.sharded += d.compute * ctx.hQ + (kRope + kCast) * ctx.hKv + d.compute * ctx.hV;
    } else {
        // Fused QKV output stays alive through the Q view; the cache adds copies of K and V.
        p.sharded += d.compute * (ctx.hQ + ctx.hKv + ctx.hV) + (cache ? d.compute * (ctx.hKv + ctx.hV) : 0);
    }
    p.sharded += d.compute * ctx.hO; // attention output = output-projection input (BSHD, no copy)
    // MLA's latents: each norm keeps what eagerNormSavedBytes says, and its output is the up-projection's input.
    p.replicated += (eagerNormSavedBytes(ctx, d.compute) + d.compute) * (ctx.latentQ + ctx.latentKv);
    if (ctx.model.qkNorm) // Qwen3's q_norm and k_norm (docs/methods-memory.md §3.16)
        p.sharded += eagerNormSavedBytes(ctx, d.compute) * (ctx.hQ + ctx.hKv);
}

void eagerMlp(const MemoryContext& ctx, const TrainingConfig& t, const Dtypes& d, double f, PerToken& p)
{
    if (ctx.model.mlp == MlpKind::SwiGlu) {
        p.sharded += 4 * d.compute * f; // gate (SiLU input), SiLU output, up, product (down input)
        return;
    }
    if (frameworkCapabilities(t.framework).pythonGelu) {
        // gelu_new written with pow/tanh: pow input, tanh output and 1+tanh in fp32 under autocast, plus 0.5·x
        // and the down-projection input.
        const double upcast = d.autocast ? 4 : d.compute;
        p.sharded += (3 * upcast + 2 * d.compute) * f;
        return;
    }
    p.sharded += 2 * d.compute * f; // GELU input and output
}

PerToken eagerLayer(const MemoryContext& ctx, const TrainingConfig& t, double f)
{
    const Dtypes d = dtypesOf(t);
    PerToken p;
    // RMSNorm upcasts to fp32 and keeps that copy plus the normalized tensor; LayerNorm keeps its input.
    const double norm = eagerNormSavedBytes(ctx, d.residual) * ctx.h;
    const double attnProjections = isLlamaStyle(ctx) ? 3 : 1; // separate q/k/v vs fused c_attn
    const double mlpProjections = ctx.model.mlp == MlpKind::SwiGlu ? 2 : 1;
    const double castIn = d.autocast ? 2 : d.compute;
    const double attnIn = d.autocast ? attnProjections * castIn * ctx.h : d.compute * ctx.h;
    const double mlpIn = d.autocast ? mlpProjections * castIn * ctx.h : d.compute * ctx.h;
    // A parallel block's one norm output is both branches' input: saved once, unless autocast casts a copy per GEMM.
    p.replicated = ctx.model.parallelBlock ? norm + (d.autocast ? attnIn + mlpIn : d.compute * ctx.h)
                                           : 2 * norm + attnIn + mlpIn;
    eagerAttention(ctx, t, d, p);
    eagerMlp(ctx, t, d, f, p);
    return p;
}

bool hasDropout(const MemoryContext& ctx, const TrainingConfig& t)
{
    return kernelStyle(t.framework) == KernelStyle::Fused && ctx.model.norm == NormKind::LayerNorm;
}

/// Transformer Engine saves every GEMM input for the backward as its FP8 copy (1 byte); torchao saves the bf16 input
/// and casts it again in the backward (docs/methods-time.md §4.16).
bool fp8InputsSaved(const TrainingConfig& t)
{
    return t.precision == Precision::Fp8 && frameworkCapabilities(t.framework).fp8ViaTransformerEngine;
}

/// Bytes per element of a GEMM input kept for the weight gradient: its FP8 copy, or the compute dtype.
double savedGemmInputBytes(const TrainingConfig& t)
{
    return fp8InputsSaved(t) ? 1 : dtypesOf(t).compute;
}

PerToken fusedLayer(const MemoryContext& ctx, const TrainingConfig& t, double f)
{
    const double scale = dtypesOf(t).compute / 2; // K22 counts 2-byte activations
    const bool dropout = hasDropout(ctx, t);
    // The QKV and MLP inputs, the projection input and the second MLP GEMM's input (fp8InputsSaved).
    const double gemmInput = savedGemmInputBytes(t);
    PerToken p;
    // Two norm inputs, QKV input, MLP input (+ two 1-byte dropout masks): K22's replicated 10sbh. A parallel block
    // has one norm, whose output is the QKV and MLP input at once (docs/methods-memory.md §3.20).
    const double norms = ctx.model.parallelBlock ? 1 : 2;
    p.replicated = scale * 2 * norms * ctx.h + norms * gemmInput * ctx.h + (dropout ? 2 * ctx.h : 0);
    const double attention = scale * (2 * ctx.hQ + 2 * ctx.hKv + 2 * ctx.hV) + gemmInput * ctx.hO; // Q, K, V, proj
    // MLA's latents (docs/methods-memory.md §3.17): each latent norm, fused into its up-projection, keeps its input for
    // the norm's backward and its output (the FP8 copy under FP8) for the up-projection's weight gradient. The
    // down-projections are not split by TP, so the latents count with the replicated tensors.
    p.replicated += (scale * 2 + gemmInput) * (ctx.latentQ + ctx.latentKv);
    // Fused SwiGLU keeps gate and up (the activation's input); GELU its input; then the down GEMM's input.
    const double mlp = scale * (ctx.model.mlp == MlpKind::SwiGlu ? 4 * f : 2 * f) + gemmInput * f;
    // QK norm: Transformer Engine's norm saves a contiguous copy of its input (the query is reshaped out of the QKV
    // output, the key sliced) and fp32 inverse RMS per head (docs/methods-memory.md §3.16).
    const double qkNorm
        = ctx.model.qkNorm ? dtypesOf(t).compute * (ctx.hQ + ctx.hKv) + 4 * (ctx.heads + ctx.model.kvHeads) : 0;
    p.sharded = attention + qkNorm + mlp;
    return p;
}

/// The attention core: flash-style kernels keep fp32 log-sum-exp per head; a materialized kernel keeps the
/// score matrix (K22: softmax 2, dropout mask 1, dropout output 2 bytes; eager: fp32 softmax + cast).
void attentionCore(const MemoryContext& ctx, const TrainingConfig& t, PerToken& p)
{
    const bool materialized = t.attention == AttentionKind::Math && t.recompute == Recompute::None;
    if (!materialized) {
        p.sharded += 4 * ctx.heads;
        return;
    }
    const Dtypes d = dtypesOf(t);
    const double perScore
        = kernelStyle(t.framework) == KernelStyle::Fused ? (hasDropout(ctx, t) ? 5 : 2) : 4 + d.compute;
    p.scoresPerKey = perScore * ctx.heads;
}

double tokensPerRank(const MemoryContext& ctx, const TrainingConfig& t)
{
    return double(t.microBatch) * ctx.seq / std::max(1, t.layout.cp);
}

double replicatedDivisor(const TrainingConfig& t)
{
    return t.layout.sequenceParallel ? std::max(1, t.layout.tp) : 1;
}

} // namespace

bool usesAutocast(const TrainingConfig& t)
{
    return autocastRegime(stateBytesPerParam(t), t);
}

KernelStyle kernelStyle(Framework framework)
{
    switch (framework) {
    case Framework::Megatron:
    case Framework::NeMo:
    case Framework::DeepSpeed:
    case Framework::Other: // production stacks (XLA, Megatron-derived, in-house) fuse like Megatron
        return KernelStyle::Fused;
    default:
        return KernelStyle::Eager;
    }
}

double layerActivationBytes(const MemoryContext& ctx, const TrainingConfig& t, bool moeLayer)
{
    const double f = moeLayer ? ctx.expertF * expertTokensFactor(ctx, moeLayer) : ctx.f;
    PerToken p = kernelStyle(t.framework) == KernelStyle::Fused ? fusedLayer(ctx, t, f) : eagerLayer(ctx, t, f);
    attentionCore(ctx, t, p);
    const bool modules
        = t.recompute == Recompute::Modules && frameworkCapabilities(t.framework).supports(Recompute::Modules);
    if (modules && ctx.model.mla.enabled() && kernelStyle(t.framework) == KernelStyle::Fused) {
        // Megatron-Core's "mla_up_proj" (docs/methods-memory.md §3.17): the up-projections run under a checkpoint
        // that frees the query, key and value heads once the attention kernel has read them and builds them again in
        // the backward; the latents stay as the checkpoint's 16-bit inputs, without the norms' outputs.
        p.sharded -= dtypesOf(t).compute * (ctx.hQ + ctx.hKv + ctx.hV);
        p.replicated -= savedGemmInputBytes(t) * (ctx.latentQ + ctx.latentKv);
        // With "layernorm" in the list (a MoE model) the input norm, a module of its own under MLA, is recomputed
        // too: its output, the down-projections' input, is not kept.
        if (inputNormRecomputed(ctx.model))
            p.replicated -= savedGemmInputBytes(t) * ctx.h;
    }
    if (moeLayer && modules) {
        // Megatron-Core's recompute_modules "layernorm" and "moe_act" (docs/methods-memory.md §3.14): the separate
        // pre-MLP norm's output (the router's and the dispatch's input) and the experts' activation output (the
        // second expert GEMM's input) are dropped and recomputed in the backward.
        p.replicated -= savedGemmInputBytes(t) * ctx.h;
        p.sharded -= savedGemmInputBytes(t) * f;
    }
    double routedRows = 0;
    if (moeLayer) {
        // Permuted tokens: the experts' first GEMM keeps each of the k copies for the weight gradient (Transformer
        // Engine's FP8 copy under FP8, as every GEMM input of fusedLayer), and a combine that applies the routing
        // probabilities keeps the k expert outputs for their gradient; where the experts' activation applies them
        // (Megatron-Core 0.13 and later) the combine is a plain sum and keeps nothing (docs/methods-memory.md §3.18).
        const double compute = dtypesOf(t).compute;
        const double combine = frameworkCapabilities(t.framework).moeProbsInActivation ? 0.0 : compute;
        routedRows = ((fp8InputsSaved(t) ? 1 : compute) + combine) * ctx.h * expertTokensFactor(ctx, moeLayer);
    }
    const double tp = std::max(1, t.layout.tp);
    const double tokens = tokensPerRank(ctx, t);
    const double keys = ctx.seq / std::max(1, t.layout.cp);
    // The routed rows are whole (h wide) on every expert-TP rank, which gathers its group's sequence shards: an
    // expert-TP/TP share of the tokens under sequence parallelism, all of them without (docs/methods-memory.md §3.2).
    const bool sharded = t.layout.sequenceParallel || tp == 1; // each rank holds its own tokens
    const double routedShare = sharded ? tp / expertTensorParallel(t.layout) : 1.0;
    return tokens
        * (p.replicated / replicatedDivisor(t) + p.sharded / tp + p.scoresPerKey * keys / tp
            + routedRows / routedShare);
}

double meanLayerActivationBytes(const MemoryContext& ctx, const TrainingConfig& t)
{
    const double moeShare = ctx.layers > 0 ? double(ctx.params.moeLayers) / ctx.layers : 0.0;
    const auto perLayer = opLevelCheckpointing(t) ? &opLevelCheckpointBytes : &layerActivationBytes;
    const double dense = moeShare < 1 ? perLayer(ctx, t, false) : 0.0;
    const double moe = moeShare > 0 ? perLayer(ctx, t, true) : 0.0;
    return (1 - moeShare) * dense + moeShare * moe;
}

double layerInputBytes(const MemoryContext& ctx, const TrainingConfig& t)
{
    return tokensPerRank(ctx, t) * dtypesOf(t).residual * ctx.h / replicatedDivisor(t);
}

bool opLevelCheckpointing(const TrainingConfig& t)
{
    return t.recompute == Recompute::Selective && frameworkCapabilities(t.framework).selectiveIsOpLevel;
}

double opLevelCheckpointBytes(const MemoryContext& ctx, const TrainingConfig& t, bool moeLayer)
{
    const double d = dtypesOf(t).compute;
    const double f = moeLayer ? ctx.expertF * expertTokensFactor(ctx, moeLayer) : ctx.f;
    // Replicated over TP (split only by sequence parallelism): the layer input and the down projection's output.
    // Eager checkpointing stores every output its policy saves; a compiled dense block keeps only what its backward
    // reads, and the down projection's output feeds nothing but the residual add (docs/methods-memory.md §3.24). A
    // MoE layer's expert outputs may feed a weighted combine whose gradient reads them: kept there.
    const bool savesDownProjection = moeLayer || !blocksCompiled(t, frameworkCapabilities(t.framework));
    const double replicated = (savesDownProjection ? 2 : 1) * d * ctx.h;
    // Split over TP: q, v, the first MLP projection and the attention output (+ its fp32 log-sum-exp per head).
    const double sharded = d * (ctx.hQ + ctx.hO + ctx.hV + f) + 4 * ctx.heads;
    return tokensPerRank(ctx, t) * (replicated / replicatedDivisor(t) + sharded / std::max(1, t.layout.tp));
}

double embeddingActivationBytes(const MemoryContext& ctx, const TrainingConfig& t)
{
    return hasDropout(ctx, t) ? tokensPerRank(ctx, t) * ctx.h / replicatedDivisor(t) : 0.0;
}

double headActivationBytes(const MemoryContext& ctx, const TrainingConfig& t)
{
    const Dtypes d = dtypesOf(t);
    double perToken = 0;
    if (kernelStyle(t.framework) == KernelStyle::Fused)
        perToken = 2 * 2 * d.compute / 2 * ctx.h; // final norm input + head input (K22 §4.3: 4sbh)
    else
        perToken = (isLlamaStyle(ctx) ? 4 + d.residual : d.residual) * ctx.h + (d.autocast ? 2 : d.compute) * ctx.h;
    // Each multi-token-prediction module saves what the head saves for its own head, and before its layer the two
    // norms' inputs (hidden state, embedding) and the projection's 2h-wide input.
    const double mtp = ctx.params.mtpLayers;
    perToken += mtp * (perToken + 4 * d.compute * ctx.h);
    return tokensPerRank(ctx, t) * perToken / replicatedDivisor(t);
}

namespace {

/// Each multi-token-prediction module computes its own logits and loss before the main head's (Megatron-Core's
/// process_mtp_loss) and keeps what that loss saves for the backward: the fused cross-entropy's fp32 softmax, or
/// the logits an unfused loss holds (docs/methods-memory.md §3.19).
LogitsBytes withPredictionHeads(LogitsBytes l, double mtpLayers, double savedPerHead)
{
    l.peak += mtpLayers * savedPerHead;
    l.forwardPeak += mtpLayers * savedPerHead;
    l.held += mtpLayers * std::min(l.held, savedPerHead);
    return l;
}

} // namespace

LogitsBytes logitsBytes(const MemoryContext& ctx, const TrainingConfig& t)
{
    const double entries = tokensPerRank(ctx, t) * ctx.vocab / std::max(1, t.layout.tp); // vocab-parallel
    const double compute = dtypesOf(t).compute;
    LogitsBytes l;
    if (kernelStyle(t.framework) == KernelStyle::Fused) {
        // Vocab-parallel cross-entropy keeps fp32 softmax and writes its gradient in place, then casts.
        l.peak = (4 + compute) * entries;
        l.forwardPeak = l.peak;
        return withPredictionHeads(l, ctx.params.mtpLayers, 4 * entries);
    }
    const FrameworkCapabilities& caps = frameworkCapabilities(t.framework);
    if (fusedLossApplies(t, caps)) {
        // Compiled cross-entropy (docs/methods-memory.md §3.12): Inductor fuses the upcast, log-softmax and their
        // gradients; the graph saves the logits (and a per-row log-sum-exp) and writes one 16-bit input gradient.
        // The saved logits outlive the caller's reference, so dropping it frees them only after the backward.
        // A fused cross-entropy kernel (§3.21) saves and writes the same.
        l.forwardPeak = compute * entries;
        l.peak = 2 * compute * entries;
        l.held = caps.freesLogitsBeforeBackward && t.layout.pp == 1 ? 0 : compute * entries;
        return withPredictionHeads(l, ctx.params.mtpLayers, compute * entries);
    }
    // logits.float() -> log_softmax (saved, fp32); backward: nll grad + log_softmax grad (fp32) while the
    // returned logits in compute precision are still referenced by the caller.
    l.held = compute * entries;
    l.peak = l.held + 12 * entries;
    l.forwardPeak = l.held + (compute < 4 ? 4 : 0) * entries + 4 * entries;
    if (t.layout.tp > 1 && caps.dtensorLossParallel) {
        // DTensor's loss_parallel (torch/distributed/tensor/parallel/loss.py) spells both passes out in fp32 ops:
        // the forward holds the fp32 copy, x - max and exp(shifted) (then the result) together; the backward
        // computes (zeros_like(x) + exp(x)) * grad beside the saved log-probabilities: four fp32 buffers where the
        // fused pair keeps three (docs/methods-memory.md §3.10).
        l.peak = l.held + 16 * entries;
        l.forwardPeak = l.held + (compute < 4 ? 4 : 0) * entries + 8 * entries;
    }
    // TorchTitan drops the logits before the backward ("del pred") where it calls the loss itself; a pipeline
    // schedule keeps the last stage's output for its backward.
    if (caps.freesLogitsBeforeBackward && t.layout.pp == 1)
        l.peak -= l.held;
    return withPredictionHeads(l, ctx.params.mtpLayers, (compute + 4) * entries);
}

} // namespace clusterplanner::core
