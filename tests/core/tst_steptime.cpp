// SPDX-License-Identifier: GPL-3.0-or-later
// Step time of whole layouts: the seeds' GPT-3 case, cost and energy arithmetic, bookkeeping, monotonicity.
#include "core/memory/memorymodel.h"
#include "core/model/frameworkrules.h"
#include "core/model/modelmath.h"
#include "steptimetesthelpers.h"

#include <QTest>

#include <cmath>

using namespace clusterplanner::core;
using namespace clusterplanner::core::perf;
using namespace clusterplanner::core::steptimetest;

namespace {

/// A small Llama-style model trained eagerly (Hugging Face) on one H100, pure bf16, no gradient accumulation.
Scenario eagerLlamaCase(Recompute recompute)
{
    Scenario s;
    s.model
        = ModelConfig {"tiny", 4, 256, 4, 1, 704, 1000, 128, MlpKind::SwiGlu, NormKind::RmsNorm, false, std::nullopt};
    s.cluster.gpuId = "H100-SXM-80GB";
    s.cluster.gpuCount = 1;
    s.training.globalBatch = 1;
    s.training.microBatch = 1;
    s.training.precision = Precision::Bf16;
    s.training.zeroStage = 0;
    s.training.attention = AttentionKind::Sdpa;
    s.training.framework = Framework::HuggingFace;
    s.training.recompute = recompute;
    s.training.layout = ParallelLayout {1, 1, 1, 1, 1, 1, false};
    return s;
}

double eagerStepS(Recompute recompute, const EfficiencyParams& e)
{
    const Scenario s = eagerLlamaCase(recompute);
    return estimateStepTime(s, *GpuCatalog::builtin().find(s.cluster.gpuId), e).stepTimeS;
}

} // namespace

