// SPDX-License-Identifier: GPL-3.0-or-later
// The panels draw the facade's figures: the Pipeline panel's bubble is the step-time engine's for every schedule,
// and panels refresh only when a part of the scenario they depend on changes.
#include "core/cluster/trainingview.h"
#include "core/perf/efficiencyparams.h"
#include "core/perf/steptime.h"
#include "ui/document/scenariodocument.h"
#include "ui/panels/memorypanel.h"
#include "ui/panels/pipelinepanel.h"
#include "ui/panels/scalingpanel.h"
#include "ui/panels/steptimepanel.h"

#include <QLabel>
#include <QSignalSpy>
#include <QTest>

#include <QUndoStack>
#include <cmath>

using namespace clusterplanner;

namespace {

double engineBubble(const core::Scenario& s)
{
    const core::GpuSpec& gpu = *core::GpuCatalog::builtin().find(s.cluster.gpuId);
    const auto time = core::perf::estimateStepTime(s, gpu, core::perf::EfficiencyTable::builtin().forGpu(gpu.id));
    return time.valid ? time.bubbleFraction : -1;
}

} // namespace

class TestPipelinePanel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void bubbleIsTheEnginesForEverySchedule_data()
    {
        QTest::addColumn<int>("schedule");
        for (auto schedule : {core::PipelineSchedule::GPipe, core::PipelineSchedule::OneFOneB,
                 core::PipelineSchedule::Interleaved, core::PipelineSchedule::ZbH1, core::PipelineSchedule::DualPipe})
            QTest::newRow(std::to_string(int(schedule)).c_str()) << int(schedule);
    }

    void bubbleIsTheEnginesForEverySchedule()
    {
        QFETCH(int, schedule);
        ui::ScenarioDocument doc;
        core::Scenario s = doc.scenario(); // Llama 3 70B, PP 4, 64 micro-batches per step
        s.training.schedule = core::PipelineSchedule(schedule);
        s.training.layout.virtualStages = s.training.schedule == core::PipelineSchedule::Interleaved ? 5 : 1;
        doc.edit(s, QStringLiteral("schedule"));
        ui::PipelinePanel panel(&doc);
        const double engine = engineBubble(doc.scenario());
        QVERIFY(engine > 0);
        QCOMPARE(panel.bubbleFraction(), engine);
        panel.grab(); // draws without complaint
    }

    void invalidLayoutSaysWhy()
    {
        ui::ScenarioDocument doc;
        core::Scenario s = doc.scenario();
        s.training.layout.dp = 3;
        doc.edit(s, QStringLiteral("dp"));
        ui::PipelinePanel panel(&doc);
        QVERIFY(std::isnan(panel.bubbleFraction()));
        ui::StepTimePanel step(&doc);
        QVERIFY2(step.summaryText().contains(QStringLiteral("256 GPUs")), qPrintable(step.summaryText()));
    }

    /// A scenario the engine refuses (FP8 on an A100) leaves no figures: each panel says why under one heading and
    /// hides its chart instead of drawing axes scaled to nothing; a scenario that reads again brings the charts back.
    void unevaluableScenarioHidesTheCharts()
    {
        ui::ScenarioDocument doc;
        ui::PipelinePanel pipeline(&doc);
        ui::StepTimePanel step(&doc);
        ui::ScalingPanel scaling(&doc);
        auto* gantt = pipeline.findChild<QWidget*>(QStringLiteral("pipeline-gantt"));
        auto* bars = step.findChild<QWidget*>(QStringLiteral("step-time-breakdown"));
        auto* curve = scaling.findChild<QWidget*>(QStringLiteral("scaling"));
        QVERIFY(gantt && bars && curve);
        QVERIFY(gantt->isVisibleTo(&pipeline) && bars->isVisibleTo(&step) && curve->isVisibleTo(&scaling));
        const core::Scenario valid = doc.scenario();
        core::Scenario fp8 = valid;
        fp8.cluster.gpuId = "A100-SXM-80GB";
        core::cluster::writeViewIntoTopology(fp8, core::GpuCatalog::builtin());
        fp8.training.precision = core::Precision::Fp8;
        doc.edit(fp8, QStringLiteral("FP8 on A100"));
        const QString reason = QStringLiteral("fp8 needs FP8 tensor cores");
        for (const QString& text : {step.summaryText(), scaling.summaryText()}) {
            QVERIFY2(text.contains(QStringLiteral("This scenario cannot be evaluated:")), qPrintable(text));
            QVERIFY2(text.contains(reason), qPrintable(text));
        }
        auto* pipelineSummary = pipeline.findChild<QLabel*>(QStringLiteral("pipeline.summary"));
        QVERIFY(pipelineSummary);
        QVERIFY2(pipelineSummary->text().contains(reason), qPrintable(pipelineSummary->text()));
        QVERIFY(!gantt->isVisibleTo(&pipeline) && !bars->isVisibleTo(&step) && !curve->isVisibleTo(&scaling));
        doc.edit(valid, QStringLiteral("back"));
        QVERIFY(gantt->isVisibleTo(&pipeline) && bars->isVisibleTo(&step) && curve->isVisibleTo(&scaling));
        QVERIFY2(step.summaryText().contains(QStringLiteral("Step")), qPrintable(step.summaryText()));
    }

    void hugeGlobalBatchIsDrawn()
    {
        ui::ScenarioDocument doc;
        core::Scenario s = doc.scenario();
        s.training.globalBatch = 100'000'000;
        s.training.schedule = core::PipelineSchedule::OneFOneB;
        s.training.layout.virtualStages = 1;
        doc.edit(s, QStringLiteral("batch"));
        ui::PipelinePanel panel(&doc);
        QCOMPARE(panel.bubbleFraction(), engineBubble(doc.scenario()));
        ui::StepTimePanel step(&doc);
        QVERIFY2(step.summaryText().contains(QStringLiteral("Step")), qPrintable(step.summaryText()));
    }

    void panelsRefreshOnlyForWhatTheyShow()
    {
        ui::ScenarioDocument doc;
        ui::PipelinePanel pipeline(&doc);
        ui::MemoryPanel memory(&doc);
        ui::StepTimePanel step(&doc);
        QSignalSpy pipelineRefreshed(&pipeline, &ui::PipelinePanel::refreshed);
        QSignalSpy memoryRefreshed(&memory, &ui::ChartPanel::refreshed);
        QSignalSpy stepRefreshed(&step, &ui::ChartPanel::refreshed);
        QSignalSpy changed(&doc, &ui::ScenarioDocument::scenarioChanged);
        core::Scenario s = doc.scenario();
        s.name = "renamed";
        s.notes = "new notes";
        doc.edit(s, QStringLiteral("rename"));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.last().at(0).value<ui::ScenarioChanges>(),
            ui::ScenarioChanges(ui::ScenarioChange::Name | ui::ScenarioChange::Notes));
        QCOMPARE(pipelineRefreshed.count() + memoryRefreshed.count() + stepRefreshed.count(), 0);
        s.economics.gpuHourUsd = 3;
        doc.edit(s, QStringLiteral("price"));
        QCOMPARE(changed.last().at(0).value<ui::ScenarioChanges>(), ui::ScenarioChanges(ui::ScenarioChange::Economics));
        QCOMPARE(stepRefreshed.count(), 1); // cost is on the step-time panel
        QCOMPARE(memoryRefreshed.count() + pipelineRefreshed.count(), 0);
        s.training.layout.tp = 4;
        s.training.layout.dp = 16;
        doc.edit(s, QStringLiteral("layout"));
        QCOMPARE(changed.last().at(0).value<ui::ScenarioChanges>(), ui::ScenarioChanges(ui::ScenarioChange::Layout));
        QCOMPARE(memoryRefreshed.count(), 1);
        QCOMPARE(pipelineRefreshed.count(), 1);
        doc.undoStack()->undo(); // undo says what it changed back
        QCOMPARE(changed.last().at(0).value<ui::ScenarioChanges>(), ui::ScenarioChanges(ui::ScenarioChange::Layout));
        doc.newDocument();
        QCOMPARE(changed.last().at(0).value<ui::ScenarioChanges>(), ui::kAllScenarioChanges);
    }
};

QTEST_MAIN(TestPipelinePanel)
#include "tst_pipelinepanel.moc"
