// SPDX-License-Identifier: GPL-3.0-or-later
// Roofline GEMM times, size-dependent efficiency, layer and optimizer times, the efficiency table.
#include "core/model/modelmath.h"
#include "core/model/modelpresets.h"
#include "core/perf/computetime.h"
#include "core/perf/efficiencyparams.h"

#include <QTest>

#include <array>

#include <cmath>

using namespace clusterplanner::core;
using namespace clusterplanner::core::perf;

namespace {

/// A dense layer's forward and backward with sequence parallelism over tp GPUs.
double denseLayerStepS(const ModelConfig& m, int tp, const ComputePeaks& p, const EfficiencyParams& e)
{
    LayerShape shape;
    shape.tensorParallel = tp;
    shape.sequenceParallel = true;
    const LayerTime t = layerTime(m, shape, false, p, e);
    return t.forwardS + t.backwardInputS + t.backwardWeightS;
}

ComputePeaks a100Peaks()
{
    EfficiencyParams e;
    e.gemmPeakFraction = 0.8;
    e.gemmHalfGflop = 2.0;
    e.hbmFraction = 0.9;
    return computePeaks(*GpuCatalog::builtin().find("A100-SXM-80GB"), Precision::AmpBf16, e);
}

ModelConfig gpt3()
{
    return gpt3Padded();
}

/// DeepSeek-V3-like MoE layer: hidden 7,168, 128 heads, 256 fine-grained experts of FFN 2,048, top-8, 4,096 tokens.
ModelConfig deepSeekLikeLayer()
{
    ModelConfig m = gpt3();
    m.hidden = 7168;
    m.heads = m.kvHeads = 128;
    m.seqLen = 4096;
    m.mlp = MlpKind::SwiGlu;
    m.moe = MoeConfig {256, 8, 2048, 0, 0, 1.0};
    return m;
}

} // namespace

