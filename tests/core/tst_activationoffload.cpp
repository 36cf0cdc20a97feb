// SPDX-License-Identifier: GPL-3.0-or-later
// Activation offload to host memory (docs/methods-memory.md §3.11, docs/methods-time.md §4.32): what stays on the GPU,
// the fewest layers auto picks, the rules that rule it out, and the copies' exposed time.
#include "core/memory/activationoffload.h"
#include "core/memory/activations.h"
#include "core/memory/memorymodel.h"
#include "core/model/frameworkrules.h"
#include "core/model/modelpresets.h"
#include "core/perf/efficiencyparams.h"
#include "core/perf/steptime.h"

#include <QTest>

using namespace clusterplanner::core;

namespace {

/// Llama 3 70B FP8 on 64 GPUs with Megatron-FSDP, TP 1, PP 1, micro-batch 2, no recompute: NVIDIA's GB200 preset
/// (Megatron-Bridge, 40 layers offloaded), which does not fit without offload.
Scenario gb200Llama70b(const std::string& gpuId = "GB200")
{
    Scenario s = defaultScenario();
    s.model = modelPreset("Llama 3 70B");
    s.model.seqLen = 8192;
    s.cluster.gpuId = gpuId;
    s.cluster.gpuCount = 64;
    s.cluster.gpusPerNode = 4;
    TrainingConfig& t = s.training;
    t.framework = Framework::NeMo;
    t.precision = Precision::Fp8;
    t.layout = {64, 1, 1, 1, 1, 1, false};
    t.globalBatch = 128;
    t.microBatch = 2;
    t.recompute = Recompute::None;
    t.zeroStage = 3;
    t.distributedOptimizer = false;
    return s;
}

MemoryContext contextOf(const Scenario& s)
{
    return makeMemoryContext(s.model, GpuCatalog::builtin().find(s.cluster.gpuId));
}

perf::StepTimeResult stepTime(const Scenario& s)
{
    const GpuSpec& gpu = *GpuCatalog::builtin().find(s.cluster.gpuId);
    return perf::estimateStepTime(s, gpu, perf::EfficiencyTable::builtin().forGpu(gpu.id));
}

} // namespace

