// SPDX-License-Identifier: GPL-3.0-or-later
// The evaluation facade: the same figures as the models it calls, errors and reasons instead of exceptions, and a
// pipeline view whose bubble is the step time's.
#include "core/cluster/trainingview.h"
#include "core/evaluation/scenarioevaluation.h"
#include "core/memory/memorycontext.h"
#include "core/memory/memorymodel.h"
#include "core/model/modelpresets.h"
#include "core/perf/efficiencyparams.h"

#include <QTest>

#include <cmath>

using namespace clusterplanner::core;

namespace {

/// Llama 3 8B on 64 H100 with four pipeline stages: DP 2 × TP 8 × PP 4, 64 micro-batches per step.
Scenario pipelined(PipelineSchedule schedule)
{
    Scenario s;
    s.training.layout = ParallelLayout {2, 8, 4, 1, 1, schedule == PipelineSchedule::Interleaved ? 2 : 1, true};
    s.training.globalBatch = 128;
    s.training.schedule = schedule;
    return s;
}

perf::StepTimeResult engineTime(const Scenario& s)
{
    const GpuSpec& gpu = *GpuCatalog::builtin().find(s.cluster.gpuId);
    return perf::estimateStepTime(s, gpu, perf::EfficiencyTable::builtin().forGpu(gpu.id));
}

} // namespace