class TestComputeTime : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void gemmEfficiencyFallsForSmallGemms()
    {
        const auto p = a100Peaks();
        QCOMPARE(p.tensorFlops, 312e12);
        QCOMPARE(gemmEfficiency(2e9, p), 0.4); // F = F½ → half of η∞
        QVERIFY(std::abs(gemmEfficiency(2e12, p) - 0.8 * 1000 / 1001) < 1e-12);
        QVERIFY(gemmEfficiency(1e8, p) < gemmEfficiency(1e10, p));
    }

    void gemmRoofline()
    {
        const auto p = a100Peaks();
        // Large square GEMM: compute bound, 2·8192³ FLOP at 312 TF × η.
        const double flops = 2.0 * 8192 * 8192 * 8192;
        QVERIFY(std::abs(gemmTimeS(8192, 8192, 8192, 2, p) - flops / (312e12 * gemmEfficiency(flops, p))) < 1e-12);
        // Matrix-vector: memory bound, (k + k·n + n)·2 B at 2.039 TB/s × 0.9.
        const double bytes = (8192.0 + 8192.0 * 8192 + 8192) * 2;
        QVERIFY(std::abs(gemmTimeS(1, 8192, 8192, 2, p) - bytes / (2.039e12 * 0.9)) < 1e-12);
        QCOMPARE(memoryTimeS(2.039e12 * 0.9, p), 1.0);
    }

    void tensorParallelSplitCostsEfficiency()
    {
        const auto p = a100Peaks();
        const EfficiencyParams e;
        LayerShape whole;
        LayerShape split = whole;
        split.tensorParallel = 8;
        split.sequenceParallel = true;
        const auto one = layerTime(gpt3(), whole, false, p, e);
        const auto eighth = layerTime(gpt3(), split, false, p, e);
        QVERIFY(eighth.forwardS < one.forwardS);
        QVERIFY(8 * eighth.forwardS > one.forwardS); // smaller GEMMs run less efficiently
        QVERIFY(one.backwardS() > 1.8 * one.forwardS && one.backwardS() < 2.6 * one.forwardS);
        QVERIFY(one.attentionCoreForwardS > 0 && one.attentionCoreForwardS < one.forwardS);
    }

    void expertParallelGathersTallerExpertGemms()
    {
        // DeepSeek-V3-like layer: 256 fine-grained experts of FFN 2,048, top-8, one rank's 4,096 tokens.
        const auto p = a100Peaks();
        const EfficiencyParams e;
        const ModelConfig m = deepSeekLikeLayer();
        LayerShape alone; // ep 1: the rank runs 256 GEMMs of 4,096·8/256 = 128 rows
        LayerShape spread = alone;
        spread.expertParallel = 64; // 4 experts held, each fed 128 rows by each of 64 ranks
        const double slow = layerTime(m, alone, true, p, e).gemmForwardS;
        const double fast = layerTime(m, spread, true, p, e).gemmForwardS;
        // 128-row expert GEMMs of 7.5 GFLOP run at 0.79 of the full rate here (half rate at 2 GFLOP); the projections
        // are the same in both, so the layer's GEMMs are about a fifth faster.
        QVERIFY2(fast < 0.88 * slow, qPrintable(QStringLiteral("%1 vs %2 s").arg(fast).arg(slow)));
        // The work is the same: at 8,192 rows per expert the GEMMs run near their full rate, so taller ones gain
        // little.
        LayerShape oneEach = alone;
        oneEach.expertParallel = 256;
        const double tallest = layerTime(m, oneEach, true, p, e).gemmForwardS;
        QVERIFY(tallest <= fast && tallest > 0.95 * fast);
    }

    void routedRowsArePermutedAndRegrouped()
    {
        // Top-8 over 256 experts, one rank's 4,096 tokens of 7,168: permute and unpermute move (3k + 1)·T·h·β in
        // the forward and that plus k·T·h·β in the backward; the all-to-all dispatcher regroups the received rows by
        // local expert and back, 4k·T·h·β more each way; DeepEP delivers them in rank order and skips that (§4.25).
        const auto p = a100Peaks();
        const EfficiencyParams e;
        const ModelConfig m = deepSeekLikeLayer();
        LayerShape allToAll;
        allToAll.expertParallel = 64;
        LayerShape deepEp = allToAll;
        deepEp.deepEpDispatch = true;
        const LayerTime regrouped = layerTime(m, allToAll, true, p, e);
        const LayerTime direct = layerTime(m, deepEp, true, p, e);
        const double rowBytes = 4096.0 * 7168 * 2;
        // DeepEP delivers d = 64·(1 − (63/64)^8) ≈ 7.57 copies per token (its distinct ranks) instead of one row
        // regrouped 4k times: 3k + d against 3k + 1 + 4k.
        const double distinctRanks = 64 * (1 - std::pow(63.0 / 64, 8));
        const double regroupS = memoryTimeS((4 * 8 + 1 - distinctRanks) * rowBytes, p);
        QVERIFY(std::abs(regrouped.forwardS - direct.forwardS - regroupS) < 1e-9);
        QVERIFY(std::abs(regrouped.backwardS() - direct.backwardS() - regroupS) < 1e-9);
        // On one rank (no regrouping) the permutation grows with k: top-8 of width 2,048 against top-4 of width 4,096
        // (the same routed width, so the same activation passes) moves 12·T·h·β more each way.
        LayerShape alone;
        ModelConfig wider = m;
        wider.moe = MoeConfig {256, 4, 4096, 0, 0, 1.0};
        const double extraS = layerTime(m, alone, true, p, e).elementwiseForwardS
            - layerTime(wider, alone, true, p, e).elementwiseForwardS;
        QVERIFY(std::abs(extraS - memoryTimeS(12 * rowBytes, p)) < 1e-9);
        // With TP 2 and SP a rank routes T/2 tokens. Expert TP 2 gathers the routed rows of both TP ranks before the
        // regroup (4k·T rows); EP folded over TP (expert TP 1) regroups only its own (4k·T/2).
        LayerShape gathered = allToAll;
        gathered.tensorParallel = 2;
        gathered.sequenceParallel = true;
        gathered.expertTensorParallel = 2;
        LayerShape folded = gathered;
        folded.expertTensorParallel = 1;
        const double foldedSavesS = layerTime(m, gathered, true, p, e).elementwiseForwardS
            - layerTime(m, folded, true, p, e).elementwiseForwardS;
        QVERIFY(std::abs(foldedSavesS - memoryTimeS(4 * 8 * rowBytes / 2, p)) < 1e-9);
        // Group-limited routing (8 groups, 4 per token) over EP 64: DeepEP delivers a token to the ranks of its 4
        // groups only, 32·(1 − (31/32)^8) distinct copies.
        ModelConfig limited = m;
        limited.moe->expertGroups = 8;
        limited.moe->groupsPerToken = 4;
        const double fewerCopiesS
            = direct.elementwiseForwardS - layerTime(limited, deepEp, true, p, e).elementwiseForwardS;
        const double limitedRanks = 32 * (1 - std::pow(31.0 / 32, 8));
        QVERIFY(std::abs(fewerCopiesS - memoryTimeS((distinctRanks - limitedRanks) * rowBytes, p)) < 1e-9);
    }

    void sharedExpertAddsOneMlpNotASecondAttention()
    {
        const auto p = a100Peaks();
        const EfficiencyParams e;
        ModelConfig m = gpt3();
        m.mlp = MlpKind::SwiGlu;
        m.moe = MoeConfig {8, 2, 4096, 0, 0, 1.0};
        const LayerShape shape;
        const double routedOnly = layerTime(m, shape, true, p, e).gemmForwardS;
        m.moe->sharedExperts = 1;
        const double withShared = layerTime(m, shape, true, p, e).gemmForwardS;
        // The same rows through a dense layer's MLP of width 4,096: the dense layer minus its attention projections.
        ModelConfig dense = m;
        dense.moe.reset();
        dense.ffnHidden = 4096;
        const double denseLayer = layerTime(dense, shape, false, p, e).gemmForwardS;
        dense.ffnHidden = 0;
        const double projectionsOnly = layerTime(dense, shape, false, p, e).gemmForwardS;
        QVERIFY(projectionsOnly > 0);
        QCOMPARE(withShared - routedOnly, denseLayer - projectionsOnly);
    }

    void headDimWidensProjectionsAndScores()
    {
        // Heads twice hidden / heads wide (as Qwen3's 128 over a 2,048 hidden size): Q, K, V and the output
        // projection are twice as wide, and so is the score work; the MLP does not change.
        const auto p = a100Peaks();
        const EfficiencyParams e;
        ModelConfig m = gpt3();
        LayerShape shape;
        shape.attention = AttentionKind::Flash; // its time is its FLOPs at the attention rate
        ModelConfig projectionsOnly = m;
        projectionsOnly.ffnHidden = 0;
        const LayerTime base = layerTime(m, shape, false, p, e);
        const double baseProjections = layerTime(projectionsOnly, shape, false, p, e).gemmForwardS;
        m.headDim = 2 * m.hidden / m.heads;
        projectionsOnly.headDim = m.headDim;
        const LayerTime wide = layerTime(m, shape, false, p, e);
        const double wideProjections = layerTime(projectionsOnly, shape, false, p, e).gemmForwardS;
        QVERIFY(wideProjections > 1.8 * baseProjections && wideProjections < 2.2 * baseProjections);
        QCOMPARE(wide.gemmForwardS - wideProjections, base.gemmForwardS - baseProjections); // the MLP
        QVERIFY(std::abs(wide.attentionCoreForwardS / base.attentionCoreForwardS - 2) < 1e-9);
    }

    /// FlashAttention in Triton (docs/methods-time.md §4.52): a FlashAttention-2-generation kernel (it takes the
    /// family's flash2 ratio) whose forward and backward each run at their own share of FlashAttention-2's rate;
    /// everything else in the layer is the same.
    void tritonAttentionHasItsOwnForwardAndBackward()
    {
        ComputePeaks p = a100Peaks();
        p.attentionBackwardFactor = 2.0;
        p.flash2AttentionRatio = 0.62; // as on Hopper: a Triton kernel that skipped it would run at the fused rate
        p.tritonForwardRatio = 1.0;
        p.tritonBackwardRatio = 0.7;
        const EfficiencyParams e;
        const ModelConfig m = gpt3();
        LayerShape shape;
        shape.attention = AttentionKind::Flash2;
        const LayerTime fa2 = layerTime(m, shape, false, p, e);
        shape.attention = AttentionKind::Triton;
        const LayerTime triton = layerTime(m, shape, false, p, e);
        QCOMPARE(triton.attentionCoreForwardS, fa2.attentionCoreForwardS);
        QCOMPARE(triton.forwardS, fa2.forwardS);
        const double fa2Backward = fa2.backwardInputS + fa2.backwardWeightS;
        const double tritonBackward = triton.backwardInputS + triton.backwardWeightS;
        const double extraS = 2.0 * fa2.attentionCoreForwardS * (1 / 0.7 - 1);
        QVERIFY(std::abs(tritonBackward - fa2Backward - extraS) < 1e-9 * fa2Backward);
        QCOMPARE(attentionBackwardOverForward(shape, p), 2.0 / 0.7);
        // A slower forward leaves the backward's time alone: each pass has its own ratio to FlashAttention-2.
        p.tritonForwardRatio = 0.5;
        const LayerTime slowForward = layerTime(m, shape, false, p, e);
        QVERIFY(std::abs(slowForward.attentionCoreForwardS / fa2.attentionCoreForwardS - 2) < 1e-9);
        QVERIFY(std::abs(slowForward.backwardInputS + slowForward.backwardWeightS - tritonBackward)
            < 1e-9 * tritonBackward);
        // Other kernels keep the family's backward factor.
        shape.attention = AttentionKind::Flash;
        QCOMPARE(attentionBackwardOverForward(shape, p), 2.0);
    }

    /// Multi-head latent attention (docs/methods-time.md §4.37): the score work follows the query/key heads (192 for
    /// DeepSeek-V3) and the weighted values the value heads (128); the down-projections are GEMMs of the whole latent
    /// on every TP rank, the up-projections and the output projection are split by heads.
    void latentAttentionProjectsThroughItsLatents()
    {
        const auto p = a100Peaks();
        const EfficiencyParams e;
        ModelConfig m = deepSeekLikeLayer();
        m.moe.reset();
        m.ffnHidden = 0; // projections only
        LayerShape shape;
        shape.attention = AttentionKind::Flash;
        shape.tensorParallel = 2;
        const LayerTime full = layerTime(m, shape, false, p, e); // 128 heads of 7168 / 128 = 56
        m.mla = MlaConfig {512, 1536, 128, 64, 128};
        const LayerTime latent = layerTime(m, shape, false, p, e);
        // Scores over 192 channels and values over 128 against 56 and 56: (192 + 128) / (2 · 56).
        QVERIFY(std::abs(latent.attentionCoreForwardS / full.attentionCoreForwardS - 320.0 / 112) < 1e-9);
        const double tokens = m.seqLen, h = m.hidden;
        const double expected = gemmTimeS(tokens, h, 1536, shape.bytesPerActivation, p)
            + gemmTimeS(tokens, 1536, 128 * 192 / 2.0, shape.bytesPerActivation, p)
            + gemmTimeS(tokens, h, 512 + 64, shape.bytesPerActivation, p)
            + gemmTimeS(tokens, 512, 128 * 256 / 2.0, shape.bytesPerActivation, p)
            + gemmTimeS(tokens, 128 * 128 / 2.0, h, shape.bytesPerActivation, p);
        QVERIFY2(std::abs(latent.gemmForwardS / expected - 1) < 1e-12, std::to_string(latent.gemmForwardS).c_str());
        // With sequence parallelism the duplicated down-projections see this rank's sequence shard only.
        LayerShape sequenceParallel = shape;
        sequenceParallel.sequenceParallel = true;
        const double shardSaving = gemmTimeS(tokens, h, 1536, shape.bytesPerActivation, p)
            - gemmTimeS(tokens / 2, h, 1536, shape.bytesPerActivation, p)
            + gemmTimeS(tokens, h, 512 + 64, shape.bytesPerActivation, p)
            - gemmTimeS(tokens / 2, h, 512 + 64, shape.bytesPerActivation, p);
        QVERIFY(std::abs(latent.gemmForwardS - layerTime(m, sequenceParallel, false, p, e).gemmForwardS - shardSaving)
            < 1e-12 * latent.gemmForwardS);
        // The latents' norms and the assembly of the query and key heads are element-wise work of their own.
        QVERIFY(latent.elementwiseForwardS > full.elementwiseForwardS);
        // Eager PyTorch issues MLA's projections, latent norms, splits and concatenations one by one: q down, norm,
        // q up, kv down, norm, kv up, o and six splits, expands and concatenations (13) against q, k, v, o (4), with
        // this model's LayerNorm one op per norm.
        LayerShape eager = shape;
        eager.fusedKernels = false;
        ModelConfig standard = m;
        standard.mla = {};
        QCOMPARE(eagerOpsPerLayer(m, eager) - eagerOpsPerLayer(standard, eager), 9.0);
    }

    /// QK norm (docs/methods-time.md §4.36): a fused norm reads and writes this rank's queries and keys once in the
    /// forward (twice that in the backward, with the rest of the layer's element-wise work); no GEMM changes.
    void qkNormMovesTheQueriesAndKeysOnce()
    {
        const auto p = a100Peaks();
        const EfficiencyParams e;
        ModelConfig m = gpt3();
        LayerShape shape;
        shape.tensorParallel = 8;
        const LayerTime plain = layerTime(m, shape, false, p, e);
        m.qkNorm = true;
        const LayerTime normed = layerTime(m, shape, false, p, e);
        const double bytes = 2.0 * m.seqLen * (queryWidth(m) + kvWidth(m)) / 8 * shape.bytesPerActivation;
        QVERIFY(std::abs(normed.elementwiseForwardS - plain.elementwiseForwardS - memoryTimeS(bytes, p)) < 1e-15);
        QCOMPARE(normed.gemmForwardS, plain.gemmForwardS);
        const double plainBackward = plain.backwardInputS + plain.backwardWeightS;
        const double normedBackward = normed.backwardInputS + normed.backwardWeightS;
        QVERIFY(std::abs(normedBackward - plainBackward - 2 * memoryTimeS(bytes, p)) < 1e-15);
        // Eager: each norm's ops one by one (Hugging Face RMSNorm: 8), on the host count as on the GPU.
        ModelConfig llama = m;
        llama.norm = NormKind::RmsNorm;
        LayerShape eager = shape;
        eager.fusedKernels = false;
        ModelConfig plainLlama = llama;
        plainLlama.qkNorm = false;
        QCOMPARE(eagerOpsPerLayer(llama, eager) - eagerOpsPerLayer(plainLlama, eager), 16.0);
    }

    void tinyLayersAreLaunchBound()
    {
        const auto p = a100Peaks();
        EfficiencyParams e;
        ModelConfig tiny = gpt3();
        tiny.hidden = 64;
        tiny.heads = tiny.kvHeads = 1;
        tiny.ffnHidden = 256;
        tiny.seqLen = 16;
        LayerShape eager;
        eager.fusedKernels = false;
        eager.pythonGelu = true; // Hugging Face gelu_new
        // GPT-style eager layer: 2 LayerNorms, q/k/v/o, flash core, output re-layout, 2 MLP GEMMs + 8 GELU ops,
        // 2 residual adds = 20 kernels, each at least one launch on the GPU and hostOpS on the host.
        QCOMPARE(eagerOpsPerLayer(tiny, eager), 20.0);
        const LayerTime lt = layerTime(tiny, eager, false, p, e);
        QCOMPARE(lt.forwardS, 20 * e.kernelLaunchS);
        QCOMPARE(lt.hostForwardS, 20 * e.hostOpS);
        LayerShape fused;
        QCOMPARE(layerTime(tiny, fused, false, p, e).hostForwardS, 0.0);
        // A native nn.GELU (PyTorch FSDP, llm-foundry) is one kernel instead of eight Python ops.
        eager.pythonGelu = false;
        QCOMPARE(eagerOpsPerLayer(tiny, eager), 13.0);
    }

    void nativeGeluMovesFewerBytesThanPythonGelu()
    {
        // MPT-7B-like layer at micro-batch 6: the Python GELU makes 18 passes over b·s·f, nn.GELU 2; the
        // difference is 16 passes of 2-byte elements at the HBM rate (docs/methods-time.md §4.6).
        const auto p = a100Peaks();
        EfficiencyParams e;
        ModelConfig mpt = gpt3();
        mpt.hidden = 4096;
        mpt.heads = mpt.kvHeads = 32;
        mpt.ffnHidden = 16384;
        mpt.seqLen = 2048;
        LayerShape python;
        python.microBatch = 6;
        python.fusedKernels = false;
        python.pythonGelu = true;
        LayerShape native = python;
        native.pythonGelu = false;
        const double saved
            = layerTime(mpt, python, false, p, e).forwardS - layerTime(mpt, native, false, p, e).forwardS;
        const double expected = 16.0 * 6 * 2048 * 16384 * 2 / (p.hbmBytesPerS * p.hbmFraction);
        QVERIFY(std::abs(saved - expected) < 1e-9 * expected + 1e-12);
    }

    void llamaEagerOpsCountRotaryGqaAndAutocast()
    {
        ModelConfig llama = gpt3();
        llama.norm = NormKind::RmsNorm;
        llama.mlp = MlpKind::SwiGlu;
        llama.kvHeads = llama.heads / 4;
        LayerShape eager;
        eager.fusedKernels = false;
        // 2 RMSNorms of 8 ops, q/k/v/o, RoPE 10, repeat_kv 2, core 1, re-layout 1, SwiGLU 5, residuals 2 = 41.
        QCOMPARE(eagerOpsPerLayer(llama, eager), 41.0);
        eager.autocastWeights = true; // + a cast per GEMM (7) + the two fp32 norm outputs
        QCOMPARE(eagerOpsPerLayer(llama, eager), 50.0);
    }

    void optimizerBytes()
    {
        QCOMPARE(optimizerBytesPerParameter(Optimizer::AdamW, Precision::AmpBf16, OptimizerStates::Fp32),
            30.0); // docs/methods-time.md §4.5
        QCOMPARE(optimizerBytesPerParameter(Optimizer::AdamW, Precision::Bf16, OptimizerStates::Fp32), 14.0);
        QCOMPARE(optimizerBytesPerParameter(Optimizer::Adam, Precision::Fp32, OptimizerStates::Fp32), 28.0);
        QCOMPARE(optimizerBytesPerParameter(Optimizer::Sgd, Precision::Fp32, OptimizerStates::Fp32), 12.0);
        // 16-bit master copy and moments read and written, 16-bit gradient read, 16-bit weight written.
        QCOMPARE(optimizerBytesPerParameter(Optimizer::AdamW, Precision::AmpBf16, OptimizerStates::Bf16), 16.0);
        const auto p = a100Peaks();
        QVERIFY(std::abs(optimizerStepS(1e9, Optimizer::AdamW, Precision::AmpBf16, p, OptimizerStates::Fp32)
                    - 30e9 / (2.039e12 * 0.9))
            < 1e-12);
    }

    void fp32UsesTheFp32Peak()
    {
        const auto p = computePeaks(*GpuCatalog::builtin().find("H100-SXM-80GB"), Precision::Fp32, EfficiencyParams {});
        QCOMPARE(p.tensorFlops, 66.9e12);
    }

    /// docs/methods-time.md §4.31: a family calibrated on one GPU carries its large-GEMM efficiency to another by the
    /// ratio of their measured achievable-matmul shares (mamf_bf16_tflops / bf16_tflops in data/gpus.json).
    void achievableMatmulShareCarriesTheCalibration()
    {
        const GpuCatalog& catalog = GpuCatalog::builtin();
        const GpuSpec& h100 = *catalog.find("H100-SXM-80GB");
        const GpuSpec& mi300x = *catalog.find("MI300X");
        const GpuSpec& h800 = *catalog.find("H800-SXM-80GB");
        QCOMPARE(*mi300x.achievableMatmulFraction(), 781.9 / 1307.4);
        QVERIFY(!h800.achievableMatmulFraction()); // no published measurement: nothing to carry over
        EfficiencyParams e;
        e.gemmPeakFraction = 0.6;
        e.matmulReferenceFraction = *h100.achievableMatmulFraction();
        QCOMPARE(computePeaks(h100, Precision::AmpBf16, e).gemmPeakFraction, 0.6); // the calibration GPU itself
        QCOMPARE(computePeaks(h800, Precision::AmpBf16, e).gemmPeakFraction, 0.6);
        const double mi300xEta = computePeaks(mi300x, Precision::AmpBf16, e).gemmPeakFraction;
        QVERIFY2(std::abs(mi300xEta - 0.6 * (781.9 / 1307.4) / (792.1 / 989.4)) < 1e-12,
            qPrintable(QString::number(mi300xEta)));
        QCOMPARE(
            computePeaks(mi300x, Precision::Fp8, e).gemmPeakFraction, mi300xEta); // one share for every tensor type
        QCOMPARE(computePeaks(mi300x, Precision::Fp32, e).gemmPeakFraction, e.fp32PeakFraction); // not tensor cores
        e.matmulReferenceFraction = 1e-6; // an absurd reference in a user's file: capped at the peak, not beyond
        QCOMPARE(computePeaks(mi300x, Precision::AmpBf16, e).gemmPeakFraction, 1.0);
        e.matmulReferenceFraction = 0; // a family without a reference keeps its value everywhere
        QCOMPARE(computePeaks(mi300x, Precision::AmpBf16, e).gemmPeakFraction, 0.6);
        // The shipped table: Hopper's calibration reaches the H100 unchanged, and the MI300X at three quarters of it.
        const EfficiencyParams& hopper = EfficiencyTable::builtin().forGpu("H100-SXM-80GB");
        QCOMPARE(computePeaks(h100, Precision::AmpBf16, hopper).gemmPeakFraction, hopper.gemmPeakFraction);
        // The references are copies of catalog figures: one edited without the other would move the development set.
        const EfficiencyParams& ampere = EfficiencyTable::builtin().forGpu("A100-SXM-80GB");
        QCOMPARE(computePeaks(*catalog.find("A100-SXM-80GB"), Precision::AmpBf16, ampere).gemmPeakFraction,
            ampere.gemmPeakFraction);
        const EfficiencyParams& cdna = EfficiencyTable::builtin().forGpu("MI300X");
        const double ratio = computePeaks(mi300x, Precision::AmpBf16, cdna).gemmPeakFraction / cdna.gemmPeakFraction;
        QVERIFY2(ratio > 0.74 && ratio < 0.75, qPrintable(QString::number(ratio)));
    }

    /// docs/methods-time.md §4.60: F½ is fixed time counted in FLOPs at the large-GEMM rate, so a faster GPU loses more
    /// FLOPs to it; the calibration GPU keeps the stated value, and a family without a reference GPU keeps it
    /// everywhere.
    void gemmFixedCostGrowsWithTheGpusRate()
    {
        const GpuCatalog& catalog = GpuCatalog::builtin();
        const GpuSpec& h100 = *catalog.find("H100-SXM-80GB");
        const GpuSpec& b200 = *catalog.find("B200");
        const GpuSpec& gb200 = *catalog.find("GB200");
        EfficiencyParams e;
        e.gemmPeakFraction = 0.6;
        e.gemmHalfGflop = 8;
        e.matmulReferenceFraction = *h100.achievableMatmulFraction();
        e.gemmHalfReferenceTflops = 989.4;
        QCOMPARE(computePeaks(h100, Precision::AmpBf16, e).gemmHalfFlops, 8e9);
        QCOMPARE(computePeaks(h100, Precision::Fp8, e).gemmHalfFlops, 8e9 * 1978.9 / 989.4);
        const ComputePeaks b200Peaks = computePeaks(b200, Precision::AmpBf16, e);
        const double expected = 8e9 * 2250 * b200Peaks.gemmPeakFraction / (989.4 * 0.6); // B200 η∞ from its MAMF
        QVERIFY2(std::abs(b200Peaks.gemmHalfFlops / expected - 1) < 1e-12, qPrintable(QString::number(expected)));
        QVERIFY2(b200Peaks.gemmHalfFlops > 2.1 * 8e9 && b200Peaks.gemmHalfFlops < 2.3 * 8e9,
            qPrintable(QString::number(b200Peaks.gemmHalfFlops)));
        QCOMPARE(computePeaks(gb200, Precision::AmpBf16, e).gemmHalfFlops, 8e9 * 2500 / 989.4); // no MAMF: η∞ as H100
        // The same fixed time on both GPUs: one small GEMM's overhead over its ideal time is the same microseconds.
        auto fixedS = [](const ComputePeaks& p) {
            const double flops = 2.0 * 1024 * 1024 * 1024;
            return gemmTimeS(1024, 1024, 1024, 0, p) - flops / (p.tensorFlops * p.gemmPeakFraction);
        };
        const double h100FixedS = fixedS(computePeaks(h100, Precision::AmpBf16, e));
        QVERIFY2(std::abs(fixedS(b200Peaks) / h100FixedS - 1) < 1e-9, qPrintable(QString::number(h100FixedS)));
        e.gemmHalfReferenceTflops = 0; // a family without a reference: the stated F½ on every GPU
        QCOMPARE(computePeaks(b200, Precision::AmpBf16, e).gemmHalfFlops, 8e9);
        // The shipped table: the development GPUs keep their fitted F½.
        const EfficiencyParams& hopper = EfficiencyTable::builtin().forGpu("H100-SXM-80GB");
        QCOMPARE(computePeaks(h100, Precision::AmpBf16, hopper).gemmHalfFlops, hopper.gemmHalfGflop * 1e9);
        const EfficiencyParams& ampere = EfficiencyTable::builtin().forGpu("A100-SXM-80GB");
        QCOMPARE(computePeaks(*catalog.find("A100-SXM-80GB"), Precision::AmpBf16, ampere).gemmHalfFlops,
            ampere.gemmHalfGflop * 1e9);
    }

    void fp8SpeedsUpGemmsButNotAttention()
    {
        // FP8 doubles the GEMM peak but keeps attention in bf16 and pays a quantization pass per GEMM input, so a
        // layer gains well under 2x (TE's default recipe).
        const GpuSpec& h100 = *GpuCatalog::builtin().find("H100-SXM-80GB");
        const EfficiencyParams e;
        const auto bf16 = computePeaks(h100, Precision::AmpBf16, e);
        const auto fp8 = computePeaks(h100, Precision::Fp8, e);
        const double peakRatio = fp8.tensorFlops / bf16.tensorFlops;
        QVERIFY(std::abs(peakRatio - 2) < 0.01); // 1,979 vs 989 TFLOP/s dense
        QCOMPARE(fp8.attentionFlops, bf16.tensorFlops);
        QCOMPARE(fp8.gemmHalfFlops, peakRatio * bf16.gemmHalfFlops); // fixed costs weigh the same at twice the rate
        const double bigGemmRatio = gemmTimeS(8192, 8192, 8192, 1, fp8) / gemmTimeS(8192, 8192, 8192, 2, bf16);
        QVERIFY2(bigGemmRatio > 0.5 && bigGemmRatio < 0.6, qPrintable(QString::number(bigGemmRatio)));
        const ModelConfig llama = modelPreset("Llama 3 70B");
        LayerShape shape;
        shape.tensorParallel = 8;
        shape.sequenceParallel = true;
        const auto slow = layerTime(llama, shape, false, bf16, e);
        const auto fast = layerTime(llama, shape, false, fp8, e);
        QCOMPARE(fast.attentionCoreForwardS, slow.attentionCoreForwardS);
        const double speedup = slow.forwardS / fast.forwardS;
        QVERIFY2(speedup > 1.2 && speedup < 1.8, qPrintable(QString::number(speedup)));
    }

    /// FP8 cast traffic per element over a step (docs/methods-time.md §4.27): torchao casts every input on every call
    /// (15 B); Transformer Engine cast-transposes each input and output gradient once (4 B, 6 B with current scaling's
    /// amax pass), and where a norm is fused into the next linear layer (Megatron-Core's TE spec) that norm writes
    /// the FP8 input (2 B left for its transpose; 4 B for current scaling's quantize).
    void fp8CastsFollowTheLibrary()
    {
        const GpuSpec& h100 = *GpuCatalog::builtin().find("H100-SXM-80GB");
        const EfficiencyParams e;
        const auto perStep = [&](Fp8Recipe recipe, Fp8CastPath path) {
            const ComputePeaks p = computePeaks(h100, Precision::Fp8, e, recipe, path);
            return std::array<double, 3> {
                3 * p.fp8CastBytesPerInput, 3 * p.fp8CastBytesPerUnfusedInput, 3 * p.fp8CastBytesPerOutput};
        };
        using A = std::array<double, 3>;
        QCOMPARE(perStep(Fp8Recipe::Tensorwise, Fp8CastPath::Torchao), (A {15, 15, 0}));
        QCOMPARE(perStep(Fp8Recipe::Delayed, Fp8CastPath::TransformerEngineFusedNorm), (A {2, 4, 4}));
        QCOMPARE(perStep(Fp8Recipe::Tensorwise, Fp8CastPath::TransformerEngineFusedNorm), (A {4, 6, 6}));
        QCOMPARE(perStep(Fp8Recipe::Delayed, Fp8CastPath::TransformerEngine), (A {4, 4, 4}));
        QCOMPARE(perStep(Fp8Recipe::Tensorwise, Fp8CastPath::TransformerEngine), (A {6, 6, 6}));
        QCOMPARE(computePeaks(h100, Precision::AmpBf16, e, Fp8Recipe::Delayed, Fp8CastPath::TransformerEngine)
                     .fp8CastBytesPerOutput,
            0.0);

        // One call of a (m × k)·(k × n) GEMM pays its input and output-gradient casts.
        const ComputePeaks te
            = computePeaks(h100, Precision::Fp8, e, Fp8Recipe::Delayed, Fp8CastPath::TransformerEngine);
        ComputePeaks uncast = te;
        uncast.fp8CastBytesPerInput = uncast.fp8CastBytesPerUnfusedInput = uncast.fp8CastBytesPerOutput = 0;
        const double m = 8192, k = 8192, n = 2560;
        QCOMPARE(
            gemmTimeS(m, k, n, 1, te) - gemmTimeS(m, k, n, 1, uncast), memoryTimeS((m * k + m * n) * 4.0 / 3.0, te));

        // In a layer: the fused norm saves time over plain TE modules, which save it over torchao; current scaling
        // costs more than delayed. A MoE layer's expert inputs are routed tokens: the fused norm saves them nothing.
        const ModelConfig llama = modelPreset("Llama 3 70B");
        const auto layer = [&](const ModelConfig& model, bool moe, Fp8Recipe recipe, Fp8CastPath path) {
            LayerShape shape;
            shape.tensorParallel = 4;
            shape.sequenceParallel = true;
            return layerTime(model, shape, moe, computePeaks(h100, Precision::Fp8, e, recipe, path), e).gemmForwardS;
        };
        const auto d = Fp8Recipe::Delayed;
        QVERIFY(layer(llama, false, d, Fp8CastPath::TransformerEngineFusedNorm)
            < layer(llama, false, d, Fp8CastPath::TransformerEngine));
        QVERIFY(layer(llama, false, d, Fp8CastPath::TransformerEngine) < layer(llama, false, d, Fp8CastPath::Torchao));
        QVERIFY(layer(llama, false, d, Fp8CastPath::TransformerEngineFusedNorm)
            < layer(llama, false, Fp8Recipe::Tensorwise, Fp8CastPath::TransformerEngineFusedNorm));
        // The same model with and without experts: the fused norm saves the MoE layer its QKV cast only, the dense
        // one its QKV and first MLP projection casts (as wide as QKV's input): about half.
        ModelConfig mixtral = modelPreset("Mixtral 8x7B");
        const double moeSaving = layer(mixtral, true, d, Fp8CastPath::TransformerEngine)
            - layer(mixtral, true, d, Fp8CastPath::TransformerEngineFusedNorm);
        mixtral.moe.reset();
        const double denseSaving = layer(mixtral, false, d, Fp8CastPath::TransformerEngine)
            - layer(mixtral, false, d, Fp8CastPath::TransformerEngineFusedNorm);
        QVERIFY2(std::abs(moeSaving / denseSaving - 0.5) < 0.01, qPrintable(QString::number(moeSaving / denseSaving)));
    }

    /// Rowwise moves more bytes to scale and cast than tensorwise (torchao's float8 roofline accounting);
    /// rowwise_gw_hp leaves the weight-gradient GEMMs in bf16; delayed and tensorwise cost the same here
    /// (docs/methods-time.md §4.16).
    void fp8RecipesCostWhatTheyMove()
    {
        const GpuSpec& h100 = *GpuCatalog::builtin().find("H100-SXM-80GB");
        const EfficiencyParams e;
        const auto peaks = [&](Fp8Recipe recipe) { return computePeaks(h100, Precision::Fp8, e, recipe); };
        QCOMPARE(peaks(Fp8Recipe::Delayed).fp8CastBytesPerInput, 5.0);
        QCOMPARE(peaks(Fp8Recipe::Tensorwise).fp8ExtraActivationBytes, 0.0);
        QCOMPARE(peaks(Fp8Recipe::Rowwise).fp8ExtraActivationBytes, 2.0);
        QCOMPARE(peaks(Fp8Recipe::Rowwise).fp8ExtraWeightBytes, 2.0);
        QVERIFY(peaks(Fp8Recipe::RowwiseGwHp).weightGradSixteenBit);
        QVERIFY(!computePeaks(h100, Precision::AmpBf16, e, Fp8Recipe::RowwiseGwHp).weightGradSixteenBit);
        QCOMPARE(computePeaks(h100, Precision::AmpBf16, e, Fp8Recipe::Rowwise).fp8ExtraActivationBytes, 0.0);

        const ModelConfig llama = modelPreset("Llama 3 70B");
        LayerShape shape;
        shape.tensorParallel = 8;
        shape.sequenceParallel = true;
        const auto stepOf = [&](const ComputePeaks& p) { return denseLayerStepS(llama, 8, p, e); };
        const double tensorwise = stepOf(peaks(Fp8Recipe::Tensorwise));
        QCOMPARE(stepOf(peaks(Fp8Recipe::Delayed)), tensorwise);
        QVERIFY(stepOf(peaks(Fp8Recipe::Rowwise)) > tensorwise);
        // bf16 weight gradients: the weight-gradient GEMMs take as long as at bf16, whatever the casts save.
        const auto gwHp = layerTime(llama, shape, false, peaks(Fp8Recipe::RowwiseGwHp), e);
        const auto bf16 = layerTime(llama, shape, false, computePeaks(h100, Precision::AmpBf16, e), e);
        QVERIFY(std::abs(gwHp.backwardWeightS / bf16.backwardWeightS - 1) < 0.01);
        QVERIFY(stepOf(peaks(Fp8Recipe::RowwiseGwHp)) > tensorwise);
    }

    /// Every FP8 recipe leaves the output layer in bf16: the LM head costs what it costs in bf16.
    void fp8LeavesTheHeadInBf16()
    {
        const GpuSpec& h100 = *GpuCatalog::builtin().find("H100-SXM-80GB");
        const EfficiencyParams e;
        const ModelConfig llama = modelPreset("Llama 3 70B");
        const LayerShape shape;
        const auto fp8 = headTime(llama, shape, computePeaks(h100, Precision::Fp8, e));
        const auto bf16 = headTime(llama, shape, computePeaks(h100, Precision::AmpBf16, e));
        QCOMPARE(fp8.forwardS, bf16.forwardS);
        QCOMPARE(fp8.backwardWeightS, bf16.backwardWeightS);
    }

    /// A multi-token-prediction module runs the head and its loss again, after a 2h → h projection (§4.47).
    void multiTokenPredictionRunsTheHeadAgain()
    {
        const GpuSpec& h100 = *GpuCatalog::builtin().find("H100-SXM-80GB");
        const EfficiencyParams e;
        ModelConfig m = modelPreset("DeepSeek-V3");
        const LayerShape shape;
        const ComputePeaks peaks = computePeaks(h100, Precision::AmpBf16, e);
        m.mtpLayers = 0;
        const LayerTime one = headTime(m, shape, peaks);
        m.mtpLayers = 1;
        const LayerTime two = headTime(m, shape, peaks);
        const double projection = gemmTimeS(4096, 2.0 * 7168, 7168, 2, peaks);
        QVERIFY(projection > 0);
        QCOMPARE(two.backwardWeightS, 2 * one.backwardWeightS + projection);
        QVERIFY(two.forwardS > 2 * one.forwardS + projection); // and the norms' passes
        QCOMPARE(two.backwardInputS, two.forwardS);
        QVERIFY(eagerOpsHead(m) > 2 * (eagerOpsHead(modelPreset("Llama 3 70B"))) - 1);
    }

    void efficiencyTableByFamily()
    {
        const auto& table = EfficiencyTable::builtin();
        QCOMPARE(table.forGpu("A100-SXM-80GB").family, std::string("Ampere"));
        QCOMPARE(table.forGpu("H100-SXM-80GB").family, std::string("Hopper"));
        QCOMPARE(table.forGpu("no-such-gpu").family, std::string("default"));
        const auto changed
            = withOverrides(table.forGpu("B200"), R"({"gemm_peak_fraction": 0.5, "link_scale_out": 0.4})");
        QCOMPARE(changed.gemmPeakFraction, 0.5);
        QCOMPARE(changed.link.scaleOut, 0.4);
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, withOverrides(changed, R"({"gemm_peak_fractoin": 0.5})"));
        QVERIFY(QString::fromStdString(toJsonText(changed)).contains("\"gemm_peak_fraction\":0.5"));
    }
};

QTEST_GUILESS_MAIN(TestComputeTime)
#include "tst_computetime.moc"
