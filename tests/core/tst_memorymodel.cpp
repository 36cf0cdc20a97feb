// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/memory/activations.h"
#include "core/memory/memorymodel.h"
#include "core/memory/modelstates.h"
#include "core/memory/pipelinememory.h"
#include "core/model/frameworkrules.h"
#include "core/model/frameworks.h"
#include "core/model/modelmath.h"
#include "core/model/modelpresets.h"

#include <QTest>

#include <algorithm>
#include <cmath>

using namespace clusterplanner::core;

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

TrainingConfig megatron(int tp, bool sp, Recompute recompute, AttentionKind attention = AttentionKind::Math)
{
    TrainingConfig t;
    t.framework = Framework::Megatron;
    t.precision = Precision::AmpBf16;
    t.microBatch = 1;
    t.layout.tp = tp;
    t.layout.dp = 1;
    t.layout.pp = 1;
    t.layout.sequenceParallel = sp;
    t.recompute = recompute;
    t.attention = attention;
    t.globalBatch = 1;
    t.zeroStage = 0;
    t.distributedOptimizer = false;
    return t;
}

/// Total bytes of the most common set-up used by the property tests: Llama 3 8B on H100, Megatron.
double peak(const ModelConfig& model, const TrainingConfig& t)
{
    const MemoryContext ctx = makeMemoryContext(model, GpuCatalog::builtin().find("H100-SXM-80GB"));
    return evaluateMemory(ctx, t).peakAllocatedBytes;
}

TrainingConfig llamaLayout()
{
    TrainingConfig t;
    t.framework = Framework::Megatron;
    t.layout = {8, 2, 2, 1, 1, 1, true};
    t.globalBatch = 64;
    t.microBatch = 2;
    t.recompute = Recompute::None;
    t.zeroStage = 0;
    t.distributedOptimizer = false;
    return t;
}

} // namespace

class TestMemoryModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // docs/methods-test-values.md §11 item 11: K22 Table 2 for GPT-3, s 2048, b 1, t 8 (MiB per layer).
    void korthikantiActivationsPerLayer_data()
    {
        QTest::addColumn<int>("tp");
        QTest::addColumn<bool>("sp");
        QTest::addColumn<int>("recompute");
        QTest::addColumn<double>("expectedMiB");
        QTest::newRow("no parallelism") << 1 << false << int(Recompute::None) << 2736.0;
        QTest::newRow("TP") << 8 << false << int(Recompute::None) << 552.0;
        QTest::newRow("TP+SP") << 8 << true << int(Recompute::None) << 342.0;
        QTest::newRow("TP+selective") << 8 << false << int(Recompute::Selective) << 312.0;
        QTest::newRow("TP+SP+selective") << 8 << true << int(Recompute::Selective) << 102.0;
    }
    void korthikantiActivationsPerLayer()
    {
        QFETCH(int, tp);
        QFETCH(bool, sp);
        QFETCH(int, recompute);
        QFETCH(double, expectedMiB);
        const MemoryContext ctx = makeMemoryContext(gpt3Padded(), nullptr);
        TrainingConfig t = megatron(tp, sp, Recompute(recompute));
        // K22's table has no flash statistics: the materialized-attention path with selective recompute
        // drops the score term, and the 4·a·s·b log-sum-exp of flash kernels is not in the paper.
        double bytes = layerActivationBytes(ctx, t, false);
        if (Recompute(recompute) == Recompute::Selective)
            bytes -= 2048.0 * 96 * 4 / tp; // remove the flash log-sum-exp the paper does not count
        QCOMPARE(std::round(bytes / kMiB), expectedMiB);
    }
    /// QK norm (§3.16), per token and layer at TP 1: Transformer Engine's norm keeps a contiguous bf16 copy of the
    /// queries and keys and an fp32 inverse RMS per head; an eager norm what it keeps for any tensor (LayerNorm its
    /// input; RMSNorm the fp32 upcast and the normalised tensor).
    void qkNormKeepsWhatItsNormsSave()
    {
        ModelConfig m = gpt3Padded(); // LayerNorm
        TrainingConfig t = megatron(1, false, Recompute::None);
        const auto added = [&](const ModelConfig& model) {
            ModelConfig normed = model;
            normed.qkNorm = true;
            return layerActivationBytes(makeMemoryContext(normed, nullptr), t, false)
                - layerActivationBytes(makeMemoryContext(model, nullptr), t, false);
        };
        const double tokens = 2048.0; // gpt3Padded's sequence, micro-batch 1
        const double qk = queryWidth(m) + kvWidth(m);
        QCOMPARE(added(m), tokens * (2 * qk + 4.0 * (m.heads + m.kvHeads)));
        t.framework = Framework::HuggingFace;
        t.precision = Precision::Bf16;
        QCOMPARE(added(m), tokens * 2 * qk);
        ModelConfig rms = m;
        rms.norm = NormKind::RmsNorm;
        QCOMPARE(added(rms), tokens * (2 + 4) * qk);
    }

    /// A parallel block (docs/methods-memory.md §3.20) normalises once: one norm input and one GEMM input (the QKV and
    /// MLP projections read the same norm output) fewer per token, except that autocast still casts one copy per GEMM.
    void parallelBlockSavesOneNormAndOneInput()
    {
        const ModelConfig m = gpt3Padded(); // LayerNorm
        TrainingConfig t = megatron(1, false, Recompute::None);
        const auto saved = [&](const TrainingConfig& training) {
            ModelConfig parallel = m;
            parallel.parallelBlock = true;
            return layerActivationBytes(makeMemoryContext(m, nullptr), training, false)
                - layerActivationBytes(makeMemoryContext(parallel, nullptr), training, false);
        };
        const double tokens = 2048.0, h = m.hidden;
        QCOMPARE(saved(t), tokens * (2 + 2) * h); // bf16 norm input and QKV/MLP input
        t.framework = Framework::HuggingFace;
        t.precision = Precision::Bf16;
        QCOMPARE(saved(t), tokens * (2 + 2) * h); // LayerNorm keeps its input; the shared input once
        t.precision = Precision::AmpBf16;
        QCOMPARE(saved(t), tokens * 4 * h); // the fp32 residual's norm input; the per-GEMM casts stay
        // Transformer Engine under FP8 keeps the shared input as one 1-byte copy beside the 2-byte norm input.
        TrainingConfig fp8 = megatron(1, false, Recompute::None);
        fp8.precision = Precision::Fp8;
        QCOMPARE(saved(fp8), tokens * (2 + 1) * h);
    }

    /// Multi-head latent attention (docs/methods-memory.md §3.17): the attention kernel's queries, keys and values at
    /// MLA's widths (128 heads of 192, 192 and 128 for DeepSeek-V3), the attention output at the value width, and each
    /// latent's norm input and output, replicated over TP.
    void latentAttentionKeepsItsWideHeads()
    {
        ModelConfig m = modelPreset("DeepSeek-V3"); // a dense layer of it: 7,168 wide, 128 heads, 4,096 tokens
        QVERIFY(m.mla == (MlaConfig {512, 1536, 128, 64, 128}));
        const TrainingConfig t = megatron(1, false, Recompute::None, AttentionKind::Flash);
        const double latent = layerActivationBytes(makeMemoryContext(m, nullptr), t, false);
        m.mla = {};
        const double standard = layerActivationBytes(makeMemoryContext(m, nullptr), t, false);
        m.mla = MlaConfig {512, 1536, 128, 64, 128};
        // Per token in bf16: Q, K, V and the output at 2 B each: 2·(24576 + 24576 + 16384 + 16384) against
        // 2·4·7168; the latents 1536 and 512 at 2 + 2 B.
        const double perToken = 2.0 * (24576 + 24576 + 16384 + 16384) - 2.0 * 4 * 7168 + 4.0 * (1536 + 512);
        QCOMPARE(latent - standard, 4096 * perToken);
        // TP 4 splits the heads' tensors, not the latents (the down-projections are duplicated), without SP.
        const TrainingConfig tp4 = megatron(4, false, Recompute::None, AttentionKind::Flash);
        const MemoryContext mla = makeMemoryContext(m, nullptr);
        m.mla = {};
        const double split
            = layerActivationBytes(mla, tp4, false) - layerActivationBytes(makeMemoryContext(m, nullptr), tp4, false);
        QCOMPARE(split, 4096 * ((2.0 * (24576 + 24576 + 16384 + 16384) - 2.0 * 4 * 7168) / 4 + 4.0 * (1536 + 512)));
    }

    void fp8SavesGemmInputsAsOneByte()
    {
        // TE's FP8 recipe keeps the QKV, projection, MLP and down-projection inputs as FP8 copies. GPT-3 (GELU
        // 4h MLP, MHA, dropout) at TP 8 with SP, per token: K22's (8h + 2h masks)/t + (8h + 16h)/t = 34h/t becomes
        // (4h + 2h + 2h masks)/t + (6h + h + 8h + 4h)/t = 27h/t, before the flash statistics.
        const MemoryContext ctx = makeMemoryContext(gpt3Padded(), nullptr);
        TrainingConfig t = megatron(8, true, Recompute::Selective);
        const double bf16 = layerActivationBytes(ctx, t, false);
        t.precision = Precision::Fp8;
        const double fp8 = layerActivationBytes(ctx, t, false);
        const double lse = 2048.0 * 96 * 4 / 8;
        QVERIFY2(std::abs((fp8 - lse) / (bf16 - lse) - 27.0 / 34.0) < 1e-9, qPrintable(QString::number(fp8 / bf16)));
    }

    /// The permuted tokens of a MoE layer: the first expert GEMM's input, FP8 under TE's recipe like every GEMM
    /// input above (per token and copy 2h bytes in bf16, 1h in FP8).
    void fp8SavesThePermutedExpertInputsAsOneByte()
    {
        ModelConfig m = gpt3Padded();
        m.moe = MoeConfig {64, 8, 1024, 0, 0, 1.0};
        const MemoryContext ctx = makeMemoryContext(m, nullptr);
        TrainingConfig t = megatron(8, true, Recompute::Selective);
        const auto moeOverDense
            = [&] { return layerActivationBytes(ctx, t, true) - layerActivationBytes(ctx, t, false); };
        const double bf16 = moeOverDense();
        t.precision = Precision::Fp8;
        const double fp8 = moeOverDense();
        // FP8 also saves the down-projection input as one byte, in the k expert MLPs (f = 1,024 each) as in the
        // dense one (4h): the MoE-over-dense difference moves by (k·f − 4h) for that, per token sharded over TP 8,
        // plus k·h for the first expert GEMM's input, whose rows every rank of expert TP 8 (= TP) holds whole.
        const double tokens = 2048, k = 8, h = m.hidden, tp = 8;
        const double expected = tokens * ((k * 1024 - m.ffnHidden) / tp + k * h);
        QVERIFY2(std::abs((bf16 - fp8) - expected) < 1e-9 * bf16, qPrintable(QString::number(bf16 - fp8)));
    }

    /// Where the routing probabilities are applied (docs/methods-memory.md §3.18): Megatron-Core 0.13 and later
    /// apply them in the experts' activation, so the combine keeps no expert outputs; a stack whose combine applies
    /// them keeps the k outputs, k·h·β per token (split over TP).
    void combineKeepsExpertOutputsOnlyWhereItAppliesTheProbabilities()
    {
        ModelConfig m = gpt3Padded();
        m.moe = MoeConfig {64, 8, 1024, 0, 0, 1.0};
        const MemoryContext ctx = makeMemoryContext(m, nullptr);
        TrainingConfig t = megatron(8, true, Recompute::Selective);
        const auto moeOverDense = [&](Framework framework) {
            t.framework = framework;
            return layerActivationBytes(ctx, t, true) - layerActivationBytes(ctx, t, false);
        };
        QVERIFY(frameworkCapabilities(Framework::Megatron).moeProbsInActivation);
        QVERIFY(!frameworkCapabilities(Framework::Other).moeProbsInActivation);
        const double keptOutputs = 2048.0 * 8 * m.hidden * 2; // whole rows on each rank of expert TP 8 (= TP)
        QCOMPARE(moeOverDense(Framework::Other) - moeOverDense(Framework::Megatron), keptOutputs);
    }

    /// Expert tensor parallelism: with EP dividing DP × CP the experts are split by TP too (Megatron-Core's default,
    /// ETP = TP); an EP group that reaches into the TP ranks is MoE parallel folding, whose experts EP alone splits
    /// (ETP = 1: Megatron needs world % (ETP·EP·PP) == 0) and whose expert states shard over DP × CP × TP / EP.
    void foldedExpertParallelismDoesNotSplitExpertsByTp()
    {
        const ModelConfig m = modelPreset("DeepSeek-V3");
        const MemoryContext ctx = makeMemoryContext(m, nullptr);
        const double experts = ctx.params.moeLayers * ctx.params.routedExpertsPerMoeLayer;
        ParallelLayout beside {32, 4, 1, 1, 8, 1, true}; // dp 32, tp 4, ep 8: EP within DP
        QCOMPARE(expertTensorParallel(beside), 4);
        QCOMPARE(stageParams(ctx, beside, 0).experts, experts / 32);
        ParallelLayout folded {8, 4, 1, 1, 32, 1, true}; // dp 8, tp 4, ep 32: EP spans the TP ranks
        QCOMPARE(expertTensorParallel(folded), 1);
        QCOMPARE(stageParams(ctx, folded, 0).experts, experts / 32);
        // One copy of each expert per 32 GPUs either way: no expert-data-parallel sharding in the folded layout,
        // DP × CP / EP = 4 in the other.
        QCOMPARE(shardedParameters(experts, experts, folded), experts);
        QCOMPARE(shardedParameters(experts / 32, experts / 32, beside), experts / 32 / 4);
    }

    /// A stated expert TP (Megatron-Core --expert-tensor-parallel-size; NeMo's and Megatron-Bridge's MoE recipes set
    /// 1 whatever their TP) replaces the default: with EP 8 beside TP 4, expert TP 1 leaves each rank whole experts
    /// (a 1/8 share) whose states shard over the 16 ranks holding the same ones; expert TP 2 halves them again.
    void statedExpertTpReplacesTheDefault()
    {
        const ModelConfig m = modelPreset("DeepSeek-V3");
        const MemoryContext ctx = makeMemoryContext(m, nullptr);
        const double experts = ctx.params.moeLayers * ctx.params.routedExpertsPerMoeLayer;
        ParallelLayout l {32, 4, 1, 1, 8, 1, true};
        l.expertTp = 1;
        QCOMPARE(expertTensorParallel(l), 1);
        QCOMPARE(expertDataParallel(l), 16);
        QCOMPARE(stageParams(ctx, l, 0).experts, experts / 8);
        QCOMPARE(shardedParameters(experts / 8, experts / 8, l), experts / 8 / 16);
        l.expertTp = 2;
        QCOMPARE(expertTensorParallel(l), 2);
        QCOMPARE(expertDataParallel(l), 8);
        QCOMPARE(stageParams(ctx, l, 0).experts, experts / 16);
    }

    /// The routed rows a MoE layer keeps for the first expert GEMM's weight gradient are whole (h wide) on every
    /// expert-TP rank, which gathers its group's sequence shards: at expert TP = TP = 8 a rank keeps all k·T rows of
    /// the TP group, at expert TP 1 its own k·T/8 (docs/methods-memory.md §3.2).
    void routedRowsAreKeptWholeOnEveryExpertTpRank()
    {
        ModelConfig m = gpt3Padded();
        m.moe = MoeConfig {64, 8, 1024, 0, 0, 1.0};
        const MemoryContext ctx = makeMemoryContext(m, nullptr);
        TrainingConfig t = megatron(8, true, Recompute::Selective); // EP 1: expert TP = TP by default
        QCOMPARE(expertTensorParallel(t.layout), 8);
        const double gathered = layerActivationBytes(ctx, t, true);
        t.layout.expertTp = 1;
        const double own = layerActivationBytes(ctx, t, true);
        // Megatron applies the routing probabilities in the activation: the first GEMM's bf16 input only.
        const double tokens = 2048, k = 8, h = m.hidden, bf16 = 2;
        const double expected = tokens * k * h * bf16 * (1 - 1.0 / 8);
        QVERIFY2(std::abs((gathered - own) - expected) < 1e-9 * expected, qPrintable(QString::number(gathered - own)));
        // Without sequence parallelism every TP rank already holds all T tokens: expert TP changes nothing.
        t.layout.sequenceParallel = false;
        const double unsplit = layerActivationBytes(ctx, t, true);
        t.layout.expertTp = 8;
        QCOMPARE(layerActivationBytes(ctx, t, true), unsplit);
    }

    /// Megatron's copy of the word embeddings on the last stage: only with pipeline stages, and only where a tied head
    /// or multi-token prediction reads it; the memory model's last stage holds exactly that (split by TP).
    void lastStageHoldsAnEmbeddingCopyOnlyWhereItIsRead()
    {
        ModelConfig m; // Llama 3 8B: untied
        const double copy = double(m.vocab) * m.hidden;
        QCOMPARE(lastStageEmbeddingCopy(m, 0, 4), 0.0);
        QCOMPARE(lastStageEmbeddingCopy(m, 1, 4), copy);
        m.tiedEmbeddings = true;
        QCOMPARE(lastStageEmbeddingCopy(m, 0, 4), copy);
        QCOMPARE(lastStageEmbeddingCopy(m, 0, 1), 0.0); // one stage holds the one embedding
        const MemoryContext ctx = makeMemoryContext(m, nullptr);
        ParallelLayout l {8, 2, 4, 1, 1, 1, true};
        QCOMPARE(stageParams(ctx, l, 3).embedding, copy / 2);
        QCOMPARE(stageParams(ctx, l, 1).embedding, 0.0);
    }

    void korthikantiFullRecomputeKeepsLayerInput()
    {
        const MemoryContext ctx = makeMemoryContext(gpt3Padded(), nullptr);
        QCOMPARE(layerInputBytes(ctx, megatron(8, true, Recompute::Full)) / kMiB, 6.0); // 2sbh/t
        QCOMPARE(layerInputBytes(ctx, megatron(1, false, Recompute::Full)) / kMiB, 48.0); // 2sbh (table: 48)
    }

    // docs/methods-test-values.md §11 item 9: ZeRO Fig. 1, Ψ 7.5e9, K 12, d 64 → 120 / 31.41 / 16.64 / 1.875 GB.
    void zeroModelStates_data()
    {
        QTest::addColumn<int>("stage");
        QTest::addColumn<double>("expectedGB");
        QTest::newRow("DDP") << 0 << 120.0;
        QTest::newRow("ZeRO-1") << 1 << 31.40625;
        QTest::newRow("ZeRO-2") << 2 << 16.640625;
        QTest::newRow("ZeRO-3") << 3 << 1.875;
    }
    void zeroModelStates()
    {
        QFETCH(int, stage);
        QFETCH(double, expectedGB);
        TrainingConfig t;
        t.framework = Framework::DeepSpeed;
        t.precision = Precision::AmpBf16;
        t.zeroStage = stage;
        t.distributedOptimizer = false;
        t.layout = {64, 1, 1, 1, 1, 1, false};
        StageParams params;
        params.total = 7.5e9;
        const ModelStateBytes m = modelStateBytes(makeMemoryContext(gpt3Padded(), nullptr), t, params);
        QCOMPARE((m.weights + m.gradients + m.optimizer) / 1e9, expectedGB);
    }

    // docs/methods-test-values.md §11 item 10: Megatron distributed optimizer, bf16 + fp32 grads, d = 8 → 7.5;
    // plain 18.
    void megatronDistributedOptimizer()
    {
        TrainingConfig t = megatron(1, false, Recompute::None);
        t.layout.dp = 8;
        StageParams params;
        params.total = 1;
        const auto ctx = makeMemoryContext(gpt3Padded(), nullptr);
        t.distributedOptimizer = true;
        ModelStateBytes m = modelStateBytes(ctx, t, params);
        QCOMPARE(m.weights + m.gradients + m.optimizer, 7.5);
        t.distributedOptimizer = false;
        m = modelStateBytes(ctx, t, params);
        QCOMPARE(m.weights + m.gradients + m.optimizer, 18.0);
    }

    /// A routed expert's states shard over its expert-data-parallel group, DP × CP / EP ranks, not over DP × CP:
    /// Qwen3-30B-A3B-like, EP 8 over DP 8 leaves each expert on one rank, so nothing of its states is sharded.
    void expertStatesShardOverTheExpertDataParallelGroup()
    {
        TrainingConfig t = megatron(1, false, Recompute::None);
        t.distributedOptimizer = true;
        t.layout.dp = 8;
        t.layout.ep = 8;
        StageParams params;
        params.total = 10;
        params.experts = 8; // 2 dense parameters, 8 expert parameters on this GPU
        const auto ctx = makeMemoryContext(gpt3Padded(), nullptr);
        const double perParam = stateBytesPerParam(t).optimizer;
        QCOMPARE(modelStateBytes(ctx, t, params).optimizer, perParam * (2.0 / 8 + 8.0 / 1));
        t.layout.dp = 32; // expert-data-parallel group of 4
        QCOMPARE(modelStateBytes(ctx, t, params).optimizer, perParam * (2.0 / 32 + 8.0 / 4));
        t.layout.cp = 2; // CP ranks replicate the experts too: a group of 8
        QCOMPARE(modelStateBytes(ctx, t, params).optimizer, perParam * (2.0 / 64 + 8.0 / 8));
        // ZeRO-3 shards weights and gradients over the same groups.
        t.zeroStage = 3;
        const ModelStateBytes m = modelStateBytes(ctx, t, params);
        QCOMPARE(m.weights, stateBytesPerParam(t).weights * (2.0 / 64 + 8.0 / 8));
        QCOMPARE(m.gradients, stateBytesPerParam(t).gradients * (2.0 / 64 + 8.0 / 8));
    }

    void hybridShardingShardsOverItsShardGroup()
    {
        // Hybrid sharding: DP 32 sharded within groups of 8, each shard copied 4 times. The dense states split 8 × CP
        // ways; the experts' group of 4 (DP 32 × CP 2 / EP 16) loses the 4 copies too and holds them whole.
        TrainingConfig t = megatron(1, false, Recompute::None);
        t.distributedOptimizer = true;
        t.zeroStage = 3;
        t.layout.dp = 32;
        t.layout.cp = 2;
        t.layout.ep = 16;
        t.layout.dpShard = 8;
        StageParams params;
        params.total = 10;
        params.experts = 8;
        const auto ctx = makeMemoryContext(gpt3Padded(), nullptr);
        const ModelStateBytes m = modelStateBytes(ctx, t, params);
        QCOMPARE(m.optimizer, stateBytesPerParam(t).optimizer * (2.0 / 16 + 8.0 / 1));
        QCOMPARE(m.weights, stateBytesPerParam(t).weights * (2.0 / 16 + 8.0 / 1));
        // All of DP (kDpShardAll, or DP itself) is ordinary sharding.
        for (int all : {kDpShardAll, 32}) {
            t.layout.dpShard = all;
            QCOMPARE(modelStateBytes(ctx, t, params).optimizer, stateBytesPerParam(t).optimizer * (2.0 / 64 + 8.0 / 4));
        }
    }

    void optimizerRegimes()
    {
        TrainingConfig t;
        t.framework = Framework::HuggingFace;
        t.precision = Precision::Bf16;
        QCOMPARE(stateBytesPerParam(t).optimizer, 4.0); // bf16 m and v
        t.precision = Precision::Fp32;
        t.optimizer = Optimizer::SgdMomentum;
        QCOMPARE(stateBytesPerParam(t).optimizer, 4.0);
        t.optimizer = Optimizer::Sgd;
        QCOMPARE(stateBytesPerParam(t).optimizer, 0.0);
        t.precision = Precision::AmpBf16;
        t.optimizer = Optimizer::AdamW;
        const auto amp = stateBytesPerParam(t); // fp32 weights double as master: 4 + 4 + 8 = 16
        QCOMPARE(amp.weights + amp.gradients + amp.optimizer, 16.0);
    }

    // docs/methods-test-values.md §11 item 13: 16 GB GPU, 3 GB weights, 9 GB Adam, 1.6 GB reserved, 50 MB/sample → 48.
    void seedMaxBatchExample() { QCOMPARE(seedMaxBatch(16e9, 12e9, 1.6e9, 50e6), 48); }

    // docs/methods-test-values.md §11 item 14: Llama 3 8B logits, s 8192, b 1, t 1 → 1.96 / 3.91 / 9.79 GiB.
    void logitsOfLlama3()
    {
        ModelConfig m; // defaults are Llama 3 8B
        const MemoryContext ctx = makeMemoryContext(m, nullptr);
        TrainingConfig t;
        t.framework = Framework::HuggingFace;
        t.layout = {1, 1, 1, 1, 1, 1, false};
        const double entries = 8192.0 * 128256;
        QCOMPARE(std::round(2 * entries / kGiB * 100) / 100, 1.96);
        QCOMPARE(std::round(4 * entries / kGiB * 100) / 100, 3.91);
        const LogitsBytes l = logitsBytes(ctx, t);
        QCOMPARE(std::round(l.held / kGiB * 100) / 100, 1.96); // bf16 logits the caller keeps
        QCOMPARE(std::round(l.forwardPeak / kGiB * 100) / 100, 9.79); // bf16 + fp32 copy + fp32 log-softmax
        QVERIFY(l.peak > l.forwardPeak); // backward adds the fp32 gradients
    }

    // docs/methods-test-values.md §11 item 12: interleave penalty p 35, v 3 → 1.3238; 1F1B holds min(p, m).
    void pipelineInFlight()
    {
        QCOMPARE(
            std::round(inFlightMicroBatches(PipelineSchedule::Interleaved, 35, 3, 1000, 0) / 35 * 1e4) / 1e4, 1.3238);
        QCOMPARE(inFlightMicroBatches(PipelineSchedule::OneFOneB, 8, 1, 100, 0), 8.0);
        QCOMPARE(inFlightMicroBatches(PipelineSchedule::OneFOneB, 8, 1, 3, 0), 3.0);
        QCOMPARE(inFlightMicroBatches(PipelineSchedule::OneFOneB, 8, 1, 100, 7), 1.0);
        QCOMPARE(inFlightMicroBatches(PipelineSchedule::GPipe, 8, 1, 32, 7), 32.0);
        QCOMPARE(inFlightMicroBatches(PipelineSchedule::ZbH1, 8, 1, 32, 7), 8.0);
        QCOMPARE(inFlightMicroBatches(PipelineSchedule::DualPipe, 8, 1, 32, 3), 9.0); // PP + 1 (DeepSeek-V3 Table 2)
    }

    void dualPipeRanksHoldTwoStages()
    {
        // DualPipe: rank d holds stage d of one direction and stage p − 1 − d of the other, two copies of the model
        // over the pipeline (DeepSeek-V3 report §3.2.1). Rank 0 holds the embedding and the head; PP 4 of the
        // default 32-layer model gives every stage 8 layers.
        TrainingConfig t = llamaLayout();
        t.layout = {4, 2, 4, 1, 1, 1, true};
        const MemoryContext ctx = makeMemoryContext(ModelConfig {}, GpuCatalog::builtin().find("H100-SXM-80GB"));
        const MemoryEstimate oneF = evaluateMemory(ctx, t);
        t.schedule = PipelineSchedule::DualPipe;
        const MemoryEstimate dual = evaluateMemory(ctx, t);
        QCOMPARE(dual.first.stage, 0);
        QCOMPARE(dual.first.layers, 16);
        const double bothEnds = oneF.first.peak.weightsBytes + oneF.last.peak.weightsBytes;
        QVERIFY(std::abs(dual.first.peak.weightsBytes - bothEnds) < 1e-6 * bothEnds);
        QVERIFY(dual.first.peak.logitsBytes > 0); // the head's stage is on rank 0
        // p + 1 micro-batches in flight: at distance h from its end a rank holds p − h of its near stage and h + 1 of
        // its far one (the replay of DualPipe's order). Rank 0: the four of stage 0 that 1F1B's first stage holds,
        // and one of stage 3, the head's activations with it.
        QCOMPARE(dual.first.inFlightMicroBatches, 5.0);
        const double oneOfTheLast = oneF.last.peak.activationsBytes / oneF.last.inFlightMicroBatches;
        QVERIFY2(std::abs(dual.first.peak.activationsBytes - (oneF.first.peak.activationsBytes + oneOfTheLast))
                < 1e-6 * dual.first.peak.activationsBytes,
            qPrintable(QString::number(dual.first.peak.activationsBytes)));
        // Without a pipeline DualPipe holds what 1F1B does.
        t.layout = {16, 2, 1, 1, 1, 1, true};
        const double single = evaluateMemory(ctx, t).first.inFlightMicroBatches;
        QCOMPARE(single, 1.0);
    }

    void moreParallelismNeverIncreasesMemory()
    {
        const ModelConfig m;
        TrainingConfig t = llamaLayout();
        double previous = peak(m, t);
        for (int tp : {4, 8}) {
            t.layout.tp = tp;
            t.layout.dp = 16 / tp;
            t.globalBatch = 64;
            const double now = peak(m, t);
            QVERIFY2(now <= previous, qPrintable(QString("TP %1").arg(tp)));
            previous = now;
        }
        t = llamaLayout();
        previous = peak(m, t);
        for (int pp : {4, 8}) {
            t.layout.pp = pp;
            t.layout.dp = 32 / (pp * t.layout.tp);
            const double now = peak(m, t);
            QVERIFY2(now <= previous, qPrintable(QString("PP %1").arg(pp)));
            previous = now;
        }
    }

    void zeroAndRecomputeNeverIncreaseMemory()
    {
        for (Framework framework : {Framework::Megatron, Framework::HuggingFace, Framework::DeepSpeed}) {
            TrainingConfig t = llamaLayout();
            t.framework = framework;
            t.distributedOptimizer = false;
            double previous = peak(ModelConfig {}, t);
            for (int stage : {1, 2, 3}) {
                t.zeroStage = stage;
                const double now = peak(ModelConfig {}, t);
                QVERIFY(now <= previous + 1);
                previous = now;
            }
            t.zeroStage = 0;
            previous = peak(ModelConfig {}, t);
            for (Recompute r : {Recompute::Selective, Recompute::Full}) {
                t.recompute = r;
                const double now = peak(ModelConfig {}, t);
                QVERIFY(now <= previous + 1);
                previous = now;
            }
        }
    }

    void monotoneInMicroBatchAndSequence()
    {
        TrainingConfig t = llamaLayout();
        double previous = 0;
        for (int b : {1, 2, 4, 8}) {
            t.microBatch = b;
            t.globalBatch = 8 * 8;
            const double now = peak(ModelConfig {}, t);
            QVERIFY(now > previous);
            previous = now;
        }
        ModelConfig m;
        previous = 0;
        for (int s : {1024, 2048, 8192}) {
            m.seqLen = s;
            const double now = peak(m, llamaLayout());
            QVERIFY(now > previous);
            previous = now;
        }
    }

    void termsAreNeverNegativeAndStagesDiffer()
    {
        TrainingConfig t = llamaLayout();
        t.layout = {4, 2, 4, 1, 1, 1, true};
        const MemoryContext ctx = makeMemoryContext(ModelConfig {}, GpuCatalog::builtin().find("H100-SXM-80GB"));
        const MemoryEstimate e = evaluateMemory(ctx, t);
        for (const StageMemory* s : {&e.first, &e.last}) {
            const MemoryBreakdown& b = s->peak;
            for (double v : {b.weightsBytes, b.gradientsBytes, b.optimizerBytes, b.activationsBytes, b.logitsBytes,
                     b.castCacheBytes, b.shardBufferBytes, b.workspaceBytes})
                QVERIFY(v >= 0);
            QVERIFY(s->reservedBytes >= b.totalBytes());
        }
        QCOMPARE(e.last.stage, 3);
        QVERIFY(e.last.peak.logitsBytes > 0 && e.first.peak.logitsBytes == 0);
        QVERIFY(e.first.inFlightMicroBatches > e.last.inFlightMicroBatches);
    }

    void maxMicroBatchIsTheLargestThatFits()
    {
        const MemoryContext ctx = makeMemoryContext(ModelConfig {}, GpuCatalog::builtin().find("H100-SXM-80GB"));
        TrainingConfig t = llamaLayout();
        const int bMax = maxMicroBatch(ctx, t);
        QVERIFY(bMax >= 1);
        t.microBatch = bMax;
        t.globalBatch = std::max(t.globalBatch, bMax * t.layout.dp);
        QVERIFY(evaluateMemory(ctx, t).fits);
        t.microBatch = bMax + 1;
        t.globalBatch = std::max(t.globalBatch, (bMax + 1) * t.layout.dp);
        QVERIFY(!evaluateMemory(ctx, t).fits);
    }

    void remediesForALayoutThatDoesNotFit()
    {
        // Llama 3 8B at TP 2 without optimizer sharding: 4e9 parameters × 18 B = 72 GB of states alone.
        const MemoryContext ctx = makeMemoryContext(ModelConfig {}, GpuCatalog::builtin().find("H100-SXM-80GB"));
        TrainingConfig t = llamaLayout();
        t.layout = {16, 2, 1, 1, 1, 1, true};
        t.globalBatch = 16;
        t.microBatch = 1;
        QVERIFY(!evaluateMemory(ctx, t).fits);
        const auto remedies = fitRemedies(ctx, t, 8);
        QVERIFY(!remedies.empty());
        bool namesZero = false;
        for (const auto& r : remedies)
            namesZero = namesZero || r.rfind("distributed optimizer", 0) == 0;
        QVERIFY(namesZero);
        // 16-bit optimizer states (6 B of states instead of 12 + 4) are advice where the framework has them.
        const auto namesSixteenBitStates = [&](const TrainingConfig& config) {
            const auto found = fitRemedies(ctx, config, 8);
            return std::any_of(found.begin(), found.end(),
                [](const std::string& r) { return r.rfind("16-bit optimizer states", 0) == 0; });
        };
        QVERIFY(!namesSixteenBitStates(t)); // unsharded: Megatron's precision-aware optimizer needs the distributed one
        // Sharded over DP 2 with full recompute: 8e9 parameters × (2 + 4 + 12 / 2) B = 96 GB with fp32 states, against
        // 8e9 × (2 + 2 + 6 / 2) B = 56 GB with 16-bit ones.
        t.layout = {2, 1, 1, 1, 1, 1, false};
        t.zeroStage = 1;
        t.distributedOptimizer = true;
        t.recompute = Recompute::Full;
        t.globalBatch = 2;
        QVERIFY(!evaluateMemory(ctx, t).fits);
        QVERIFY(namesSixteenBitStates(t));
        t.framework = Framework::TorchTitan;
        QVERIFY(!namesSixteenBitStates(t));
    }

    /// docs/methods-memory.md §3.19: a multi-token-prediction module's layer on the last stage, its projection and
    /// norms beside the head, Megatron's embedding copy there for PP > 1, and its loss's saved fp32 softmax.
    void multiTokenPredictionAddsItsLayerAndLossOnTheLastStage()
    {
        ModelConfig m = modelPreset("DeepSeek-V3");
        QCOMPARE(m.mtpLayers, 1);
        TrainingConfig t = megatron(1, false, Recompute::None, AttentionKind::Flash);
        t.layout.pp = 2;
        t.layout.ep = 1;
        const MemoryContext with = makeMemoryContext(m, nullptr);
        m.mtpLayers = 0;
        const MemoryContext without = makeMemoryContext(m, nullptr);
        QCOMPARE(with.layers, 62);
        const StageParams last = stageParams(with, t.layout, 1), lastBefore = stageParams(without, t.layout, 1);
        QCOMPARE(last.layers, 31);
        QCOMPARE(lastBefore.layers, 30);
        QCOMPARE(last.embedding, 129280.0 * 7168); // the copy the module embeds with
        QCOMPARE(lastBefore.embedding, 0.0);
        const double ends = last.total - last.layers * last.perLayer - last.embedding;
        QCOMPARE(ends, with.params.head + with.params.finalNorm + 2.0 * 7168 * 7168 + 3 * 7168);
        QCOMPARE(stageParams(with, t.layout, 0).embedding, 129280.0 * 7168); // the first stage's own, once
        // The module's layer goes after the last stage's share of the cut, not to the first stages: 80 layers over
        // PP 8 keep 10 on stage 0 and hold 10 + 1 on the last.
        ModelConfig dense = modelPreset("Llama 3 70B");
        dense.mtpLayers = 1;
        const MemoryContext denseCtx = makeMemoryContext(dense, nullptr);
        ParallelLayout eight = t.layout;
        eight.pp = 8;
        QCOMPARE(stageParams(denseCtx, eight, 0).layers, 10);
        QCOMPARE(stageParams(denseCtx, eight, 7).layers, 11);
        // One stage holds both ends: no copy.
        t.layout.pp = 1;
        QCOMPARE(stageParams(with, t.layout, 0).embedding, 129280.0 * 7168);
        // The fused cross-entropy keeps an fp32 softmax per loss: one more V-wide fp32 row per token.
        const double entries = 4096.0 * 129280;
        QCOMPARE(logitsBytes(with, t).peak - logitsBytes(without, t).peak, 4 * entries);
        QVERIFY(headActivationBytes(with, t) > 2 * headActivationBytes(without, t));
    }
    /// docs/methods-memory.md §3.25: where Megatron-Core's layers do not divide into the model chunks but the layers
    /// plus the embedding's and the loss's slots do, the first and the last stage hold one layer fewer, taken from
    /// their first and last model chunk; other frameworks keep the first ranks one layer more.
    void megatronEmbeddingAndLossTakeALayerSlot()
    {
        TrainingConfig t = megatron(8, true, Recompute::None, AttentionKind::Flash);
        t.layout.pp = 16;
        t.schedule = PipelineSchedule::OneFOneB;
        QCOMPARE(pipelineEndSlots(126, t), 2); // Llama 3.1 405B over PP 16: 128 slots
        QCOMPARE(pipelineEndSlots(128, t), 0); // even already
        QCOMPARE(pipelineEndSlots(125, t), 0); // one slot would do: which one is not known
        t.schedule = PipelineSchedule::Interleaved;
        t.layout.virtualStages = 4;
        QCOMPARE(pipelineEndSlots(126, t), 2);
        t.layout.pp = 9;
        t.layout.virtualStages = 7;
        QCOMPARE(pipelineEndSlots(126, t), 0); // NeMo 24.12's PP 9 × 7 chunks divides 126
        t.layout.pp = 16;
        t.layout.virtualStages = 4;
        TrainingConfig titan = t;
        titan.framework = Framework::TorchTitan;
        QCOMPARE(pipelineEndSlots(126, titan), 0);
        QCOMPARE(layersOnStage(126, 16, 0, 2), 7);
        QCOMPARE(layersOnStage(126, 16, 1, 2), 8);
        QCOMPARE(layersOnStage(126, 16, 15, 2), 7);
        QCOMPARE(layersOnStage(126, 16, 0), 8); // the other rule: the first 14 ranks one more
        QCOMPARE(layersOnStage(126, 16, 15), 7);
        int total = 0;
        for (int stage = 0; stage < 16; ++stage)
            total += layersOnStage(126, 16, stage, 2);
        QCOMPARE(total, 126);

        // The first stage's activations: a layer fewer in each micro-batch its first chunk holds. Under 1F1B that is
        // every one of its p; interleaved, its first chunk holds 2p − 1 (Megatron's warm-up), one per micro-batch
        // beyond the p each other chunk holds. Against the even split of 128 layers, the same per-layer bytes:
        ModelConfig m = modelPreset("Llama 3 405B");
        ModelConfig even = m;
        even.layers = 128;
        const GpuSpec* gpu = GpuCatalog::builtin().find("B200");
        const MemoryContext odd = makeMemoryContext(m, gpu), evenCtx = makeMemoryContext(even, gpu);
        t.globalBatch = 64; // 64 micro-batches per step
        const auto savedBy = [&](PipelineSchedule schedule, int chunks) {
            TrainingConfig c = t;
            c.schedule = schedule;
            c.layout.virtualStages = chunks;
            return evaluateMemory(evenCtx, c).first.peak.activationsBytes
                - evaluateMemory(odd, c).first.peak.activationsBytes;
        };
        const double oneF = savedBy(PipelineSchedule::OneFOneB, 1);
        const double interleaved = savedBy(PipelineSchedule::Interleaved, 4);
        QVERIFY(oneF > 0);
        QVERIFY(std::abs(interleaved / oneF - 31.0 / 16.0) < 1e-9);
        // TorchTitan's split of the same layers gives stage 0 its eighth layer: nothing saved.
        TrainingConfig c = titan;
        c.schedule = PipelineSchedule::OneFOneB;
        c.layout.virtualStages = 1;
        c.globalBatch = 64;
        QCOMPARE(
            evaluateMemory(odd, c).first.peak.activationsBytes, evaluateMemory(evenCtx, c).first.peak.activationsBytes);
    }
};

QTEST_GUILESS_MAIN(TestMemoryModel)
#include "tst_memorymodel.moc"
