// SPDX-License-Identifier: GPL-3.0-or-later
// Compute time of one transformer layer, the LM head and the optimizer step: roofline per op (docs/methods-time.md
// §4.1) with GEMM efficiency that falls for small GEMMs, memory-bound element-wise work and a kernel-launch floor.
#pragma once

#include "core/model/gpucatalog.h"
#include "core/model/scenario.h"
#include "core/perf/efficiencyparams.h"
#include "core/perf/expertexposure.h"

namespace clusterplanner::core::perf {

/// Peaks of one GPU for one precision, with the family's efficiency parameters.
struct ComputePeaks
{
    double tensorFlops = 0; ///< dense peak for the GEMM precision, FLOP/s (fp32: the fp32 peak)
    double attentionFlops = 0; ///< peak the attention core runs at (FP8 recipes keep attention in bf16)
    /// FP8 (docs/methods-time.md §4.16, §4.27): bytes moved per call to scale and cast a GEMM's operands, 0
    /// otherwise: per element of an input a norm writes (m·k; QKV, a dense MLP's first projection), of any other
    /// input (the attention output, the activation, routed tokens), and of the output gradient (m·n).
    double fp8CastBytesPerInput = 0;
    double fp8CastBytesPerUnfusedInput = 0;
    double fp8CastBytesPerOutput = 0;
    /// Rowwise scaling's extra traffic over a step, per element of a linear layer's activation operands (input and
    /// output gradient) and of its weight, charged a third to each of its three GEMMs.
    double fp8ExtraActivationBytes = 0;
    double fp8ExtraWeightBytes = 0;
    bool weightGradSixteenBit = false; ///< the weight-gradient GEMMs run at the 16-bit peak (rowwise_gw_hp)
    double hbmBytesPerS = 0; ///< datasheet bandwidth, B/s
    double gemmPeakFraction = 0.8; ///< η∞ for this precision
    double gemmHalfFlops = 2e9; ///< F½ in FLOP
    double attentionPeakFraction = 0.55;
    double attentionBackwardFactor = 2.5;
    double hbmFraction = 0.8;
    double kernelLaunchS = 6e-6;
    double flash2AttentionRatio = 1.0; ///< FlashAttention-2-generation kernels vs the fused one (efficiency.json)
    double tritonForwardRatio = 1.0; ///< FlashAttention's Triton kernel vs FlashAttention-2, forward
    double tritonBackwardRatio = 1.0; ///< and backward (efficiency.json)
};

/// How a framework's FP8 GEMMs get their inputs cast (docs/methods-time.md §4.27): torchao (every input, every call),
/// Transformer Engine modules, or Transformer Engine with the norm fused into the linear layer that follows it
/// (Megatron-Core's TE spec: LayerNormColumnParallelLinear for QKV and the first MLP projection).
enum class Fp8CastPath { Torchao, TransformerEngine, TransformerEngineFusedNorm };

/// recipe: the FP8 recipe in effect (ignored for other precisions); casts: how the framework casts FP8 inputs.
ComputePeaks computePeaks(const GpuSpec& gpu, Precision precision, const EfficiencyParams& efficiency,
    Fp8Recipe recipe = Fp8Recipe::Delayed, Fp8CastPath casts = Fp8CastPath::Torchao);
/// The same GPU at its 16-bit GEMM peak without FP8 casts: the LM head, which every FP8 recipe leaves in bf16, and
/// the weight-gradient GEMMs of rowwise_gw_hp. Unchanged for 16-bit and fp32 peaks.
ComputePeaks sixteenBitPeaks(const ComputePeaks& peaks);

/// η∞ of this GPU's tensor-core GEMMs: the family's calibrated gemmPeakFraction, carried over by the ratio of measured
/// achievable-matmul shares when the GPU and the family's reference both have one (docs/methods-time.md §4.31).
double tensorGemmPeakFraction(const GpuSpec& gpu, const EfficiencyParams& efficiency);

/// GEMM efficiency for a GEMM of flops FLOP: η∞·F/(F + F½) (saturating; CAL's stepwise table, smoothed).
double gemmEfficiency(double flops, const ComputePeaks& peaks);
/// Roofline time of one GEMM (m×k)·(k×n): max(2mkn/(P·η(F)), bytes/(BW·η_M)).
double gemmTimeS(double m, double k, double n, double bytesPerElement, const ComputePeaks& peaks);
/// Time of purely memory-bound work moving bytes.
double memoryTimeS(double bytes, const ComputePeaks& peaks);

/// How one layer is split and run.
struct LayerShape
{
    double microBatch = 1; ///< b
    double tensorParallel = 1; ///< t
    double contextParallel = 1; ///< cp
    bool sequenceParallel = false;
    bool fusedKernels = true; ///< Megatron-style fused element-wise kernels vs eager PyTorch
    bool autocastWeights = false; ///< fp32 weights cast to 16 bit every forward (PyTorch autocast)
    bool pythonGelu = false; ///< eager GELU as Python arithmetic (Hugging Face gelu_new), else one nn.GELU kernel
    double bytesPerActivation = 2;
    AttentionKind attention = AttentionKind::Flash;
    bool cpLoadBalanced = true; ///< CP gives every rank an equal share of the causal attention
    /// ep: the GPU holds experts/ep of each MoE layer's experts, and the all-to-all brings each of them the rows the
    /// ep ranks route to it, so its expert GEMMs are ep times taller than one rank's routed tokens would make them.
    double expertParallel = 1;
    /// The MoE dispatcher deduplicates (DeepEP, HybridEP): tokens arrive once per rank and are permuted into expert
    /// order there, without the all-to-all dispatcher's regrouping of the received rows (§4.25).
    bool deepEpDispatch = false;
    /// The experts' activation applies the routing probabilities (FrameworkCapabilities::moeProbsInActivation): the
    /// combine's backward need not read the k expert outputs again for their gradient.
    bool moeProbsInActivation = false;
    /// Expert TP (core/model/modelmath.h expertTensorParallel; 0: the same as TP). The experts' weights are split
    /// over it, and the routed rows a rank holds after the dispatch are all-gathered over it: k·T/TP·etp of them with
    /// SP (k·T with expert TP = TP, k·T/TP where EP folds over TP).
    double expertTensorParallel = 0;
    double expertTp() const { return expertTensorParallel > 0 ? expertTensorParallel : tensorParallel; }
    /// The loss is a fused kernel even where the layers run eager (TrainingConfig::fusedLoss; a compiled loss).
    bool fusedLoss = false;
};

/// Times of one layer for one micro-batch on one GPU, in seconds.
struct LayerTime
{
    double forwardS = 0;
    double backwardInputS = 0; ///< input-gradient GEMMs + attention and element-wise backward
    double backwardWeightS = 0; ///< weight-gradient GEMMs (the W of zero-bubble schedules)
    double attentionCoreForwardS = 0; ///< what selective recompute runs again (Megatron), CP ring merges included
    /// Context parallelism: attention compute of one ring step on the slowest rank, the window that hides the next
    /// KV block's transfer (docs/methods-time.md §4.10); 0 without CP.
    double ringStepForwardS = 0;
    double gemmForwardS = 0; ///< the forward's matmuls (op-level checkpointing recomputes every other one)
    /// A dense layer's last forward matmul (the MLP's down projection), which a checkpoint that stops early does not
    /// run again (docs/methods-time.md §4.54); 0 in a MoE layer, which ends in the combine.
    double lastGemmForwardS = 0;
    /// MoE layers: the forward GEMMs of the shared experts (part of gemmForwardS), the work that can run beside the
    /// expert all-to-alls (docs/methods-time.md §4.39); 0 without shared experts.
    MlpGemmTimes sharedExpertForward;
    double elementwiseForwardS = 0; ///< the forward's memory-bound work (norms, activation, residuals, RoPE)
    /// Eager PyTorch only (0 for fused kernels): host time to issue the forward's ops. The GPU times above are then
    /// pure kernel times; the step assembly takes max(host, GPU) per phase (backward issues about twice the ops).
    double hostForwardS = 0;
    /// MLA only: the forward's up-projections to the query, key and value heads and their element-wise work (latent
    /// norms, rotary parts, assembled heads), what Megatron-Core's "mla_up_proj" module recompute runs again.
    double latentUpProjectionForwardS = 0;
    double backwardS() const { return backwardInputS + backwardWeightS; }
};

/// Dense layer (moe == false) or MoE layer of the model.
LayerTime layerTime(const ModelConfig& model, const LayerShape& shape, bool moe, const ComputePeaks& peaks,
    const EfficiencyParams& efficiency);

/// Ops (kernel launches) eager PyTorch issues for one layer forward, counted from the layer's structure:
/// norms, projections, rotary embedding, attention, activation, residual adds, autocast weight/input casts.
double eagerOpsPerLayer(const ModelConfig& model, const LayerShape& shape);

/// The attention core's backward time over its forward time for the shape's kernel (read this, not
/// ComputePeaks::attentionBackwardFactor): the Triton kernel's backward falls further behind FlashAttention-2 than its
/// forward does (docs/methods-time.md §4.52).
double attentionBackwardOverForward(const LayerShape& shape, const ComputePeaks& peaks);

/// Eager ops of the model's ends per forward: embedding lookup, final norm, LM head, fp32 upcast of the logits,
/// shifted labels and cross-entropy (log-softmax + NLL).
double eagerOpsHead(const ModelConfig& model);

/// LM head and loss of the last stage (logits GEMM, cross-entropy), plus the embedding lookup, per micro-batch.
LayerTime headTime(const ModelConfig& model, const LayerShape& shape, const ComputePeaks& peaks);

/// Optimizer step over the parameters this GPU updates: memory-bound, bytes per parameter by optimizer and
/// precision (Adam mixed: read/write fp32 master, m, v, read grad, write bf16 weight ≈ 30 B; docs/methods-time.md
/// §4.5).
double optimizerStepS(
    double shardParameters, Optimizer optimizer, Precision precision, const ComputePeaks& peaks, OptimizerStates width);
double optimizerBytesPerParameter(Optimizer optimizer, Precision precision, OptimizerStates width);

} // namespace clusterplanner::core::perf
