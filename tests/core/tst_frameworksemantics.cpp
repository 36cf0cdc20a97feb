// SPDX-License-Identifier: GPL-3.0-or-later
// Framework semantics behind the same setting name (data/frameworks.json): what "selective" recompute keeps and
// recomputes in TorchTitan vs Megatron, and which GELU an eager framework runs. Directions plus one published anchor.
#include "core/memory/activations.h"
#include "core/memory/memorymodel.h"
#include "core/memory/modelstates.h"
#include "core/model/frameworkrules.h"
#include "core/model/gpucatalog.h"
#include "core/perf/steptime.h"

#include <QTest>

#include <cmath>
#include <set>

using namespace clusterplanner::core;
using namespace clusterplanner::core::perf;

namespace {

constexpr double kBytesPerGiB = 1024.0 * 1024.0 * 1024.0;

/// Llama 3.1 8B with FSDP on 8 H100 (96 GB), local batch 2 at 8,192 tokens: TorchTitan docs/performance.md Table 1,
/// measured in 2024 with the model compiled and the loss eager.
Scenario torchtitan8b(Recompute recompute)
{
    Scenario s;
    s.model = ModelConfig {}; // the default model is Llama 3 8B (same shape as 3.1)
    s.cluster.gpuId = "H100-SXM-96GB"; // Meta's Grand Teton part
    s.cluster.gpuCount = 8;
    s.training.framework = Framework::TorchTitan;
    s.training.precision = Precision::AmpBf16;
    s.training.recompute = recompute;
    s.training.zeroStage = 3;
    s.training.distributedOptimizer = false;
    s.training.microBatch = 2;
    s.training.globalBatch = 16;
    s.training.layout = ParallelLayout {8, 1, 1, 1, 1, 1, false};
    s.training.compileLoss = false;
    return s;
}

MemoryEstimate memoryOf(const Scenario& s)
{
    return evaluateMemory(makeMemoryContext(s.model, GpuCatalog::builtin().find(s.cluster.gpuId)), s.training);
}

StepTimeResult timeOf(const Scenario& s)
{
    const GpuSpec& gpu = *GpuCatalog::builtin().find(s.cluster.gpuId);
    return estimateStepTime(s, gpu, EfficiencyTable::builtin().forGpu(gpu.id));
}

} // namespace

