// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/perf/computetime.h"

#include "core/model/modelmath.h"
#include "core/perf/collectives.h"

#include <algorithm>

namespace clusterplanner::core::perf {

namespace {

/// Element-wise passes over b·s·h per layer forward (norms, residuals, dropout, RoPE) for the kernel style.
double elementwisePasses(const LayerShape& shape, const EfficiencyParams& e)
{
    return shape.fusedKernels ? e.elementwisePassesFused : e.elementwisePassesEager;
}

/// One GEMM whose FP8 input no norm writes (the attention output, the activation, routed tokens): its input is cast
/// on its own, at fp8CastBytesPerUnfusedInput instead of the norm-fed rate gemmTimeS charges (§4.27).
double unfusedInputGemmS(double m, double k, double n, double beta, const ComputePeaks& p)
{
    const double extraBytesPerInput = p.fp8CastBytesPerUnfusedInput - p.fp8CastBytesPerInput;
    return gemmTimeS(m, k, n, beta, p) + memoryTimeS(m * k * extraBytesPerInput, p);
}

/// Where an MLP's first projection takes its input from: the layer's norm (a dense layer), the norm output the
/// attention's QKV projection has already cast (a parallel block, §4.50), or the MoE dispatcher (routed tokens; shared
/// experts, whose norm is the MoE layer's, behind the router).
enum class MlpInput { Norm, SharedNorm, Dispatcher };

/// Forward GEMMs of an MLP with intermediate size f over the given rows, split at the activation: the first
/// projection (gate and up fused into one GEMM) and the second, whose input is the activation's output, which no norm
/// writes.
MlpGemmTimes mlpGemmTimes(
    const ModelConfig& m, double rows, double f, double t, double beta, const ComputePeaks& p, MlpInput in)
{
    const double h = m.hidden;
    const double mlpIn = (m.mlp == MlpKind::SwiGlu ? 2 : 1) * f / t;
    double first
        = in == MlpInput::Dispatcher ? unfusedInputGemmS(rows, h, mlpIn, beta, p) : gemmTimeS(rows, h, mlpIn, beta, p);
    if (in == MlpInput::SharedNorm) // under FP8 the QKV projection's copy of the input serves: no cast of its own
        first -= memoryTimeS(rows * h * p.fp8CastBytesPerInput, p);
    return {first, unfusedInputGemmS(rows, f / t, h, beta, p)};
}

double mlpGemmsS(const ModelConfig& m, double rows, double f, double t, double beta, const ComputePeaks& p, MlpInput in)
{
    return mlpGemmTimes(m, rows, f, t, beta, p, in).totalS();
}

/// MLA's up-projections: queries from their latent (or the hidden state), keys and values from theirs, split by heads.
double latentUpProjectionGemmsS(const ModelConfig& m, double tokens, double t, double beta, const ComputePeaks& p)
{
    return gemmTimeS(tokens, latentQueryInputWidth(m), queryWidth(m) / t, beta, p)
        + gemmTimeS(tokens, m.mla.kvLoraRank, latentKeyValueUpWidth(m) / t, beta, p);
}

/// Forward GEMMs of multi-head latent attention (docs/methods-time.md §4.37). The down-projections to the query and
/// key/value latents are not split by tensor parallelism (Megatron-Core duplicates them on every TP rank) and take the
/// layer norm's output, cast on its own under FP8; the up-projections take the latents' own norms, fused into them
/// (Transformer Engine's LayerNormColumnParallelLinear), and are split by heads like the output projection.
double latentAttentionGemmsS(const LayerShape& s, const ModelConfig& m, double tokens, const ComputePeaks& p)
{
    const MlaConfig& a = m.mla;
    const double h = m.hidden, t = s.tensorParallel, beta = s.bytesPerActivation;
    // With sequence parallelism the down-projections see this rank's sequence shard; the latents are gathered after.
    const double rows = s.sequenceParallel ? tokens / t : tokens;
    const double down = (a.qLoraRank > 0 ? unfusedInputGemmS(rows, h, a.qLoraRank, beta, p) : 0.0)
        + unfusedInputGemmS(rows, h, double(a.kvLoraRank) + a.qkRopeHeadDim, beta, p);
    return down + latentUpProjectionGemmsS(m, tokens, t, beta, p)
        + unfusedInputGemmS(tokens, attentionOutputWidth(m) / t, h, beta, p);
}

/// Forward GEMMs of attention's projections (QKV, output) over tokens rows.
double attentionProjectionGemmsS(const LayerShape& s, const ModelConfig& m, double tokens, const ComputePeaks& p)
{
    const double t = s.tensorParallel, beta = s.bytesPerActivation;
    if (m.mla.enabled())
        return latentAttentionGemmsS(s, m, tokens, p);
    const double h = m.hidden;
    return gemmTimeS(tokens, h, (queryWidth(m) + kvWidth(m) + valueWidth(m)) / t, beta, p)
        + unfusedInputGemmS(tokens, attentionOutputWidth(m) / t, h, beta, p);
}

/// Forward GEMMs of a MoE layer's shared experts: every token, one dense MLP of their combined width (the attention
/// projections are the layer's, counted once by the caller); 0 without shared experts.
MlpGemmTimes sharedExpertGemmTimes(
    const ModelConfig& m, const LayerShape& s, double tokens, double beta, const ComputePeaks& p)
{
    const MoeConfig& moe = *m.moe;
    if (moe.sharedExperts <= 0)
        return {};
    const double width = double(moe.sharedExperts) * moe.expertFfnHidden;
    return mlpGemmTimes(m, tokens, width, s.tensorParallel, beta, p, MlpInput::Dispatcher);
}

/// Expert GEMMs of one MoE layer: this GPU's tokens·k·cf routed rows, computed as experts/ep GEMMs of the rows the ep
/// ranks send each held expert (docs/methods-time.md §4.20). The work is that of a dense MLP of the same rows; the
/// GEMMs are smaller, and so less efficient, the more experts share it and the fewer ranks gather rows for each.
/// The experts are split over expert TP, and a rank's rows are those its expert-TP group gathers: all T tokens' with
/// expert TP = TP, its own T/TP where EP folds over TP (whole experts, a TP-th of the rows: the same work).
double expertGemmsS(const ModelConfig& m, const LayerShape& s, double tokens, double beta, const ComputePeaks& p)
{
    const MoeConfig& moe = *m.moe;
    const double t = s.expertTp();
    const double ep = std::clamp(s.expertParallel, 1.0, double(moe.experts));
    const double routed = tokens * moe.topK * moe.capacityFactor * t / s.tensorParallel;
    const double heldExperts = moe.experts / ep;
    const double perExpertRows = std::max(1.0, routed * ep / moe.experts);
    const double f = moe.expertFfnHidden;
    const double oneExpert = mlpGemmsS(m, perExpertRows, f, t, beta, p, MlpInput::Dispatcher);
    // The router is a plain linear layer (Megatron's TopKRouter), not an FP8 module: 16-bit, no casts.
    const double router = gemmTimeS(tokens, m.hidden, moe.experts, beta, sixteenBitPeaks(p));
    return oneExpert * heldExperts + router + sharedExpertGemmTimes(m, s, tokens, beta, p).totalS();
}

/// Bytes a MoE layer moves to put its tokens in expert order and back (docs/methods-time.md §4.25), per GPU and
/// micro-batch. Permute gathers each token's k rows (read and write k·T·h); unpermute reads them and writes the
/// probability-weighted sum (k + 1). Megatron's all-to-all dispatcher also regroups the received rows from source-rank
/// order to local-expert order and back (sort_chunks_by_idxs, 2k each, on the rows the rank holds after the expert-TP
/// all-gather: T/TP·etp per copy) when a rank holds several experts; a deduplicating dispatcher (DeepEP) delivers d
/// copies per token (its distinct destination ranks) and permutes them there: 3k + d. The router's top-k and softmax
/// are small against these (T·experts values, not T·k·h). The backward moves the gradients back through the same
/// gathers and scatters and, where the combine applies the routing probabilities, reads the k rows once more for their
/// gradient (where the experts' activation applies them, its own backward gives that gradient).
struct PermutationBytes
{
    double forward = 0, backward = 0;
};

PermutationBytes permutationBytes(const ModelConfig& m, const LayerShape& s, double tokens, double beta)
{
    const MoeConfig& moe = *m.moe;
    const double k = moe.topK * moe.capacityFactor;
    const double rowBytes = m.hidden * beta;
    const double scattered = tokens / (s.sequenceParallel ? s.tensorParallel : 1.0) * rowBytes;
    const int ep = int(std::clamp(s.expertParallel, 1.0, double(moe.experts)));
    PermutationBytes b;
    if (s.deepEpDispatch) {
        const ExpertRoute route {moe.topK, true, moe.expertGroups, moe.groupsPerToken};
        const double distinctRanks = moe.topK * deduplicatedShare(moe.topK, reachableTargets(route, ep));
        b.forward = (3 * k + distinctRanks) * scattered;
    } else {
        const bool regroup = ep > 1 && moe.experts > ep;
        // Without SP every TP rank already holds all T rows: nothing to gather (at TP 1 each rank holds its own).
        const bool sharded = s.sequenceParallel || s.tensorParallel <= 1;
        const double held = sharded ? scattered * s.expertTp() : scattered;
        b.forward = (3 * k + 1) * scattered + (regroup ? 4 * k * held : 0.0);
    }
    b.backward = b.forward + (s.moeProbsInActivation ? 0.0 : k * scattered);
    return b;
}

/// Context parallelism (docs/methods-time.md §4.10): how much more than the mean causal attention the slowest rank
/// computes. Balanced (2·cp chunks, rank i holding chunks i and 2cp−1−i): nothing. Contiguous chunks: rank cp−1
/// computes cp−1 full blocks and its causal diagonal, cp − ½ blocks against the mean cp/2.
double ringImbalance(const LayerShape& s)
{
    const double cp = s.contextParallel;
    return cp > 1 && !s.cpLoadBalanced ? (2 * cp - 1) / cp : 1.0;
}

/// Attention core forward: causal flash kernels skip the masked half; the materialized path computes the whole
/// score matrix and moves it through HBM (score, softmax, dropout). With CP, the slowest rank's share.
double attentionCoreS(const ModelConfig& m, const LayerShape& s, const ComputePeaks& p)
{
    const double queries = s.microBatch * m.seqLen / s.contextParallel;
    const double heads = m.heads / s.tensorParallel;
    // Scores over the query/key head width, the weighted sum over the value head width (equal outside MLA).
    const double fullFlops = 2.0 * queries * m.seqLen * heads * (queryKeyHeadDim(m) + valueHeadDim(m));
    if (s.attention != AttentionKind::Math) {
        // FlashAttention-2-generation kernels use none of Hopper's new tensor-core instructions (§4.10); the Triton
        // kernel of 2022 is one of them, with a forward ratio of its own (§4.52).
        const bool triton = s.attention == AttentionKind::Triton;
        const bool secondGeneration = s.attention == AttentionKind::Flash2 || triton;
        const double eta = p.attentionPeakFraction * (secondGeneration ? p.flash2AttentionRatio : 1.0)
            * (triton ? p.tritonForwardRatio : 1.0);
        return ringImbalance(s) * 0.5 * fullFlops / (p.attentionFlops * eta);
    }
    const double scoreBytes = 4.0 * queries * m.seqLen * heads * s.bytesPerActivation;
    return ringImbalance(s)
        * (fullFlops / (p.attentionFlops * gemmEfficiency(fullFlops / heads, p)) + memoryTimeS(scoreBytes, p));
}

struct RingMergeTimes
{
    double forwardS = 0, backwardS = 0;
};

/// Ring attention merges each of its cp−1 later steps into the running result (docs/methods-time.md §4.10). Forward:
/// rescale the fp32 output by the block's log-sum-exp; a fused correction kernel reads the block output (2 B) and
/// reads and writes the running output (8 B), eager PyTorch upcasts, subtracts, scales and subtracts in separate ops
/// (≈ 40 B). Backward: dQ accumulates in fp32 and dK, dV travel and accumulate with the KV block (10 B per element
/// fused, 20 B eager).
RingMergeTimes ringMergeS(const ModelConfig& m, const LayerShape& s, const ComputePeaks& p)
{
    if (s.contextParallel <= 1)
        return {};
    const double tokens = s.microBatch * m.seqLen / s.contextParallel;
    const double outputElements = tokens * attentionOutputWidth(m) / s.tensorParallel; // the running output
    const double queryElements = tokens * queryWidth(m) / s.tensorParallel; // dQ
    const double kvElements = tokens * (kvWidth(m) + valueWidth(m)) / s.tensorParallel;
    const double steps = s.contextParallel - 1;
    const double forwardBytes = s.fusedKernels ? 10.0 : 40.0, backwardBytes = s.fusedKernels ? 10.0 : 20.0;
    return {memoryTimeS(steps * outputElements * forwardBytes, p),
        memoryTimeS(steps * (queryElements + kvElements) * backwardBytes, p)};
}

/// Passes over the b·s·f MLP activation, forward. Fused: SwiGLU reads gate + up and writes once (3), GELU reads
/// and writes (2). Eager: SiLU then mul (2 + 3); Hugging Face's tanh-approximation GELU as 8 Python ops (pow, mul,
/// add, mul, tanh, add, mul, mul: 2 passes each, 3 for the two binary ones on full tensors) = 18; the native
/// nn.GELU kernel (PyTorch FSDP recipes, llm-foundry's MPT) reads and writes once (2), docs/methods-time.md §4.6.
double mlpActivationPasses(const ModelConfig& m, const LayerShape& s)
{
    if (m.mlp == MlpKind::SwiGlu)
        return s.fusedKernels ? 3 : 5;
    return s.fusedKernels || !s.pythonGelu ? 2 : 18;
}

/// Eager ops of one norm: LayerNorm is one native kernel; Hugging Face RMSNorm runs in Python (upcast, pow, mean,
/// add eps, rsqrt, mul, downcast, scale).
double normOps(const ModelConfig& m)
{
    return m.norm == NormKind::RmsNorm ? 8 : 1;
}

/// Kernels (fused) or eager ops of the query and key norms (docs/methods-time.md §4.36): one each, or the norm's ops.
double qkNormKernels(const ModelConfig& m, bool fusedKernels)
{
    return m.qkNorm ? 2 * (fusedKernels ? 1 : normOps(m)) : 0;
}

/// QK norm (docs/methods-time.md §4.36): the queries and keys of this rank's heads read and written once by a fused
/// norm; eager PyTorch runs the norm's ops one by one, charged as a read and a write each (Qwen3RMSNorm's eight:
/// upcast, pow, mean, add eps, rsqrt, mul, cast, scale; mean, add and rsqrt work on the reduced tensor, which the
/// upcast's fp32 width about makes up for).
double qkNormBytes(const ModelConfig& m, const LayerShape& s, double tokens)
{
    if (!m.qkNorm)
        return 0.0;
    const double passes = s.fusedKernels ? 2.0 : 2.0 * normOps(m);
    return passes * tokens * (queryWidth(m) + kvWidth(m)) / s.tensorParallel * s.bytesPerActivation;
}

/// MLA's element-wise work (docs/methods-time.md §4.37): the query and key/value latents' norms, on every TP rank or
/// on its sequence shard with sequence parallelism (a read and a write fused, the norm's ops eager), and the queries
/// and keys put together from their non-rotary and rotary parts (read the parts, write the heads: two passes over
/// this rank's queries and keys).
double latentAttentionBytes(const ModelConfig& m, const LayerShape& s, double tokens)
{
    if (!m.mla.enabled())
        return 0.0;
    const double normPasses = s.fusedKernels ? 2.0 : 2.0 * normOps(m);
    const double latents = (double(m.mla.qLoraRank) + m.mla.kvLoraRank) / (s.sequenceParallel ? s.tensorParallel : 1.0);
    const double heads = 2.0 * (queryWidth(m) + kvWidth(m)) / s.tensorParallel;
    return tokens * (normPasses * latents + heads) * s.bytesPerActivation;
}

double elementwiseBytes(const ModelConfig& m, const LayerShape& s, double f, const EfficiencyParams& e)
{
    const double tokens = s.microBatch * m.seqLen / s.contextParallel;
    // Under autocast with fp32 weights the residual stream stays fp32 (the embedding output is fp32 and only GEMMs
    // are cast down), so the norms and residual adds move 4-byte elements; GEMM outputs (the MLP) are 16 bit.
    const double residualBytes = s.autocastWeights ? 4.0 : s.bytesPerActivation;
    const double sbh = tokens * m.hidden * residualBytes / (s.sequenceParallel ? s.tensorParallel : 1.0);
    const double activationPasses = mlpActivationPasses(m, s);
    // A parallel block normalises its input once (one read and one write fewer, §4.50); its residual adds stay two.
    const double passes = std::max(0.0, elementwisePasses(s, e) - (m.parallelBlock ? 2.0 : 0.0));
    return passes * sbh + activationPasses * tokens * f / s.tensorParallel * s.bytesPerActivation
        + qkNormBytes(m, s, tokens) + latentAttentionBytes(m, s, tokens);
}

/// Eager ops of the MLP: SwiGLU = gate, up, down GEMMs + SiLU + mul; GELU = 2 GEMMs + one nn.GELU kernel, or
/// Hugging Face's tanh-approximation GELU written as Python arithmetic (pow, mul, add, mul, tanh, add, mul, mul).
double mlpOps(const ModelConfig& m, const LayerShape& s)
{
    return m.mlp == MlpKind::SwiGlu ? 5 : 2 + (s.pythonGelu ? 8 : 1);
}

/// Eager ops of MLA's projections (Hugging Face's DeepseekV3Attention): the query down-projection, its norm and
/// up-projection (or one projection without a query latent), the key/value down-projection, its norm and
/// up-projection, the output projection, and the splits and concatenations that assemble heads from the non-rotary
/// and rotary parts (split q, split kv latent, split kv, expand the rotary key, cat q, cat k).
double latentAttentionOps(const ModelConfig& m)
{
    const double query = m.mla.qLoraRank > 0 ? 2 + normOps(m) : 1;
    return query + 2 + normOps(m) + 1 + 6;
}

/// F½, the GEMM size at which fixed costs halve a GEMM's efficiency, in FLOP for this GPU and precision
/// (docs/methods-time.md §4.60). A GEMM's fixed costs are time, so the FLOPs they are worth grow with the rate large
/// GEMMs reach: FP8 doubles F½ against bf16 on one GPU, and a B200 (2,250 TFLOP/s, η∞ 0.97 of the H100's) loses 2.2×
/// an H100's FLOPs to the same microseconds. fp32 GEMMs: 10× lower.
double gemmHalfFlops(const ComputePeaks& p, Precision precision, double sixteenBitPeak, const EfficiencyParams& e)
{
    const double stated = e.gemmHalfGflop * 1e9;
    if (precision == Precision::Fp32)
        return stated * 0.1;
    if (e.gemmHalfReferenceTflops <= 0 || e.gemmPeakFraction <= 0) // no reference GPU: the peak ratio alone
        return stated * p.tensorFlops / sixteenBitPeak;
    const double referenceRate = e.gemmHalfReferenceTflops * 1e12 * e.gemmPeakFraction;
    return stated * p.tensorFlops * p.gemmPeakFraction / referenceRate;
}

} // namespace

double eagerOpsPerLayer(const ModelConfig& m, const LayerShape& s)
{
    const bool rotary = m.norm == NormKind::RmsNorm; // Llama-style: RoPE on q and k (mul, neg, cat, mul, add each)
    const bool latent = m.mla.enabled();
    const double projections = latent ? latentAttentionOps(m) : 4; // q, k, v, o
    const double projectionGemms = latent ? (m.mla.qLoraRank > 0 ? 5 : 4) : 4;
    const double gemms = projectionGemms + (m.mlp == MlpKind::SwiGlu ? 3 : 2); // projections + MLP
    const double attention = projections + (rotary ? 10 : 0) + (!latent && m.kvHeads < m.heads ? 2 : 0) // repeat_kv
        + (s.attention == AttentionKind::Math ? 5 : 1) + 1; // attention core, output re-layout
    const double casts = s.autocastWeights ? gemms + 2 : 0; // weight per GEMM, fp32 norm output per block
    const double norms = m.parallelBlock ? 1 : 2; // a parallel block's attention and MLP share one norm
    return norms * normOps(m) + attention + qkNormKernels(m, false) + mlpOps(m, s) + 2 + casts; // + 2 residual adds
}

double eagerOpsHead(const ModelConfig& m)
{
    // Each multi-token-prediction module issues the head's ops again, and its embedding, norms, concatenation and
    // projection about as many more.
    const double head = 1 + normOps(m) + 1 + 1 + 1 + 2;
    return head * (1 + 2 * std::max(0, m.mtpLayers));
}

double tensorGemmPeakFraction(const GpuSpec& gpu, const EfficiencyParams& e)
{
    const std::optional<double> share = gpu.achievableMatmulFraction();
    if (!share || e.matmulReferenceFraction <= 0)
        return e.gemmPeakFraction;
    // A carried-over share cannot take a GEMM past the peak, whatever an efficiency file says the reference is.
    return std::min(1.0, e.gemmPeakFraction * *share / e.matmulReferenceFraction);
}

/// Bytes per element per call of the FP8 casts (docs/methods-time.md §4.16, §4.27); a step has three calls per GEMM.
void setFp8CastBytes(ComputePeaks& p, Fp8Recipe recipe, Fp8CastPath casts)
{
    if (casts == Fp8CastPath::Torchao) {
        // 5 B per input element on each call (read 2 B, write 1 B, a transposed copy 1 + 1 B), 15 B over a step:
        // about three times torchao's own per-step accounting, a stand-in for costs not modelled one by one.
        p.fp8CastBytesPerInput = p.fp8CastBytesPerUnfusedInput = 5.0;
        return;
    }
    // Transformer Engine, per element over a step: a cast-transpose reads 2 B and writes the FP8 tensor and its
    // transpose (4 B); current scaling (tensorwise) first reads the tensor once more for its amax (6 B). A norm fused
    // into the next linear layer writes the FP8 tensor itself under delayed scaling (the transpose left: 2 B) and
    // bf16 plus the amax under current scaling (the quantize left: 4 B). Output gradients: a cast-transpose each.
    const bool current = recipe == Fp8Recipe::Tensorwise;
    const double castTranspose = current ? 6.0 : 4.0;
    const double normFed = casts == Fp8CastPath::TransformerEngineFusedNorm ? (current ? 4.0 : 2.0) : castTranspose;
    p.fp8CastBytesPerInput = normFed / 3;
    p.fp8CastBytesPerUnfusedInput = castTranspose / 3;
    p.fp8CastBytesPerOutput = castTranspose / 3;
}

ComputePeaks computePeaks(
    const GpuSpec& gpu, Precision precision, const EfficiencyParams& e, Fp8Recipe recipe, Fp8CastPath casts)
{
    ComputePeaks p;
    p.tensorFlops = gpu.peakFlops(precision);
    p.hbmBytesPerS = gpu.hbmTBs * 1e12;
    p.gemmPeakFraction = precision == Precision::Fp32 ? e.fp32PeakFraction : tensorGemmPeakFraction(gpu, e);
    const double sixteenBitPeak = gpu.peakFlops(Precision::AmpBf16);
    p.gemmHalfFlops = gemmHalfFlops(p, precision, sixteenBitPeak, e);
    // Every FP8 recipe runs the transformer's GEMMs in FP8 but attention in bf16, and quantizes the GEMM operands.
    const bool fp8 = precision == Precision::Fp8 && p.tensorFlops > sixteenBitPeak;
    p.attentionFlops = fp8 ? sixteenBitPeak : p.tensorFlops;
    if (fp8)
        setFp8CastBytes(p, recipe, casts);
    if (fp8 && recipe == Fp8Recipe::Rowwise) {
        // Each layout is cast on its own from bf16 with its own row scales (torchao's roofline accounting: 6 B per
        // activation element instead of tensorwise's 4, 10 B per weight element instead of 8).
        p.fp8ExtraActivationBytes = 2;
        p.fp8ExtraWeightBytes = 2;
    }
    p.weightGradSixteenBit = fp8 && recipe == Fp8Recipe::RowwiseGwHp;
    p.attentionPeakFraction = precision == Precision::Fp32 ? e.fp32PeakFraction * 0.5 : e.attentionPeakFraction;
    p.attentionBackwardFactor = e.attentionBackwardFactor;
    p.hbmFraction = e.hbmFraction;
    p.kernelLaunchS = e.kernelLaunchS;
    p.flash2AttentionRatio = e.flash2AttentionRatio;
    p.tritonForwardRatio = e.tritonForwardRatio;
    p.tritonBackwardRatio = e.tritonBackwardRatio;
    return p;
}

ComputePeaks sixteenBitPeaks(const ComputePeaks& p)
{
    ComputePeaks q = p;
    if (p.tensorFlops > p.attentionFlops) { // FP8 GEMMs: the 16-bit peak, fixed costs weighing as much as there
        q.gemmHalfFlops = p.gemmHalfFlops * p.attentionFlops / p.tensorFlops;
        q.tensorFlops = p.attentionFlops;
    }
    q.fp8CastBytesPerInput = q.fp8CastBytesPerOutput = q.fp8CastBytesPerUnfusedInput = 0;
    q.fp8ExtraActivationBytes = q.fp8ExtraWeightBytes = 0;
    q.weightGradSixteenBit = false;
    return q;
}

double gemmEfficiency(double flops, const ComputePeaks& p)
{
    return p.gemmPeakFraction * flops / (flops + p.gemmHalfFlops);
}

double gemmTimeS(double m, double k, double n, double beta, const ComputePeaks& p)
{
    if (m <= 0 || k <= 0 || n <= 0)
        return 0; // an absent GEMM (e.g. no dense MLP in an MoE layer); 0/0 would poison the step time with NaN
    const double flops = 2.0 * m * k * n;
    const double computeS = flops / (p.tensorFlops * gemmEfficiency(flops, p));
    const double extraBytes = (m * k + m * n) * p.fp8ExtraActivationBytes + k * n * p.fp8ExtraWeightBytes;
    const double castS
        = memoryTimeS(m * k * p.fp8CastBytesPerInput + m * n * p.fp8CastBytesPerOutput + extraBytes / 3, p);
    return std::max(computeS, memoryTimeS((m * k + k * n + m * n) * beta, p)) + castS;
}

double memoryTimeS(double bytes, const ComputePeaks& p)
{
    return bytes / (p.hbmBytesPerS * p.hbmFraction);
}

double attentionBackwardOverForward(const LayerShape& s, const ComputePeaks& p)
{
    return p.attentionBackwardFactor
        * (s.attention == AttentionKind::Triton ? p.tritonForwardRatio / p.tritonBackwardRatio : 1.0);
}

LayerTime layerTime(
    const ModelConfig& m, const LayerShape& s, bool moe, const ComputePeaks& p, const EfficiencyParams& e)
{
    const double tokens = s.microBatch * m.seqLen / s.contextParallel;
    const double t = s.tensorParallel, beta = s.bytesPerActivation;
    const double f = moe ? m.moe->expertFfnHidden * m.moe->topK * m.moe->capacityFactor : m.ffnHidden;
    const MlpInput denseInput = m.parallelBlock ? MlpInput::SharedNorm : MlpInput::Norm;
    auto gemmsAt = [&](const ComputePeaks& peaks) {
        return attentionProjectionGemmsS(s, m, tokens, peaks)
            + (moe ? expertGemmsS(m, s, tokens, beta, peaks) : mlpGemmsS(m, tokens, f, t, beta, peaks, denseInput));
    };
    const double gemmsS = gemmsAt(p);
    const double weightGradS = p.weightGradSixteenBit ? gemmsAt(sixteenBitPeaks(p)) : gemmsS;
    double elementS = memoryTimeS(elementwiseBytes(m, s, f, e), p);
    if (s.autocastWeights) // fp32 weights read, bf16 copy written, per forward: 6 B per layer weight
        elementS += memoryTimeS(6.0 * (attentionMatmulWeights(m) + 3.0 * m.hidden * f) / t, p);
    LayerTime lt;
    const double attentionS = attentionCoreS(m, s, p);
    const RingMergeTimes merge = ringMergeS(m, s, p);
    lt.attentionCoreForwardS = attentionS + merge.forwardS;
    lt.ringStepForwardS = s.contextParallel > 1 ? attentionS / s.contextParallel : 0.0;
    lt.gemmForwardS = gemmsS;
    lt.lastGemmForwardS = moe ? 0.0 : mlpGemmTimes(m, tokens, f, t, beta, p, denseInput).secondS;
    lt.sharedExpertForward = moe ? sharedExpertGemmTimes(m, s, tokens, beta, p) : MlpGemmTimes {};
    lt.elementwiseForwardS = elementS;
    // Every kernel takes at least kernelLaunchS on the GPU (backward runs about twice as many kernels). Fused
    // frameworks are bounded by that floor alone; eager PyTorch's host issue time is compared per phase in the step.
    // A parallel block launches one norm kernel fewer (§4.50).
    const double fusedKernels = e.kernelsPerLayerFused + qkNormKernels(m, true) - (m.parallelBlock ? 1 : 0);
    const double kernels = s.fusedKernels ? fusedKernels : eagerOpsPerLayer(m, s);
    const PermutationBytes permute = moe ? permutationBytes(m, s, tokens, beta) : PermutationBytes {};
    const double permuteS = memoryTimeS(permute.forward, p);
    lt.elementwiseForwardS += permuteS;
    lt.forwardS = std::max(gemmsS + elementS + permuteS + lt.attentionCoreForwardS, kernels * p.kernelLaunchS);
    const double backwardS = std::max(gemmsS + weightGradS + 2 * elementS + memoryTimeS(permute.backward, p)
            + attentionBackwardOverForward(s, p) * attentionS + merge.backwardS,
        2 * kernels * p.kernelLaunchS);
    lt.hostForwardS = s.fusedKernels ? 0.0 : kernels * e.hostOpS;
    if (m.mla.enabled())
        lt.latentUpProjectionForwardS
            = latentUpProjectionGemmsS(m, tokens, t, beta, p) + memoryTimeS(latentAttentionBytes(m, s, tokens), p);
    // The weight-gradient GEMMs' share of the backward (all of it bounded by the launch floor); bf16 weight
    // gradients (rowwise_gw_hp) take a larger share than the FP8 input-gradient GEMMs.
    lt.backwardWeightS = std::min(weightGradS, backwardS * weightGradS / (gemmsS + weightGradS));
    lt.backwardInputS = backwardS - lt.backwardWeightS;
    return lt;
}

LayerTime headTime(const ModelConfig& m, const LayerShape& s, const ComputePeaks& p)
{
    const double tokens = s.microBatch * m.seqLen / s.contextParallel;
    const double vocabShard = m.vocab / s.tensorParallel;
    // The output layer stays in bf16 under every FP8 recipe (Megatron's output layer is not a Transformer Engine
    // module; TorchTitan's 2024 converter skipped "output", later ones by filter_fqns, which the launch config sets).
    const double gemmS = gemmTimeS(tokens, m.hidden, vocabShard, s.bytesPerActivation, sixteenBitPeaks(p));
    // Cross-entropy over fp32 logits: fused kernels read the logits once and write the gradient (≈ 8 B per logit
    // with the 16-bit read); eager PyTorch upcasts, runs softmax and its gradient separately (≈ 20 B). A fused loss
    // kernel in an eager framework (flash-attn's cross-entropy; docs/methods-time.md §4.53) moves what fused ones do.
    const double lossBytes = tokens * vocabShard * (s.fusedKernels || s.fusedLoss ? 8.0 : 20.0);
    const double embeddingBytes = 2.0 * tokens * m.hidden * s.bytesPerActivation;
    // Each multi-token-prediction module (docs/methods-time.md §4.47) embeds the shifted tokens, normalises them and
    // the hidden state, projects the pair (2h → h, split by TP) and runs the head and the loss again on its own
    // hidden states; its transformer layer is timed with the stage's layers.
    const double mtp = std::max(0, m.mtpLayers);
    const double projectionS
        = gemmTimeS(tokens, 2.0 * m.hidden, m.hidden / s.tensorParallel, s.bytesPerActivation, sixteenBitPeaks(p));
    const double normBytes = 3 * 2.0 * tokens * m.hidden * s.bytesPerActivation; // three norms, read and write
    const double headForwardS = gemmS + memoryTimeS(lossBytes / 2 + embeddingBytes, p);
    const double mtpForwardS = headForwardS + projectionS + memoryTimeS(normBytes, p);
    LayerTime lt;
    lt.forwardS = headForwardS + mtp * mtpForwardS;
    lt.backwardWeightS = (1 + mtp) * gemmS + mtp * projectionS;
    lt.backwardInputS = lt.forwardS;
    return lt;
}

double optimizerBytesPerParameter(Optimizer optimizer, Precision precision, OptimizerStates width)
{
    const bool adam = optimizer == Optimizer::Adam || optimizer == Optimizer::AdamW;
    const double states = adam ? 2 : (optimizer == Optimizer::SgdMomentum ? 1 : 0);
    switch (precision) {
    case Precision::Bf16: // one width for weights, grads and states: read w, g, states; write w, states
        return 2 * (2 + states) + 2 * (1 + states);
    case Precision::Fp32:
        return 4 * (2 + states) + 4 * (1 + states);
    case Precision::AmpBf16:
    case Precision::AmpFp16:
    case Precision::Fp8:
        break;
    }
    // fp32 master and states read + written, fp32 grad read, 16-bit weight copy written (docs/methods-time.md §4.5: 30
    // B); with 16-bit states every one of those is 2 bytes wide (16 B; docs/methods-memory.md §3.15: Apex's bf16 copy;
    // Transformer Engine's remainder path also reads and writes the bf16 weight, about 18 B, not told apart here).
    const double element = width == OptimizerStates::Bf16 ? 2 : 4;
    return element * 2 * (1 + states) + element + 2;
}

double optimizerStepS(
    double shardParameters, Optimizer optimizer, Precision precision, const ComputePeaks& p, OptimizerStates width)
{
    return memoryTimeS(shardParameters * optimizerBytesPerParameter(optimizer, precision, width), p);
}

} // namespace clusterplanner::core::perf