class TestActivationOffload : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void residentLayersKeepTheDoubleBuffer()
    {
        QCOMPARE(residentActivationLayers(80, 0), 80.0);
        QCOMPARE(residentActivationLayers(80, 40), 40.0);
        QCOMPARE(residentActivationLayers(80, 79), 2.0); // the layer computing and the one being copied
        QCOMPARE(residentActivationLayers(1, 0), 1.0);
    }

    /// The offloaded layers' activations leave the GPU's peak and are reported as host memory instead.
    void offloadMovesLayerActivationsToTheHost()
    {
        Scenario s = gb200Llama70b();
        const MemoryContext ctx = contextOf(s);
        const MemoryEstimate none = evaluateMemory(ctx, s.training);
        s.training.activationOffloadLayers = 40;
        const MemoryEstimate offloaded = evaluateMemory(ctx, s.training);
        const double layerBytes = offloadedLayerBytes(ctx, s.training);
        QVERIFY(layerBytes > 1e9); // 2 × 8,192 tokens × h 8,192: gigabytes per layer
        QCOMPARE(offloaded.offloadedLayers, 40);
        QCOMPARE(offloaded.first.hostActivationBytes, 40 * layerBytes);
        QVERIFY(
            qFuzzyCompare(none.first.peak.activationsBytes - offloaded.first.peak.activationsBytes, 40 * layerBytes));
        QVERIFY(!none.fits);
        QVERIFY(offloaded.peakReservedBytes < none.peakReservedBytes);
    }

    /// Auto finds the fewest layers that fit: one fewer does not fit; a layout that fits offloads nothing.
    void autoOffloadsTheFewestLayersThatFit()
    {
        Scenario s = gb200Llama70b();
        const MemoryContext ctx = contextOf(s);
        s.training.activationOffloadLayers = kActivationOffloadAuto;
        const int chosen = activationOffloadLayersInEffect(ctx, s.training);
        QVERIFY2(chosen > 0 && chosen < s.model.layers, qPrintable(QString::number(chosen)));
        QVERIFY(evaluateMemory(ctx, s.training).fits);
        TrainingConfig fewer = s.training;
        fewer.activationOffloadLayers = chosen - 1;
        QVERIFY(!evaluateMemory(ctx, fewer).fits);

        Scenario small = gb200Llama70b(); // Llama 3 8B fits without offload: auto asks for nothing
        small.model = modelPreset("Llama 3 8B");
        small.model.seqLen = 8192;
        small.training.activationOffloadLayers = 0;
        const MemoryContext smallCtx = contextOf(small);
        QVERIFY(evaluateMemory(smallCtx, small.training).fits);
        small.training.activationOffloadLayers = kActivationOffloadAuto;
        QCOMPARE(activationOffloadLayersInEffect(smallCtx, small.training), 0);
    }

    /// Megatron-Core refuses offload with PP > 1, with recompute and for all layers; other frameworks lack it.
    void theFrameworkRulesDecide()
    {
        Scenario s = gb200Llama70b();
        const MemoryContext ctx = contextOf(s);
        const auto caps = frameworkCapabilities(Framework::NeMo);
        using O = ActivationOffloadObstacle;
        TrainingConfig t = s.training;
        t.activationOffloadLayers = 40;
        QCOMPARE(activationOffloadObstacle(t, caps, 80), O::None);
        t.layout.pp = 2;
        QCOMPARE(activationOffloadObstacle(t, caps, 80), O::Pipeline);
        t.layout.pp = 1;
        t.recompute = Recompute::Selective;
        QCOMPARE(activationOffloadObstacle(t, caps, 80), O::Recompute);
        QCOMPARE(activationOffloadLayersInEffect(ctx, t), 0);
        t.recompute = Recompute::None;
        t.activationOffloadLayers = 80;
        QCOMPARE(activationOffloadObstacle(t, caps, 80), O::TooManyLayers);
        t.activationOffloadLayers = 40;
        QCOMPARE(activationOffloadObstacle(t, frameworkCapabilities(Framework::TorchTitan), 80), O::NotOffered);
        QVERIFY(frameworkCapabilities(Framework::Megatron).activationOffload);
        t.activationOffloadLayers = 0;
        QCOMPARE(activationOffloadObstacle(t, caps, 80), O::NotAsked);
    }

    /// The copies cost what outlasts one layer's compute: on the GB200's C2C link little, on PCIe 5.0 much more.
    void copiesShowWhereTheyOutlastTheLayer()
    {
        Scenario gb = gb200Llama70b();
        gb.training.activationOffloadLayers = 40;
        const perf::StepTimeResult c2c = stepTime(gb);
        QVERIFY(c2c.valid);
        QCOMPARE(c2c.offloadedLayers, 40);
        const GpuSpec& gpu = *GpuCatalog::builtin().find("GB200");
        const double rateBps
            = gpu.hostLinkGBsBidir / 2 * 1e9 * perf::EfficiencyTable::builtin().forGpu("GB200").hostCopyEfficiency;
        const double copyS = offloadedLayerBytes(contextOf(gb), gb.training) / rateBps;
        QCOMPARE(c2c.offloadTotalS, 2 * 40 * copyS); // one micro-batch: out in the forward, back in the backward
        QVERIFY(c2c.offloadExposedS < c2c.offloadTotalS);
        QVERIFY(c2c.offloadExposedS < 0.1 * c2c.stepTimeS);

        Scenario none = gb;
        none.training.activationOffloadLayers = 0;
        const perf::StepTimeResult base = stepTime(none);
        QCOMPARE(base.offloadTotalS, 0.0);
        QVERIFY(qFuzzyCompare(c2c.stepTimeS - base.stepTimeS, c2c.offloadExposedS));

        Scenario b200 = gb200Llama70b("B200"); // PCIe 5.0 x16: 128 GB/s both ways, a quarter of the C2C share
        b200.training.activationOffloadLayers = 40;
        const perf::StepTimeResult pcie = stepTime(b200);
        QVERIFY(pcie.offloadExposedS > 3 * c2c.offloadExposedS);
    }

    /// Asked for where a rule forbids it, offload changes neither memory nor time.
    void ruledOutOffloadChangesNothing()
    {
        Scenario s = gb200Llama70b();
        s.training.recompute = Recompute::Full;
        const perf::StepTimeResult before = stepTime(s);
        const MemoryEstimate memoryBefore = evaluateMemory(contextOf(s), s.training);
        s.training.activationOffloadLayers = 40;
        QCOMPARE(stepTime(s).stepTimeS, before.stepTimeS);
        QCOMPARE(evaluateMemory(contextOf(s), s.training).peakAllocatedBytes, memoryBefore.peakAllocatedBytes);
        QCOMPARE(stepTime(s).offloadedLayers, 0);
    }
};

QTEST_GUILESS_MAIN(TestActivationOffload)
#include "tst_activationoffload.moc"