class TestFrameworkSemantics : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void builtinSemantics()
    {
        QVERIFY(frameworkCapabilities(Framework::TorchTitan).selectiveIsOpLevel);
        QVERIFY(!frameworkCapabilities(Framework::Megatron).selectiveIsOpLevel);
        QVERIFY(frameworkCapabilities(Framework::HuggingFace).pythonGelu);
        QVERIFY(!frameworkCapabilities(Framework::Fsdp).pythonGelu);
        QVERIFY(frameworkCapabilities(Framework::TorchTitan).keepsGatheredParamsWithPipeline);
    }

    void opLevelCheckpointKeepsHandCountedTensors()
    {
        // Eager, per token and layer: input + down-projection output (2·2h) replicated; q (2h), v (2·hKv), the first
        // MLP projection (2f), attention output (2h) and the fp32 log-sum-exp (4 per head) split over TP.
        Scenario s = torchtitan8b(Recompute::Selective);
        s.training.compile = false;
        const MemoryContext ctx = makeMemoryContext(s.model, GpuCatalog::builtin().find(s.cluster.gpuId));
        const double tokens = 2 * 8192;
        const double perToken = 4 * 4096 + 2 * (2 * 4096 + 1024 + 14336) + 4 * 32;
        QCOMPARE(opLevelCheckpointBytes(ctx, s.training, false), tokens * perToken);
        // Between full recompute (the input only) and no checkpointing at all.
        QVERIFY(opLevelCheckpointBytes(ctx, s.training, false) > layerInputBytes(ctx, s.training));
        QVERIFY(opLevelCheckpointBytes(ctx, s.training, false) < layerActivationBytes(ctx, s.training, false) / 2);
    }

    void compiledBlockKeepsOnlyWhatItsBackwardReads()
    {
        // A compiled block's partitioner saves no output the backward does not read: the down projection's output
        // (2h per token) only feeds the residual add (docs/methods-memory.md §3.24). Eager checkpointing stores it.
        Scenario eager = torchtitan8b(Recompute::Selective);
        eager.training.compile = false;
        Scenario compiled = eager;
        compiled.training.compile = true;
        const MemoryContext ctx = makeMemoryContext(eager.model, GpuCatalog::builtin().find(eager.cluster.gpuId));
        const double tokens = 2 * 8192;
        QCOMPARE(
            opLevelCheckpointBytes(ctx, eager.training, false) - opLevelCheckpointBytes(ctx, compiled.training, false),
            tokens * 2 * 4096);
        // A MoE layer's expert outputs may feed a weighted combine: kept either way.
        QCOMPARE(
            opLevelCheckpointBytes(ctx, compiled.training, true), opLevelCheckpointBytes(ctx, eager.training, true));
        // Megatron's kernels are fused by hand and its selective recompute is not op-level: compile changes nothing.
        Scenario megatron = eager;
        megatron.training.framework = Framework::Megatron;
        Scenario megatronCompiled = megatron;
        megatronCompiled.training.compile = true;
        QCOMPARE(memoryOf(megatronCompiled).peakReservedBytes, memoryOf(megatron).peakReservedBytes);
    }

    void torchtitanSelectiveMemoryAnchor()
    {
        // Published (TorchTitan docs/performance.md Table 1, reserved): 82.4 GiB eager, 77.0 GiB with torch.compile.
        // Op-level checkpointing must land within 5 % of each; Megatron's meaning of selective (attention core only)
        // would keep every other tensor (about twice that).
        Scenario eagerRun = torchtitan8b(Recompute::Selective);
        eagerRun.training.compile = false;
        const MemoryEstimate eager = memoryOf(eagerRun);
        const MemoryEstimate compiled = memoryOf(torchtitan8b(Recompute::Selective));
        QVERIFY2(std::abs(eager.peakReservedBytes / kBytesPerGiB / 82.4 - 1) < 0.05,
            qPrintable(QString::number(eager.peakReservedBytes / kBytesPerGiB)));
        QVERIFY2(std::abs(compiled.peakReservedBytes / kBytesPerGiB / 77.0 - 1) < 0.05,
            qPrintable(QString::number(compiled.peakReservedBytes / kBytesPerGiB)));
        const MemoryEstimate none = memoryOf(torchtitan8b(Recompute::None));
        QVERIFY(none.peakReservedBytes > 1.5 * compiled.peakReservedBytes);
        const MemoryEstimate full = memoryOf(torchtitan8b(Recompute::Full));
        QVERIFY(full.peakReservedBytes < compiled.peakReservedBytes);
    }

    void freedGradientShardsStayReservedOnTheReduceStream()
    {
        // FSDP allocates each reduce-scatter output (the sharded fp32 gradients) on its own stream; zero_grad frees
        // them into that stream's pool, which the forward's allocations cannot reuse (docs/methods-memory.md §3.23).
        // One micro-batch per step: no gradient is allocated at the backward's start, all of them are still reserved.
        const Scenario s = torchtitan8b(Recompute::Selective);
        const MemoryEstimate e = memoryOf(s);
        QCOMPARE(e.first.peak.gradientsBytes, 0.0);
        const MemoryContext ctx = makeMemoryContext(s.model, GpuCatalog::builtin().find(s.cluster.gpuId));
        const double shardBytes = 4.0 * ctx.params.total / 8; // fp32 gradients (reduce_dtype), FSDP over 8 GPUs
        QVERIFY2(std::abs(e.first.cachedGradientBytes / shardBytes - 1) < 1e-9,
            qPrintable(QString::number(e.first.cachedGradientBytes / kBytesPerGiB)));
        QVERIFY(e.first.reservedBytes > e.first.peak.totalBytes() + e.first.cachedGradientBytes);
        // Accumulating over micro-batches, the gradients are allocated at the peak: nothing more is reserved for them.
        Scenario accumulating = s;
        accumulating.training.globalBatch = 32;
        const MemoryEstimate a = memoryOf(accumulating);
        QVERIFY(a.first.peak.gradientsBytes > 0);
        QCOMPARE(a.first.cachedGradientBytes, 0.0);
        // Without sharding (DDP's bucketed gradients) and in frameworks that keep a persistent gradient buffer on
        // the compute stream (Megatron-Core), none.
        Scenario ddp = s;
        ddp.training.zeroStage = 0;
        QCOMPARE(memoryOf(ddp).first.cachedGradientBytes, 0.0);
        Scenario megatron = s;
        megatron.training.framework = Framework::Megatron;
        megatron.training.zeroStage = 1;
        megatron.training.distributedOptimizer = true;
        QCOMPARE(memoryOf(megatron).first.cachedGradientBytes, 0.0);
    }

    void opLevelRecomputeCostsMoreThanAttentionOnly()
    {
        Scenario titan = torchtitan8b(Recompute::Selective);
        Scenario megatron = titan;
        megatron.training.framework = Framework::Megatron;
        megatron.training.zeroStage = 1;
        megatron.training.distributedOptimizer = true;
        const StepTimeResult op = timeOf(titan), attention = timeOf(megatron);
        QVERIFY(op.valid && attention.valid);
        // Half the matmuls plus every memory-bound op are run again, versus the attention core alone ...
        QVERIFY(op.recomputeS > 2 * attention.recomputeS);
        // ... but less than the whole forward that full recompute repeats.
        const StepTimeResult full = timeOf(torchtitan8b(Recompute::Full));
        QVERIFY(op.recomputeS < full.recomputeS);
        QVERIFY(op.recomputeS > 0.3 * full.recomputeS);
    }

    void nonReentrantCheckpointStopsEarly()
    {
        // PyTorch's non-reentrant checkpoint (TorchTitan, FSDP's checkpoint_wrapper) stops recomputing once the last
        // saved tensors, the down projection's inputs, are packed again; the reentrant ones rerun the whole layer.
        TrainingConfig t = torchtitan8b(Recompute::Full).training;
        QVERIFY(recomputeStopsEarly(t, frameworkCapabilities(Framework::TorchTitan)));
        QVERIFY(recomputeStopsEarly(t, frameworkCapabilities(Framework::Fsdp)));
        QVERIFY(recomputeStopsEarly(t, frameworkCapabilities(Framework::HuggingFace))); // transformers since 2026-01
        for (Framework f : {Framework::Megatron, Framework::NeMo, Framework::DeepSpeed})
            QVERIFY(!recomputeStopsEarly(t, frameworkCapabilities(f)));
        // A PyTorch before 2.1, whose non-reentrant checkpoint reran the whole layer (a published run's reading).
        TrainingConfig older = t;
        older.checkpointEarlyStop = false;
        QVERIFY(!recomputeStopsEarly(older, frameworkCapabilities(Framework::TorchTitan)));
        // FP8 linear layers are autograd Functions, which pack their inputs after computing: only a compiled block
        // leaves the matmul out.
        t.precision = Precision::Fp8;
        QVERIFY(recomputeStopsEarly(t, frameworkCapabilities(Framework::TorchTitan)));
        QVERIFY(!recomputeStopsEarly(t, frameworkCapabilities(Framework::Fsdp)));
        t.compile = false;
        QVERIFY(!recomputeStopsEarly(t, frameworkCapabilities(Framework::TorchTitan)));
        t.recompute = Recompute::Selective;
        t.precision = Precision::AmpBf16;
        QVERIFY(!recomputeStopsEarly(t, frameworkCapabilities(Framework::TorchTitan)));
    }

    void earlyStopSkipsTheDownProjectionAndItsCollective()
    {
        // FP8 compiled (stops early) against FP8 eager (reruns the layer): the forward that is not run again grows by
        // the down projection, a quarter of Llama 3 8B's layer matmuls (4096 x 14336 of 4096 x 58,368 weights).
        Scenario compiled = torchtitan8b(Recompute::Full);
        compiled.training.precision = Precision::Fp8;
        Scenario eager = compiled;
        eager.training.compile = false;
        const StepTimeResult stop = timeOf(compiled), rerun = timeOf(eager);
        QVERIFY(stop.valid && rerun.valid);
        const double stopGap = 1 - stop.recomputeS / stop.computeForwardS;
        const double rerunGap = 1 - rerun.recomputeS / rerun.computeForwardS; // the embedding, head and loss only
        QVERIFY2(stopGap - rerunGap > 0.12 && stopGap - rerunGap < 0.35,
            qPrintable(QString("%1 vs %2").arg(stopGap).arg(rerunGap)));
        // With TP and sequence parallelism, the reduce-scatter after the down projection is not run again either:
        // the recompute runs one and a half of the two all-gather/reduce-scatter pairs (four pairs' worth without
        // recompute, 5.5 with it); without sequence parallelism it skips the whole all-reduce (5 of 6).
        Scenario tp = torchtitan8b(Recompute::Full);
        tp.training.layout = ParallelLayout {4, 2, 1, 1, 1, 1, true};
        const auto ratio = [](Scenario full) {
            Scenario none = full;
            none.training.recompute = Recompute::None;
            const StepTimeResult withRecompute = timeOf(full), plain = timeOf(none);
            return withRecompute.valid && plain.valid && plain.tpTotalS > 0 ? withRecompute.tpTotalS / plain.tpTotalS
                                                                            : -1.0;
        };
        QCOMPARE(ratio(tp), 5.5 / 4.0);
        Scenario noSp = tp;
        noSp.training.layout.sequenceParallel = false;
        QCOMPARE(ratio(noSp), 5.0 / 4.0);
        // A MoE layer ends in the combine, which saves the routing after the expert GEMMs ran: nothing is skipped.
        Scenario moe = tp;
        moe.model.moe = MoeConfig {};
        QCOMPARE(ratio(moe), 6.0 / 4.0);
    }

    void compileFusesOnlyWhereTheFrameworkSaysSo()
    {
        QVERIFY(frameworkCapabilities(Framework::TorchTitan).compileFuses);
        QVERIFY(!frameworkCapabilities(Framework::Megatron).compileFuses);
        Scenario compiled = torchtitan8b(Recompute::Selective);
        Scenario eager = compiled;
        eager.training.compile = false;
        const StepTimeResult fused = timeOf(compiled), unfused = timeOf(eager);
        QVERIFY(fused.valid && unfused.valid);
        // Published (Table 1): 6,667 tokens/s per GPU compiled vs 5,762 eager, 16 % faster. The eager path must be
        // slower by a comparable margin (between 5 % and 40 %), not identical and not a different regime.
        const double speedup = fused.tokensPerSPerGpu / unfused.tokensPerSPerGpu;
        QVERIFY2(speedup > 1.05 && speedup < 1.40, qPrintable(QString::number(speedup)));
        // Megatron's kernels are fused by hand: the setting changes nothing there.
        Scenario megatron = compiled;
        megatron.training.framework = Framework::Megatron;
        megatron.training.zeroStage = 1;
        megatron.training.distributedOptimizer = true;
        Scenario megatronEager = megatron;
        megatronEager.training.compile = false;
        QCOMPARE(timeOf(megatronEager).stepTimeS, timeOf(megatron).stepTimeS);
    }

    /// In a published run, "flash" and "sdpa" name the kernel its framework called then (docs/methods-time.md
    /// §4.27): FlashAttention-2 in TorchTitan's and DeepSpeed's Hopper runs, cuDNN's fused attention under
    /// Transformer Engine and PyTorch 2.11's SDPA; elsewhere, and for a stated "flash2" or "math", the name.
    /// llm-foundry's "flash" was its default attn_impl then, a FlashAttention in Triton, on A100 and H100 (§4.52);
    /// its "sdpa" is FlashAttention-2 on Hopper.
    void publishedRunsNameTheirKernelGeneration()
    {
        for (const AttentionKind named : {AttentionKind::Flash, AttentionKind::Sdpa}) {
            for (const Framework fa2 : {Framework::TorchTitan, Framework::DeepSpeed}) {
                QCOMPARE(frameworkCapabilities(fa2).publishedRunAttention(named, "Hopper"), AttentionKind::Flash2);
                QCOMPARE(frameworkCapabilities(fa2).publishedRunAttention(named, "Ampere"), named);
            }
            for (const Framework fused : {Framework::Megatron, Framework::NeMo, Framework::HuggingFace})
                QCOMPARE(frameworkCapabilities(fused).publishedRunAttention(named, "Hopper"), named);
        }
        const auto& foundry = frameworkCapabilities(Framework::Fsdp);
        for (const char* generation : {"Ampere", "Hopper"})
            QCOMPARE(foundry.publishedRunAttention(AttentionKind::Flash, generation), AttentionKind::Triton);
        QCOMPARE(foundry.publishedRunAttention(AttentionKind::Sdpa, "Hopper"), AttentionKind::Flash2);
        QCOMPARE(foundry.publishedRunAttention(AttentionKind::Sdpa, "Ampere"), AttentionKind::Sdpa);
        QCOMPARE(foundry.publishedRunAttention(AttentionKind::Flash, "Blackwell"), AttentionKind::Flash);
        const auto& titan = frameworkCapabilities(Framework::TorchTitan);
        QCOMPARE(titan.publishedRunAttention(AttentionKind::Math, "Hopper"), AttentionKind::Math);
        QCOMPARE(titan.publishedRunAttention(AttentionKind::Flash, "Blackwell"), AttentionKind::Flash);
        // A scenario's names are today's kernels: the time model takes them as they are.
        Scenario sdpa = torchtitan8b(Recompute::Selective);
        sdpa.training.attention = AttentionKind::Sdpa;
        Scenario flash2 = sdpa;
        flash2.training.attention = AttentionKind::Flash2;
        QVERIFY(timeOf(sdpa).stepTimeS < timeOf(flash2).stepTimeS);
    }

    /// Every generation frameworks.json names is a GPU family of data/efficiency.json: a misspelt one would be
    /// ignored without a word.
    void frameworkGenerationsAreGpuFamilies()
    {
        std::set<std::string> families;
        for (const auto& gpu : GpuCatalog::builtin().gpus())
            families.insert(EfficiencyTable::builtin().forGpu(gpu.id).family);
        for (const Framework framework : {Framework::Megatron, Framework::NeMo, Framework::TorchTitan, Framework::Fsdp,
                 Framework::DeepSpeed, Framework::HuggingFace, Framework::Other}) {
            const auto& caps = frameworkCapabilities(framework);
            for (const auto& [generation, kernel] : caps.defaultAttentionByGeneration)
                QVERIFY2(families.count(generation), generation.c_str());
            for (const auto& [generation, names] : caps.flash2InPublishedRuns)
                QVERIFY2(families.count(generation), generation.c_str());
        }
    }

    /// TorchTitan's loss over vocabulary-sharded logits (DTensor loss_parallel) holds three fp32 buffers in its
    /// forward and four in its backward where the fused kernels hold two and three, and its train step drops the
    /// logits before the backward unless a pipeline schedule keeps them (docs/methods-memory.md §3.10).
    void torchtitanLossMemoryFollowsItsCode()
    {
        Scenario s = torchtitan8b(Recompute::Selective);
        const MemoryContext ctx = makeMemoryContext(s.model, GpuCatalog::builtin().find(s.cluster.gpuId));
        TrainingConfig t = s.training;
        t.layout = ParallelLayout {1, 8, 1, 1, 1, 1, true};
        const double entries = 2.0 * 8192 * s.model.vocab / 8; // local batch 2, vocabulary over TP 8
        const LogitsBytes parallel = logitsBytes(ctx, t);
        QCOMPARE(parallel.held, 2 * entries);
        QCOMPARE(parallel.peak, 16 * entries); // the bf16 logits are gone ("del pred")
        QCOMPARE(parallel.forwardPeak, (2 + 4 + 8) * entries); // bf16, fp32 copy, x - max, exp(shifted)
        TrainingConfig pipelined = t;
        pipelined.layout.pp = 2; // the schedule keeps the last stage's output for its backward
        QCOMPARE(logitsBytes(ctx, pipelined).peak, (2 + 16) * entries);
        TrainingConfig plain = t;
        plain.framework = Framework::Fsdp; // eager too, but no DTensor loss parallelism and the logits kept
        const LogitsBytes fused = logitsBytes(ctx, plain);
        QCOMPARE(fused.peak, (2 + 12) * entries);
        QCOMPARE(fused.forwardPeak, (2 + 4 + 4) * entries);
        t.layout = ParallelLayout {8, 1, 1, 1, 1, 1, false}; // no TP: the plain loss, logits dropped
        QCOMPARE(logitsBytes(ctx, t).peak, 12 * 8 * entries);
    }

    /// TorchTitan since 2025-04 compiles the loss with the model: the fused cross-entropy keeps the bf16 logits and
    /// writes one bf16 input gradient, 4 bytes per logit at the loss backward where the eager loss needs 12 (the
    /// logits dropped) (docs/methods-memory.md §3.12). Compile off, or a framework without compiler fusion: eager.
    void compiledLossKeepsLogitsAndTheirGradientOnly()
    {
        Scenario s = torchtitan8b(Recompute::Selective);
        const MemoryContext ctx = makeMemoryContext(s.model, GpuCatalog::builtin().find(s.cluster.gpuId));
        const double entries = 2.0 * 8192 * s.model.vocab; // local batch 2, whole vocabulary
        TrainingConfig t = s.training;
        const LogitsBytes eager = logitsBytes(ctx, t);
        t.compileLoss = true;
        const LogitsBytes compiled = logitsBytes(ctx, t);
        QCOMPARE(compiled.peak, 4 * entries);
        QCOMPARE(compiled.forwardPeak, 2 * entries);
        QCOMPARE(compiled.held, 0.0); // "del pred": the graph's saved logits go with the backward
        QCOMPARE(eager.peak - compiled.peak, 8 * entries);
        // At the loss backward, the peak of this set-up, the whole difference shows (torchao's Llama 3 8B at batch 1:
        // 7.8 GiB; measured on H100 with the eager loss and on MI300X with the compiled one, 47.7 vs 39.1 GiB).
        const double savedBytes = memoryOf(s).peakAllocatedBytes - evaluateMemory(ctx, t).peakAllocatedBytes;
        QVERIFY2(
            std::abs(savedBytes / (8 * entries) - 1) < 1e-9, qPrintable(QString::number(savedBytes / kBytesPerGiB)));
        t.compile = false; // eager PyTorch: the loss is not compiled whatever compileLoss says
        QCOMPARE(logitsBytes(ctx, t).peak, eager.peak);
        t.compile = true;
        t.framework = Framework::Fsdp; // no compiler fusion in the framework's kernels
        QVERIFY(logitsBytes(ctx, t).peak > 4 * entries);
    }

    /// A fused cross-entropy kernel in an eager framework (llm-foundry's default loss, flash-attn's; §3.21 of
    /// docs/methods-memory.md): the logits and their 16-bit gradient only (4 bytes per logit), where the eager loss
    /// holds 12 bytes of fp32 copies beside the logits (14); the caller keeps its logits (no "del pred" in FSDP). The
    /// step moves 8 bytes per logit instead of 20 (docs/methods-time.md §4.53); Megatron's loss is fused already and
    /// does not change.
    void fusedCrossEntropyKeepsLogitsAndTheirGradientOnly()
    {
        Scenario s = torchtitan8b(Recompute::Full);
        s.training.framework = Framework::Fsdp;
        const MemoryContext ctx = makeMemoryContext(s.model, GpuCatalog::builtin().find(s.cluster.gpuId));
        const double entries = 2.0 * 8192 * s.model.vocab;
        TrainingConfig t = s.training;
        const LogitsBytes eager = logitsBytes(ctx, t);
        t.fusedLoss = true;
        const LogitsBytes fused = logitsBytes(ctx, t);
        QCOMPARE(fused.forwardPeak, 2 * entries);
        QCOMPARE(fused.peak, 4 * entries);
        QCOMPARE(fused.held, 2 * entries);
        QCOMPARE(eager.peak - fused.peak, 10 * entries);
        // Not over logits the model upcasts (Hugging Face), nor over DTensor's loss-parallel ones (TorchTitan, TP 2).
        TrainingConfig other = t;
        other.framework = Framework::HuggingFace;
        QVERIFY(!fusedLossApplies(other, frameworkCapabilities(other.framework)));
        other.framework = Framework::TorchTitan;
        other.compile = false;
        QVERIFY(fusedLossApplies(other, frameworkCapabilities(other.framework)));
        other.layout.tp = 2;
        QVERIFY(!fusedLossApplies(other, frameworkCapabilities(other.framework)));

        Scenario withFused = s;
        withFused.training.fusedLoss = true;
        const StepTimeResult plain = timeOf(s), quick = timeOf(withFused);
        QVERIFY(plain.valid && quick.valid);
        // 12 bytes per logit fewer, half in the forward and half in the backward, over the step's micro-batches.
        const GpuSpec& gpu = *GpuCatalog::builtin().find(s.cluster.gpuId);
        const EfficiencyParams& e = EfficiencyTable::builtin().forGpu(gpu.id);
        const double microBatches = double(s.training.globalBatch) / (s.training.layout.dp * s.training.microBatch);
        const double expectedS = microBatches * 12 * entries / (gpu.hbmTBs * 1e12 * e.hbmFraction);
        const double savedS = plain.stepTimeS - quick.stepTimeS;
        QVERIFY2(std::abs(savedS / expectedS - 1) < 1e-6,
            qPrintable(QStringLiteral("saved %1 s, expected %2 s").arg(savedS).arg(expectedS)));

        Scenario megatron = s;
        megatron.training.framework = Framework::Megatron;
        megatron.training.zeroStage = 1;
        Scenario megatronFused = megatron;
        megatronFused.training.fusedLoss = true;
        QCOMPARE(timeOf(megatronFused).stepTimeS, timeOf(megatron).stepTimeS);
        QCOMPARE(memoryOf(megatronFused).peakAllocatedBytes, memoryOf(megatron).peakAllocatedBytes);
    }

    /// NeMo's performance recipes and Megatron-Bridge reduce gradients in bf16 (grad_reduce_in_fp32 = False): a 2 B
    /// gradient buffer plus the distributed optimizer's fp32 copy of its shard, where Megatron-LM keeps an fp32 buffer
    /// (its distributed-optimizer table: 18 bytes per parameter, 20 with 16-bit gradients; §4.27).
    void nemoReducesGradientsInBf16()
    {
        TrainingConfig t;
        t.precision = Precision::AmpBf16;
        t.framework = Framework::NeMo;
        const StateBytesPerParam nemo = stateBytesPerParam(t);
        QCOMPARE(nemo.gradients, 2.0);
        QCOMPARE(nemo.weights + nemo.gradients + nemo.optimizer, 20.0);
        t.framework = Framework::Megatron;
        const StateBytesPerParam megatron = stateBytesPerParam(t);
        QCOMPARE(megatron.gradients, 4.0);
        QCOMPARE(megatron.weights + megatron.gradients + megatron.optimizer, 18.0);
        t.precision = Precision::AmpFp16; // fp16 gradients are 16-bit whatever the framework
        QCOMPARE(
            stateBytesPerParam(t).weights + stateBytesPerParam(t).gradients + stateBytesPerParam(t).optimizer, 20.0);
    }

    /// 16-bit optimizer states (docs/methods-memory.md §3.15): bf16 moments and a 16-bit master copy read from 16-bit
    /// gradients, 2 + 2 + 6 bytes per parameter where NeMo's fp32 states take 2 + 2 + 16; the frameworks without them,
    /// and precisions with no fp32 master copy, keep what they had.
    void bf16OptimizerStatesHalveTheMasterAndMoments()
    {
        const auto total = [](const StateBytesPerParam& r) { return r.weights + r.gradients + r.optimizer; };
        TrainingConfig t;
        t.precision = Precision::AmpBf16;
        t.framework = Framework::NeMo;
        t.optimizerStates = OptimizerStates::Bf16;
        QCOMPARE(optimizerStatesInEffect(t, frameworkCapabilities(t.framework)), OptimizerStates::Bf16);
        QCOMPARE(stateBytesPerParam(t).optimizer, 6.0);
        QCOMPARE(total(stateBytesPerParam(t)), 10.0);
        t.framework = Framework::Megatron; // its fp32 gradient buffer goes too: the optimizer reads bf16 gradients
        QCOMPARE(stateBytesPerParam(t).gradients, 2.0);
        QCOMPARE(total(stateBytesPerParam(t)), 10.0);
        t.precision = Precision::Fp8;
        QCOMPARE(total(stateBytesPerParam(t)), 10.0);
        for (Framework f : {Framework::TorchTitan, Framework::Fsdp, Framework::DeepSpeed}) {
            t.framework = f;
            TrainingConfig fp32States = t;
            fp32States.optimizerStates = OptimizerStates::Fp32;
            QCOMPARE(optimizerStatesInEffect(t, frameworkCapabilities(f)), OptimizerStates::Fp32);
            QCOMPARE(total(stateBytesPerParam(t)), total(stateBytesPerParam(fp32States)));
        }
        // What Megatron-Core's precision-aware optimizer refuses or ignores, each named.
        using O = OptimizerStatesObstacle;
        const auto obstacle = [](const TrainingConfig& config) {
            return optimizerStatesObstacle(config, frameworkCapabilities(config.framework));
        };
        t.framework = Framework::Megatron;
        t.precision = Precision::AmpBf16;
        QCOMPARE(obstacle(t), O::None);
        TrainingConfig changed = t;
        changed.optimizer = Optimizer::SgdMomentum;
        QCOMPARE(obstacle(changed), O::NotAdam);
        changed = t;
        changed.zeroStage = 0;
        changed.distributedOptimizer = false;
        QCOMPARE(obstacle(changed), O::NotSharded);
        QCOMPARE(stateBytesPerParam(changed).optimizer, 12.0); // fp32 master and moments, unsharded as asked
        changed = t;
        changed.precision = Precision::AmpFp16; // fp16 weights: Transformer Engine keeps the fp32 master shards
        QCOMPARE(obstacle(changed), O::NoBf16Master);
        changed.precision = Precision::Fp8;
        changed.fp8Recipe = Fp8Recipe::Tensorwise;
        QCOMPARE(obstacle(changed), O::NoBf16Master);
        changed.fp8Recipe = Fp8Recipe::Delayed;
        QCOMPARE(obstacle(changed), O::None);
        changed = t;
        changed.precision = Precision::Fp32; // no master copy to narrow
        QCOMPARE(obstacle(changed), O::NoBf16Master);
        changed.framework = Framework::HuggingFace;
        QCOMPARE(obstacle(changed), O::NotOffered);
        changed.framework = Framework::Other; // the one with bf16 states that also has a pure-bf16 mode
        changed.precision = Precision::Bf16;
        QCOMPARE(obstacle(changed), frameworkCapabilities(Framework::Other).pureBf16 ? O::PureBf16 : O::None);

        // The step: the optimizer moves 16 B per parameter instead of 30, and the gradients travel in bf16.
        Scenario fp32 = torchtitan8b(Recompute::None);
        fp32.training.framework = Framework::Megatron;
        fp32.training.zeroStage = 1;
        fp32.training.distributedOptimizer = true;
        fp32.training.microBatch = 1;
        Scenario bf16 = fp32;
        bf16.training.optimizerStates = OptimizerStates::Bf16;
        QVERIFY(std::abs(timeOf(bf16).optimizerS / timeOf(fp32).optimizerS - 16.0 / 30.0) < 1e-9);
        QVERIFY(timeOf(bf16).dpTotalS < timeOf(fp32).dpTotalS);
    }

    /// "bf16" in Megatron-LM, NeMo, TorchTitan, PyTorch FSDP / Composer and DeepSpeed keeps fp32 master weights and
    /// optimizer states; only a Hugging Face model loaded in bf16 trains pure bf16 (docs/methods-memory.md §3.13).
    void bf16IsMixedPrecisionWhereTheFrameworkHasNoPureMode()
    {
        const auto total = [](const StateBytesPerParam& r) { return r.weights + r.gradients + r.optimizer; };
        TrainingConfig t;
        t.precision = Precision::Bf16;
        for (Framework f :
            {Framework::Megatron, Framework::NeMo, Framework::TorchTitan, Framework::Fsdp, Framework::DeepSpeed}) {
            t.framework = f;
            QCOMPARE(precisionInEffect(t, frameworkCapabilities(f)), Precision::AmpBf16);
            TrainingConfig mixed = t;
            mixed.precision = Precision::AmpBf16;
            QCOMPARE(total(stateBytesPerParam(t)), total(stateBytesPerParam(mixed)));
            QVERIFY(total(stateBytesPerParam(t)) >= 16.0); // fp32 master weights and two fp32 Adam moments
        }
        t.framework = Framework::HuggingFace;
        QCOMPARE(precisionInEffect(t, frameworkCapabilities(t.framework)), Precision::Bf16);
        QCOMPARE(total(stateBytesPerParam(t)), 8.0); // bf16 weights, gradients and two moments
        // The step time follows: FSDP's bf16 runs the fp32 optimizer step of mixed precision.
        Scenario s = torchtitan8b(Recompute::Full);
        s.training.framework = Framework::Fsdp;
        s.training.precision = Precision::Bf16;
        Scenario mixed = s;
        mixed.training.precision = Precision::AmpBf16;
        QCOMPARE(timeOf(s).optimizerS, timeOf(mixed).optimizerS);
        QCOMPARE(timeOf(s).stepTimeS, timeOf(mixed).stepTimeS);
    }

    void asyncTpHidesTensorParallelTraffic()
    {
        // Llama 3.1 70B, FSDP 32 × TP 8 on 256 GPUs (TorchTitan docs/performance.md Table 4: 829 → 876 tokens/s
        // per GPU, +5.7 %, with async TP).
        Scenario s = torchtitan8b(Recompute::Full);
        s.model.layers = 80;
        s.model.hidden = 8192;
        s.model.heads = 64;
        s.model.ffnHidden = 28672;
        s.cluster.gpuCount = 256;
        s.training.microBatch = 16;
        s.training.globalBatch = 512;
        s.training.layout = ParallelLayout {32, 8, 1, 1, 1, 1, true};
        Scenario async = s;
        async.training.asyncTp = true;
        const StepTimeResult plain = timeOf(s), overlapped = timeOf(async);
        QVERIFY(plain.valid && overlapped.valid);
        QVERIFY(overlapped.tpExposedS < plain.tpExposedS);
        QCOMPARE(overlapped.tpTotalS, plain.tpTotalS); // the same bytes move
        const double speedup = overlapped.tokensPerSPerGpu / plain.tokensPerSPerGpu;
        QVERIFY2(speedup > 1.01 && speedup < 1.25, qPrintable(QString::number(speedup)));
        // A parallel block's one collective per pass has all of the forward's GEMMs to hide behind, where each of the
        // sequential block's two has half (docs/methods-time.md §4.50): async TP hides more of each forward collective.
        // Per layer, with full recompute, the sequential block has 4 forward collectives (forward and recomputed
        // forward), the parallel block 2; the backward's exposure does not depend on async TP.
        Scenario parallel = async;
        parallel.model.parallelBlock = true;
        parallel.model.hidden = 1024; // small GEMMs, whose time the collectives' chunks outlast
        parallel.model.heads = parallel.model.kvHeads = 8;
        parallel.model.ffnHidden = 4096;
        parallel.training.microBatch = 1;
        Scenario sequential = parallel;
        sequential.model.parallelBlock = false;
        const auto hiddenByAsync = [&](Scenario x, double forwardCollectives) {
            const double on = timeOf(x).tpExposedS;
            x.training.asyncTp = false;
            return (timeOf(x).tpExposedS - on) / forwardCollectives;
        };
        const double perParallel = hiddenByAsync(parallel, 2), perSequential = hiddenByAsync(sequential, 4);
        QVERIFY2(perSequential > 0 && perParallel > 1.05 * perSequential,
            qPrintable(QStringLiteral("%1 %2").arg(perParallel).arg(perSequential)));
        // Not offered: without sequence parallelism, without torch.compile in TorchTitan, or in DeepSpeed.
        Scenario noSp = async;
        noSp.training.layout.sequenceParallel = false;
        Scenario unsp = s;
        unsp.training.layout.sequenceParallel = false;
        QCOMPARE(timeOf(noSp).stepTimeS, timeOf(unsp).stepTimeS);
        Scenario eager = async, eagerPlain = s;
        eager.training.compile = eagerPlain.training.compile = false;
        QCOMPARE(timeOf(eager).stepTimeS, timeOf(eagerPlain).stepTimeS);
        QVERIFY(!frameworkCapabilities(Framework::DeepSpeed).asyncTp);
    }

    /// Which FP8 recipe runs is the framework's: TorchTitan's torchao defaults to tensorwise and offers rowwise;
    /// Megatron's Transformer Engine defaults to delayed scaling and has no rowwise recipe (docs/methods-time.md
    /// §4.16).
    void fp8RecipeFollowsTheFramework()
    {
        Scenario titan = torchtitan8b(Recompute::None);
        titan.training.precision = Precision::Fp8;
        const auto& titanCaps = frameworkCapabilities(Framework::TorchTitan);
        QCOMPARE(fp8RecipeInEffect(titan.training, titanCaps), Fp8Recipe::Tensorwise);
        titan.training.fp8Recipe = Fp8Recipe::Rowwise;
        QCOMPARE(fp8RecipeInEffect(titan.training, titanCaps), Fp8Recipe::Rowwise);
        titan.training.fp8Recipe = Fp8Recipe::Delayed; // not a torchao recipe: the default runs
        QCOMPARE(fp8RecipeInEffect(titan.training, titanCaps), Fp8Recipe::Tensorwise);
        const auto& megatronCaps = frameworkCapabilities(Framework::Megatron);
        QCOMPARE(fp8RecipeInEffect(titan.training, megatronCaps), Fp8Recipe::Delayed);
        titan.training.fp8Recipe = Fp8Recipe::Rowwise;
        QCOMPARE(fp8RecipeInEffect(titan.training, megatronCaps), Fp8Recipe::Delayed);

        // The step: rowwise moves more bytes than tensorwise, and an unoffered recipe costs what the default costs.
        Scenario tensorwise = torchtitan8b(Recompute::None), rowwise = tensorwise, unoffered = tensorwise;
        tensorwise.training.precision = rowwise.training.precision = unoffered.training.precision = Precision::Fp8;
        tensorwise.training.fp8Recipe = Fp8Recipe::Tensorwise;
        rowwise.training.fp8Recipe = Fp8Recipe::Rowwise;
        unoffered.training.fp8Recipe = Fp8Recipe::Delayed;
        QVERIFY(timeOf(rowwise).stepTimeS > timeOf(tensorwise).stepTimeS);
        QCOMPARE(timeOf(unoffered).stepTimeS, timeOf(tensorwise).stepTimeS);
    }

    /// Transformer Engine (Megatron's fused path) saves FP8 copies of the GEMM inputs for the backward; TorchTitan's
    /// torchao saves the bf16 inputs and casts again (its README: Llama3-8B 47.65 GB bf16, 47.77 GB tensorwise).
    void fp8SavedActivationsFollowTheRecipe()
    {
        Scenario bf16 = torchtitan8b(Recompute::None), fp8 = bf16;
        fp8.training.precision = Precision::Fp8;
        const double titanBf16 = memoryOf(bf16).peakStageMemory().peak.activationsBytes;
        const double titanFp8 = memoryOf(fp8).peakStageMemory().peak.activationsBytes;
        QCOMPARE(titanFp8, titanBf16);
        Scenario megatron = fp8;
        megatron.training.framework = Framework::Megatron;
        Scenario megatronBf16 = megatron;
        megatronBf16.training.precision = Precision::AmpBf16;
        QVERIFY(memoryOf(megatron).peakStageMemory().peak.activationsBytes
            < memoryOf(megatronBf16).peakStageMemory().peak.activationsBytes);
    }

    void fsdpInsidePipelineAccumulatesUnshardedGradientsInFp32()
    {
        // TorchTitan keeps the stage's parameters gathered with PP, and FSDP2 accumulates every micro-batch's
        // unsharded gradient in its reduce dtype (fp32) until the last one: 2 + 4 bytes per stage parameter, plus
        // the 16-bit gradient of the unit in flight. Without PP only the working units are gathered.
        Scenario s = torchtitan8b(Recompute::Full);
        s.cluster.gpuCount = 64;
        s.training.layout = ParallelLayout {4, 2, 8, 1, 1, 1, true};
        s.training.globalBatch = 64;
        s.training.microBatch = 1;
        const MemoryContext ctx = makeMemoryContext(s.model, GpuCatalog::builtin().find(s.cluster.gpuId));
        const StageParams stage = stageParams(ctx, s.training.layout, 0);
        const double unit = ctx.largestUnitParams / 2;
        QCOMPARE(modelStateBytes(ctx, s.training, stage).shardBuffers, 6 * stage.total + 2 * unit);
        // TorchTitan has no pure bf16: its bf16 keeps fp32 parameters, so the accumulator stays fp32 (§3.13).
        Scenario pure = s;
        pure.training.precision = Precision::Bf16;
        QCOMPARE(modelStateBytes(ctx, pure.training, stage).shardBuffers, 6 * stage.total + 2 * unit);
        Scenario megatron = s;
        megatron.training.framework = Framework::Megatron;
        // Two gathered 16-bit units and one unit of fp32 main gradients, whatever the stage holds.
        QCOMPARE(modelStateBytes(ctx, megatron.training, stage).shardBuffers, 8 * unit);
    }

    void unknownChoiceIsNamed()
    {
        const std::string doc = R"({"frameworks": [{"id": "other", "schedules": ["1f1b"], "recompute": ["none"],
            "sequence_parallel": true, "distributed_optimizer": false, "max_pipeline_stages": 0,
            "default_attention": "flash", "zero3_gathers_on_recompute": false, "zero_stages": [0],
            "max_zero_stage_with_pipeline": 3, "grad_reduce_fp32": true, "fused_kernels": true, "autocast": false,
            "async_p2p": true, "zero3_overlap": null, "zero3_hierarchy": null, "gelu": "erf"}]})";
        try {
            parseFrameworkCapabilities(doc);
            QFAIL("an unknown gelu choice must be refused");
        } catch (const std::runtime_error& error) {
            QVERIFY(std::string(error.what()).find("frameworks[other].gelu") != std::string::npos);
        }
    }
};

QTEST_APPLESS_MAIN(TestFrameworkSemantics)
#include "tst_frameworksemantics.moc"