class TestStepTime : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void rankOrderDecidesWhichGroupStaysInsideANode()
    {
        // TP 4 on 8-GPU nodes leaves two ranks per node for the next group: a DP pair (tp-cp-ep-dp-pp) or both
        // pipeline stages (tp-cp-ep-pp-dp). The group kept inside the node communicates faster.
        Scenario s = defaultScenario();
        s.training.layout = ParallelLayout {32, 4, 2, 1, 1, 1, true};
        s.training.schedule = PipelineSchedule::OneFOneB;
        const auto dpInside = estimate(s);
        s.training.layout.rankOrder = RankOrdering::TpCpEpPpDp;
        const auto ppInside = estimate(s);
        QVERIFY(dpInside.valid && ppInside.valid);
        QVERIFY(dpInside.dpTotalS < ppInside.dpTotalS);
        QVERIFY(ppInside.ppTotalS < dpInside.ppTotalS);
    }

    void parallelBlockHalvesTheTensorParallelCollectives()
    {
        for (const Recompute recompute : {Recompute::Selective, Recompute::Full}) {
            Scenario sequential = gpt3Case(); // TP 8
            sequential.training.recompute = recompute;
            Scenario parallel = sequential;
            parallel.model.parallelBlock = true;
            const auto a = estimate(sequential), b = estimate(parallel);
            QVERIFY(a.valid && b.valid && a.tpTotalS > 0);
            QCOMPARE(b.tpTotalS / a.tpTotalS, 0.5);
            QVERIFY(b.tpExposedS < a.tpExposedS);
            QVERIFY(b.stepTimeS < a.stepTimeS);
            QCOMPARE(b.mfu / a.mfu, b.tokensPerSPerGpu / a.tokensPerSPerGpu); // the same FLOPs per token
        }
    }

    void seedGpt3Case()
    {
        const auto r = estimate(gpt3Case());
        QVERIFY2(r.valid, r.error);
        qInfo("GPT-3 DP16xTP8xPP8, 1,024 A100: step %.2f s, %.0f tokens/s, MFU %.3f, HFU %.3f; 300e9 tokens in "
              "%.1f days (%.0f GPU-h, $%.0f at $1/GPU-h, %.0f kWh)",
            r.stepTimeS, r.tokensPerS, r.mfu, r.hfu, r.trainingTimeS / 86400, r.gpuHours, r.costUsd, r.energyKwh);
        QVERIFY(r.mfu > 0.3 && r.mfu < 0.6);
        QVERIFY(r.hfu > r.mfu);
        // Issue 4 acceptance: the layout fits in 80 GB (memory model, reserved peak incl. workspace).
        const Scenario s = gpt3Case();
        const MemoryEstimate memory
            = evaluateMemory(makeMemoryContext(s.model, GpuCatalog::builtin().find(s.cluster.gpuId)), s.training);
        QVERIFY2(memory.fits, qPrintable(QString::number(memory.peakReservedBytes / kGiB)));
        QVERIFY(memory.peakReservedBytes < 80e9);
        // 300 B tokens at the model's rate: time = tokens / (tokens/s), MFU = tokens/s/GPU × 6N' / 312 TFLOP/s.
        QVERIFY(std::abs(r.trainingTimeS - 300e9 / r.tokensPerS) < 1e-9 * r.trainingTimeS);
        QVERIFY(std::abs(r.mfu - r.tokensPerSPerGpu * modelFlopsPerToken(s.model) / 312e12) < 1e-9);
        QCOMPARE(r.microBatches, 96);
        // The seed's 240 h would need 1.26 M tokens/s (414 % MFU, docs/methods-cost.md §8); a real run takes weeks.
        QVERIFY(r.trainingTimeS / 3600 > 240 && r.trainingTimeS / 86400 < 60);
        QVERIFY(std::abs(r.gpuHours - 1024 * r.trainingTimeS / 3600) < 1e-6 * r.gpuHours);
        QVERIFY(std::abs(r.costUsd - r.gpuHours) < 1e-6 * r.costUsd);
    }

    void seedCostAndEnergyArithmetic()
    {
        // docs/methods-test-values.md §11 item 30: 1,024 GPUs × 240 h × $1 = $245,760; × 0.4 kW = 98,304 kWh; ×
        // PUE 1.58.
        QCOMPARE(runCostUsd(1024, 240, 1.0), 245'760.0);
        QCOMPARE(runEnergyKwh(1024, 240, 400, 1.0), 98'304.0);
        QVERIFY(std::abs(runEnergyKwh(1024, 240, 400, 1.58) - 155'320.32) < 1e-6);
    }

    void breakdownAddsUpToTheStep()
    {
        Scenario s = gpt3Case();
        for (auto rc : {Recompute::None, Recompute::Selective, Recompute::Full}) {
            s.training.recompute = rc;
            const auto r = estimate(s);
            const double sum = r.computeForwardS + r.computeBackwardS + r.recomputeS + r.tpExposedS + r.cpExposedS
                + r.epExposedS + r.ppExposedS + r.bubbleS + r.dpExposedS + r.optimizerS + r.overheadS
                + r.overlapSlowdownS;
            QVERIFY2(std::abs(sum - r.stepTimeS) < 1e-9 * r.stepTimeS, qPrintable(QString::number(sum / r.stepTimeS)));
            QVERIFY(r.tpExposedS <= r.tpTotalS && r.dpExposedS <= r.dpTotalS && r.ppExposedS <= r.ppTotalS);
            QVERIFY(r.bubbleS > 0);
        }
        s.training.recompute = Recompute::None;
        const double none = estimate(s).stepTimeS;
        s.training.recompute = Recompute::Full;
        QVERIFY(estimate(s).stepTimeS > none);
    }

    void eagerRecomputeCostsHostTimeWhenHostBound()
    {
        // Host-bound (1 ms per op): checkpointing adds, per layer, the forward's 41 ops issued again plus the
        // bookkeeping; 4 layers x (41 x 1 ms + 10 ms) = 0.204 s.
        EfficiencyParams e;
        e.hostOpS = 1e-3;
        e.recomputeLayerOverheadEagerS = 0.01;
        const double added = eagerStepS(Recompute::Full, e) - eagerStepS(Recompute::None, e);
        QVERIFY2(std::abs(added - 0.204) < 1e-9, qPrintable(QString::number(added)));
    }

    void eagerRecomputeHidesHostWorkWhenGpuBound()
    {
        // Negligible host time: the bookkeeping runs while the GPU works, so full recompute adds exactly the GPU
        // time of the forward run again.
        EfficiencyParams e;
        e.hostOpS = 1e-12;
        e.recomputeLayerOverheadEagerS = 1e-9;
        const Scenario s = eagerLlamaCase(Recompute::Full);
        const auto full = estimateStepTime(s, *GpuCatalog::builtin().find(s.cluster.gpuId), e);
        const double added = full.stepTimeS - eagerStepS(Recompute::None, e);
        QVERIFY2(std::abs(added - full.recomputeS) < 1e-12, qPrintable(QString::number(added / full.recomputeS)));
        QVERIFY(full.recomputeS > 0);
    }

    void fusedFrameworksIgnoreEagerHostTime()
    {
        EfficiencyParams e;
        Scenario s = eagerLlamaCase(Recompute::Full);
        s.training.framework = Framework::Megatron;
        const GpuSpec& gpu = *GpuCatalog::builtin().find(s.cluster.gpuId);
        const double before = estimateStepTime(s, gpu, e).stepTimeS;
        e.hostOpS = 1.0;
        e.recomputeLayerOverheadEagerS = 1.0;
        QCOMPARE(estimateStepTime(s, gpu, e).stepTimeS, before);
    }

    void moreDataParallelGpusMoreThroughput()
    {
        Scenario s = gpt3Case();
        double previous = 0;
        for (int dp : {2, 4, 8, 16, 32}) {
            s.cluster.gpuCount = 64 * dp;
            s.training.layout.dp = dp;
            const auto r = estimate(s);
            QVERIFY2(r.valid, r.error);
            QVERIFY(r.tokensPerS > previous);
            previous = r.tokensPerS;
        }
    }

    void slowerLinksAreNotFaster()
    {
        Scenario s = gpt3Case();
        const double base = estimate(s).stepTimeS;
        s.cluster.nicGbps = 100;
        const double slowNic = estimate(s).stepTimeS;
        QVERIFY(slowNic >= base);
        s.cluster.oversubscription = 4;
        QVERIFY(estimate(s).stepTimeS >= slowNic);
        GpuSpec slowNvlink = *GpuCatalog::builtin().find("A100-SXM-80GB");
        slowNvlink.scaleupGBsBidir /= 4;
        const Scenario scenario = gpt3Case(); // the context points into it: it must outlive the context
        const auto context
            = makeStepTimeContext(scenario, slowNvlink, EfficiencyTable::builtin().forGpu("A100-SXM-80GB"));
        QVERIFY(estimateStepTime(context, scenario.training).stepTimeS > base);
    }

    void hybridShardingGathersInsideTheNode()
    {
        // A 13B-class model under ZeRO-3 on 128 H100 (16 nodes of 8): fully sharded, every micro-batch's gathers
        // and reduce-scatters span the 16 nodes; sharded within a node (HSDP, shard degree 8), they stay on NVLink
        // and only the sharded gradients cross the network, all-reduced over the 16 copies (PyTorch FSDP does it
        // in each micro-batch's post-backward hook).
        Scenario s = denseOnH100("13b", 40, 5120, 40, 13824, 128);
        s.training.framework = Framework::Fsdp;
        s.training.zeroStage = 3;
        s.training.distributedOptimizer = false;
        s.training.recompute = Recompute::None;
        s.training.microBatch = 1;
        s.training.globalBatch = 512; // 4 micro-batches per rank: four rounds of gathers under full sharding
        s.training.layout = ParallelLayout {128, 1, 1, 1, 1, 1, false};
        const auto full = estimate(s);
        s.training.layout.dpShard = 8;
        const auto hybrid = estimate(s);
        QVERIFY(full.valid && hybrid.valid);
        QVERIFY2(hybrid.dpTotalS < full.dpTotalS,
            qPrintable(QString("HSDP %1 s vs FSDP %2 s").arg(hybrid.dpTotalS).arg(full.dpTotalS)));
        // The all-reduce over the 16 copies is there: more traffic than the in-node collectives alone.
        s.cluster.gpuCount = 8;
        s.training.layout = ParallelLayout {8, 1, 1, 1, 1, 1, false};
        s.training.globalBatch = 32;
        const auto oneNode = estimate(s);
        QVERIFY(oneNode.valid && hybrid.dpTotalS > oneNode.dpTotalS);
        // A shard degree that does not divide DP is refused with the layout's problems.
        s.cluster.gpuCount = 128;
        s.training.layout = ParallelLayout {128, 1, 1, 1, 1, 1, false};
        s.training.globalBatch = 512;
        s.training.layout.dpShard = 6;
        QVERIFY(!estimate(s).valid);
        // Without sharded states (DDP) the setting is not read.
        s.training.zeroStage = 0;
        const auto ddp = estimate(s);
        s.training.layout.dpShard = kDpShardAll;
        QVERIFY(ddp.valid);
        QCOMPARE(ddp.stepTimeS, estimate(s).stepTimeS);
    }

    /// PyTorch FSDP all-reduces over the shard's copies every micro-batch, so its synchronisation doubles with the
    /// micro-batches; DeepSpeed's MiCS (and Megatron's optimizer instances) do it once a step, so theirs grows by
    /// less.
    void hybridShardReplicaReduceFollowsTheFramework()
    {
        Scenario s = denseOnH100("13b", 40, 5120, 40, 13824, 128);
        s.training.zeroStage = 3;
        s.training.distributedOptimizer = false;
        s.training.recompute = Recompute::None;
        s.training.layout = ParallelLayout {128, 1, 1, 1, 1, 1, false};
        s.training.layout.dpShard = 8;
        const auto dpSeconds = [&](Framework framework, int globalBatch) {
            s.training.framework = framework;
            s.training.globalBatch = globalBatch;
            const auto r = estimate(s);
            return r.valid ? r.dpTotalS : -1.0;
        };
        const double fsdp4 = dpSeconds(Framework::Fsdp, 512), fsdp8 = dpSeconds(Framework::Fsdp, 1024);
        QVERIFY(fsdp4 > 0);
        QVERIFY2(std::abs(fsdp8 - 2 * fsdp4) < 1e-9 * fsdp8, qPrintable(QString("%1 vs %2").arg(fsdp8).arg(fsdp4)));
        const double mics4 = dpSeconds(Framework::DeepSpeed, 512), mics8 = dpSeconds(Framework::DeepSpeed, 1024);
        QVERIFY(mics4 > 0);
        QVERIFY2(mics8 < 2 * mics4 * (1 - 1e-6), qPrintable(QString("%1 vs %2").arg(mics8).arg(mics4)));
    }

    void zeroStagesAndSchedules()
    {
        Scenario s = gpt3Case();
        s.training.schedule = PipelineSchedule::Interleaved;
        s.training.layout.virtualStages = 2;
        const auto interleaved = estimate(s);
        QVERIFY(interleaved.valid);
        QVERIFY(interleaved.bubbleS < estimate(gpt3Case()).bubbleS);
        s.training.globalBatch = 1520; // m = 95 is not a multiple of pp 8
        QVERIFY(!estimate(s).valid);
        s = gpt3Case();
        s.training.zeroStage = 3;
        const auto zero3 = estimate(s);
        QVERIFY(zero3.valid && zero3.dpTotalS > estimate(gpt3Case()).dpTotalS);
    }

    void invalidLayoutsSayWhy()
    {
        Scenario s = gpt3Case();
        s.training.layout.dp = 15;
        auto r = estimate(s);
        QVERIFY(!r.valid);
        QVERIFY(QString(r.error).contains("GPU count"));
        s = gpt3Case();
        s.training.globalBatch = 1000;
        QVERIFY(QString(estimate(s).error).contains("global batch"));
        QVERIFY(hasProblem(estimate(s).problems, LayoutProblem::GlobalBatch));
    }

    void layerRuleIsTheLayoutChecks()
    {
        // Fewer layers than PP × v only matters to the interleaved schedule (core/model/layoutcheck.h): a
        // 1F1B step with virtualStages left at 2 runs one chunk per rank.
        Scenario s = gpt3Case();
        s.model.layers = 12;
        s.training.layout.virtualStages = 2;
        s.training.schedule = PipelineSchedule::OneFOneB;
        QVERIFY2(estimate(s).valid, estimate(s).error);
        s.training.schedule = PipelineSchedule::Interleaved;
        QVERIFY(hasProblem(estimate(s).problems, LayoutProblem::InterleavedLayers));
        s.training.layout.tp = 16; // TP must also fit the KV heads, which the old copy of the check skipped
        s.training.layout.dp = 8;
        s.model.kvHeads = 12;
        s.training.schedule = PipelineSchedule::OneFOneB;
        QVERIFY(hasProblem(estimate(s).problems, LayoutProblem::TpKvHeads));
    }

    void hugeGlobalBatchHasAStepTime()
    {
        // 10^8 sequences: 6.25 M micro-batches per pipeline, beyond the op replay; the closed form takes them.
        Scenario s = gpt3Case();
        s.training.globalBatch = 100'000'000;
        for (auto schedule : {PipelineSchedule::GPipe, PipelineSchedule::OneFOneB, PipelineSchedule::ZbH1}) {
            s.training.schedule = schedule;
            const StepTimeResult r = estimate(s);
            QVERIFY2(r.valid, r.error);
            QCOMPARE(r.microBatches, 100'000'000 / 16);
            QVERIFY(std::isfinite(r.stepTimeS) && r.stepTimeS > 0);
            QVERIFY(r.bubbleFraction > 0 && r.bubbleFraction < 1e-5); // (p-1)/m shrinks with m
        }
    }

    /// DeepSeek-V3's multi-token-prediction module: one more MoE layer, a projection and a second head pass on the
    /// last stage (docs/methods-time.md §4.47). On PP 16 the last stage's 3 + 1 layers stay under the 1 dense + 4
    /// MoE of the stage timed, and the head pass remains; where the last stage is as full as any (80 layers over
    /// PP 8), the module's layer comes on top of it.
    void multiTokenPredictionSlowsTheHeadStage()
    {
        Scenario s;
        s.model = modelPreset("DeepSeek-V3");
        s.cluster.gpuId = "H100-SXM-80GB";
        s.cluster.gpuCount = 2048;
        s.training.framework = Framework::Megatron;
        s.training.precision = Precision::AmpBf16;
        s.training.globalBatch = 4096;
        s.training.microBatch = 1;
        s.training.recompute = Recompute::Full;
        s.training.layout = ParallelLayout {128, 1, 16, 1, 64, 1, false};
        s.model.mtpLayers = 0;
        const StepTimeResult without = estimate(s);
        s.model.mtpLayers = 1;
        const StepTimeResult with = estimate(s);
        QVERIFY(with.stepTimeS > without.stepTimeS);
        QVERIFY2(with.computeForwardS / without.computeForwardS < 62.0 / 61 + 0.2,
            qPrintable(QString::number(with.computeForwardS / without.computeForwardS)));
        QVERIFY(with.modelTflopsPerGpu > 0);
        // A dense model of 80 layers on PP 8: the last stage holds 10 + 1 layers and the head twice.
        s.model = modelPreset("Llama 3 70B");
        s.cluster.gpuCount = 256;
        s.training.layout = ParallelLayout {4, 8, 8, 1, 1, 1, true};
        s.training.globalBatch = 512;
        s.model.mtpLayers = 0;
        const double evenStages = estimate(s).computeForwardS;
        s.model.mtpLayers = 1;
        QVERIFY(estimate(s).computeForwardS > evenStages * 11.0 / 10);
    }
};

QTEST_GUILESS_MAIN(TestStepTime)
#include "tst_steptime.moc"
