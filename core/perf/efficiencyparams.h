// SPDX-License-Identifier: GPL-3.0-or-later
// Achievable-efficiency parameters of the step-time model, per GPU family (data/efficiency.json, overridable).
#pragma once

#include "core/model/gpucatalog.h"
#include "core/perf/collectives.h"

#include <string>
#include <vector>

namespace clusterplanner::core::perf {

/// Every number the time model does not derive from physics. Calibrated on the development set per GPU family
/// (never per case); the values in use are reported with each estimate so that a user can see and override them.
struct EfficiencyParams
{
    std::string family = "default";

    // Compute (docs/methods-time.md §4.1 roofline with size-dependent efficiency).
    double gemmPeakFraction = 0.80; ///< η of a large GEMM against the dense tensor peak
    double gemmHalfGflop = 2.0; ///< GEMM size (GFLOP) at which η falls to half of gemmPeakFraction: η = η∞·F/(F + F½)
    double attentionPeakFraction = 0.55; ///< flash-attention core, forward, against the tensor peak
    double attentionBackwardFactor = 2.5; ///< flash backward time / forward time (recomputes scores; FA2 §3)
    /// Throughput of a FlashAttention-2-generation kernel (attention "flash2": FA2, SDPA flash) relative to the
    /// family's fused kernel (cuDNN/Transformer Engine, FlashAttention-3), which attentionPeakFraction describes. 1
    /// where FA2 is the best kernel (Ampere); on Hopper FA2 reaches 35 % of peak vs 75 % (Shah et al. 2024,
    /// FlashAttention-3).
    double flash2AttentionRatio = 1.0;
    /// FlashAttention's Triton kernel (attention "triton") relative to this family's FlashAttention-2 rate, forward and
    /// backward: the FlashAttention-2 paper's A100 rates (FA2 1.4x ahead of a Triton FlashAttention forward, 2x
    /// backward, at 145-175 TFLOP/s forward + backward) set against the engine's own FA2 rate (docs/methods-time.md
    /// §4.52).
    double tritonForwardRatio = 0.96;
    double tritonBackwardRatio = 0.67;
    double hbmFraction = 0.80; ///< achievable share of HBM bandwidth for memory-bound ops
    double fp32PeakFraction = 0.80; ///< η for fp32 (non-tensor-core) GEMMs against the fp32 peak
    /// The measured achievable-matmul share of the BF16 peak (GpuSpec::achievableMatmulFraction) of the GPU that
    /// gemmPeakFraction was calibrated on. A GPU with a measured share of its own runs its tensor GEMMs at
    /// gemmPeakFraction × its share / this one, which carries a calibration to GPUs without development runs
    /// (docs/methods-time.md §4.31); 0 = no transfer.
    double matmulReferenceFraction = 0;
    /// The 16-bit dense peak (TFLOP/s) of the GPU gemmHalfGflop was calibrated on. F½ is a GEMM's fixed time (launch,
    /// the pipeline's fill and drain, the last partial wave) counted in FLOPs at the rate large GEMMs reach, so another
    /// GPU's F½ is gemmHalfGflop × its large-GEMM rate (peak × η∞) / the reference's (docs/methods-time.md §4.60);
    /// 0 = the stated F½ on every GPU.
    double gemmHalfReferenceTflops = 0;

    // Memory-bound work per layer, in passes over a b·s·h activation tensor (forward; backward counts twice).
    double elementwisePassesFused = 16; ///< fused kernels (Megatron, NeMo, TorchTitan): norms, residuals, dropout
    double elementwisePassesEager = 40; ///< eager PyTorch (Hugging Face, FSDP, other); MLP activation counted apart
    double kernelLaunchS = 6e-6; ///< floor per kernel: a kernel never takes less than its launch
    double kernelsPerLayerFused = 20; ///< kernels per layer forward (backward twice as many)
    /// Eager PyTorch: host time to issue one op (Python, dispatcher, launch). The host enqueues kernels ahead of
    /// the GPU, so a phase takes max(ops x hostOpS, GPU time); the op count comes from the layer's structure.
    double hostOpS = 8e-6;

    // Communication.
    LinkEfficiency link;
    double tpOverlap = 0.0; ///< share of TP/SP collectives hidden behind GEMMs (TP-comm overlap)
    double cpOverlap = 0.8; ///< share of CP ring exchanges hidden behind blockwise attention
    double dpOverlap = 0.9; ///< share of the overlap window (backward of the last micro-batch) usable by DP
    double zero3Overlap = 0.3; ///< share of a micro-batch's compute that hides ZeRO-3 parameter gathers
    /// ZeRO-3 gathers and scatters per sub-module over the whole DP group; measured runs move them at about one
    /// NIC per rank (no scale-up aggregation). 1 = hierarchical like the other collectives, 0 = flat over NICs.
    double zero3Hierarchy = 0.0;
    double ppOverlap = 0.5; ///< share of PP send/recv hidden by asynchronous p2p
    /// Share of the host link's per-direction rate (GpuSpec::hostLinkGBsBidir / 2) an activation-offload copy
    /// reaches (docs/methods-time.md §4.32); not fitted: no development run offloads.
    double hostCopyEfficiency = 0.85;
    double commComputeSlowdown = 0.05; ///< compute slow-down while overlapped comm runs (CAL processor_usage)

    // Fixed costs.
    double stepOverheadS = 0.02; ///< per step: launch of the optimizer, data loading, logging, framework
    double microBatchOverheadS = 0.0005; ///< per micro-batch: scheduling and synchronisation
    /// Eager activation checkpointing, host time per layer and micro-batch (checkpoint bookkeeping, RNG and autocast
    /// state save/restore, the nested autograd call); host-side, so hidden when the GPU is the bottleneck.
    double recomputeLayerOverheadEagerS = 0.001;

    // Energy (docs/methods-cost.md §8).
    double gpuPowerUtilization = 0.9; ///< average GPU draw as a share of TDP while training
    double nodeOverheadPerGpuFraction = 0.8; ///< CPUs, NICs, fans per GPU as a share of TDP (DGX H100 ≈ 575 W/GPU)
};

/// A set of families plus the map from GPU id to family.
class EfficiencyTable
{
public:
    /// The table compiled into the library from data/efficiency.json.
    static const EfficiencyTable& builtin();
    /// The document behind builtin(), as compiled in (for tools that edit and re-parse it).
    static const char* builtinJsonText();
    /// Parses an efficiency document; throws std::runtime_error naming the family and key that are wrong.
    static EfficiencyTable fromJson(const std::string& text);

    /// Parameters of the GPU's family, or the "default" family when the GPU is not listed.
    const EfficiencyParams& forGpu(const std::string& gpuId) const;
    const std::vector<EfficiencyParams>& families() const { return m_families; }

private:
    std::vector<EfficiencyParams> m_families;
    std::vector<std::pair<std::string, std::size_t>> m_gpuToFamily;
    std::size_t m_default = 0;
};

/// Overrides from a JSON object with the same keys as a family entry (e.g. {"gemm_peak_fraction": 0.7});
/// throws std::runtime_error naming an unknown key.
EfficiencyParams withOverrides(EfficiencyParams params, const std::string& jsonObjectText);

/// The parameters as a JSON object text (same keys as the data file), for reports.
std::string toJsonText(const EfficiencyParams& params);

} // namespace clusterplanner::core::perf