class TestEvaluation : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void figuresAreTheModels()
    {
        const Scenario s = pipelined(PipelineSchedule::OneFOneB);
        const ScenarioEvaluation e = evaluateScenario(s);
        QVERIFY2(e.valid(), e.firstReason().c_str());
        QCOMPARE(e.time.stepTimeS, engineTime(s).stepTimeS);
        QCOMPARE(e.time.costUsd, engineTime(s).costUsd);
        const MemoryContext context = makeMemoryContext(s.model, e.gpu);
        const MemoryEstimate memory = evaluateMemory(context, s.training);
        QCOMPARE(e.memory.estimate.peakReservedBytes, memory.peakReservedBytes);
        QCOMPARE(e.memory.estimate.first.peak.activationsBytes, memory.first.peak.activationsBytes);
        QCOMPARE(e.memory.maxMicroBatch, maxMicroBatch(context, s.training, 1024));
    }

    void pipelineBubbleIsTheStepTimes_data()
    {
        QTest::addColumn<int>("schedule");
        for (auto schedule : {PipelineSchedule::GPipe, PipelineSchedule::OneFOneB, PipelineSchedule::Interleaved,
                 PipelineSchedule::ZbH1})
            QTest::newRow(std::to_string(int(schedule)).c_str()) << int(schedule);
    }

    void pipelineBubbleIsTheStepTimes()
    {
        QFETCH(int, schedule);
        const Scenario s = pipelined(PipelineSchedule(schedule));
        const ScenarioEvaluation e = evaluateScenario(s);
        QVERIFY2(e.valid(), e.firstReason().c_str());
        const perf::StepTimeResult time = engineTime(s);
        QCOMPARE(e.pipeline.summary.bubbleFraction, time.bubbleFraction);
        QCOMPARE(e.pipeline.summary.bubbleTime, time.bubbleS);
        QVERIFY(time.bubbleFraction > 0);
        // The drawn timeline is the engine's schedule: same op times, first micro-batches only.
        QCOMPARE(e.pipeline.params.forward, time.pipeline.forward);
        QCOMPARE(e.pipeline.params.microBatches, 64);
        QCOMPARE(e.pipeline.shownMicroBatches, 8);
        QVERIFY(!e.pipeline.ops.empty());
        for (const auto& op : e.pipeline.ops)
            QVERIFY(op.stage >= 0 && op.stage < 4 && op.microBatch < 8 && op.end > op.start);
    }

    void zbH1SplitsTheBackwardAsTheEngineDoes()
    {
        // The panel used to halve the backward into B and W; the engine uses the weight-gradient GEMMs' own time.
        const ScenarioEvaluation e = evaluateScenario(pipelined(PipelineSchedule::ZbH1));
        QVERIFY(e.pipeline.params.weightGrad > 0);
        QVERIFY(
            std::abs(e.pipeline.params.weightGrad - e.pipeline.params.backward) > 1e-3 * e.pipeline.params.backward);
    }

    void unknownGpuIsAnErrorOnTheField()
    {
        Scenario s;
        s.cluster.gpuId = "no such GPU";
        const ScenarioEvaluation e = evaluateScenario(s);
        QVERIFY(e.error && !e.valid());
        QCOMPARE(e.error->field, std::string("cluster.gpu"));
        QVERIFY(e.error->message.find("no such GPU") != std::string::npos);
    }

    /// FP8 on a GPU without FP8 tensor cores cannot start (Transformer Engine and torchao refuse it): the scenario is
    /// refused on its precision, naming the GPU and what to choose, rather than planned at the 16-bit rate.
    void fp8WithoutFp8TensorCoresIsAnErrorOnThePrecision()
    {
        Scenario s;
        s.training.precision = Precision::Fp8;
        QVERIFY(!evaluateScenario(s).error); // the default H100 has them
        s.cluster.gpuId = "A100-SXM-80GB";
        const ScenarioEvaluation e = evaluateScenario(s);
        QVERIFY(e.error && !e.valid());
        QCOMPARE(e.error->field, std::string("training.precision"));
        QVERIFY2(e.error->message.find("A100") != std::string::npos
                && e.error->message.find("mixed BF16") != std::string::npos,
            e.error->message.c_str());
        s.training.precision = Precision::AmpBf16;
        QVERIFY(!evaluateScenario(s).error);
    }

    /// A scenario with a topology states the GPU in its training group: the error names that key, as the file has it.
    void unknownGpuOfATrainingGroupNamesTheGroup()
    {
        Scenario s;
        cluster::adoptClusterView(s, GpuCatalog::builtin());
        cluster::NodeGroup spare = s.topology.groups.front();
        spare.name = "spare";
        s.topology.groups.insert(s.topology.groups.begin(), spare); // the training group is now the second
        s.topology.groups[1].gpuId = "no such GPU";
        QVERIFY(cluster::syncTrainingView(s));
        const ScenarioEvaluation e = evaluateScenario(s);
        QVERIFY(e.error);
        QCOMPARE(e.error->field, std::string("cluster.node_groups[1].gpu"));
    }

    void fieldOutOfRangeIsAnErrorOnTheField()
    {
        Scenario s;
        s.model.layers = 0;
        const ScenarioEvaluation e = evaluateScenario(s);
        QVERIFY(e.error);
        QCOMPARE(e.error->field, std::string("model.layers"));
        QVERIFY(e.firstReason().find("model.layers: ") == 0);
    }

    void invalidLayoutGivesEveryReason()
    {
        Scenario s;
        s.training.layout.dp = 3; // 3 × 8 ≠ 64 GPUs, and 512 % 3 ≠ 0
        const ScenarioEvaluation e = evaluateScenario(s);
        QVERIFY(!e.error && !e.valid());
        QVERIFY(hasProblem(e.problems, LayoutProblem::GpuCount));
        QVERIFY(hasProblem(e.problems, LayoutProblem::GlobalBatch));
        QCOMPARE(e.reasons.size(), std::size_t(2));
        QVERIFY(e.reasons[0].find("64 GPUs") != std::string::npos);
        QVERIFY(!e.time.valid && e.pipeline.ops.empty());
    }

    void hugeGlobalBatchIsEvaluated()
    {
        Scenario s = pipelined(PipelineSchedule::OneFOneB);
        s.training.globalBatch = 100'000'000;
        const ScenarioEvaluation e = evaluateScenario(s);
        QVERIFY2(e.valid(), e.firstReason().c_str());
        QCOMPARE(e.pipeline.params.microBatches, 50'000'000);
        QCOMPARE(e.pipeline.shownMicroBatches, 8);
        QVERIFY(std::isfinite(e.time.stepTimeS) && e.time.energyKwh > 0);
    }

    void candidateIsApplied()
    {
        const Scenario s;
        LayoutCandidate c = candidateOf(s);
        c.layout = ParallelLayout {16, 4, 1, 1, 1, 1, true};
        c.zeroStage = 3;
        const ScenarioEvaluation e = evaluateScenario(s, c, EvaluationOptions {false, false, 0});
        QVERIFY(e.valid());
        QCOMPARE(e.training.layout.tp, 4);
        QCOMPARE(e.training.zeroStage, 3);
        QVERIFY(!e.training.distributedOptimizer); // applyCandidate: only ZeRO 1 means the distributed optimizer
        QVERIFY(e.memory.remedies.empty() && e.memory.maxMicroBatch == 0 && e.pipeline.ops.empty());
    }
};

QTEST_GUILESS_MAIN(TestEvaluation)
#include "tst_evaluation.moc"
