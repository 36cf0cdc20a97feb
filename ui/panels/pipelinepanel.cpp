// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/pipelinepanel.h"

#include "core/model/enumnames.h"
#include "core/perf/pipeline.h"
#include "core/perf/steptime.h"
#include "ui/charts/ganttchart.h"
#include "ui/charts/pipelinebars.h"
#include "ui/document/scenariodocument.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace clusterplanner::ui {

namespace {

/// Micro-batches drawn: enough for warm-up, steady state and cool-down (2·p), not hundreds of slivers. The
/// summary line always states the figures of the full step.
int shownMicroBatches(int stages, int microBatches)
{
    return std::min(microBatches, std::max(2 * stages, 8));
}

struct StageTimes
{
    double forwardMs = 1;
    double backwardMs = 2;
    int microBatches = 1;
};

/// Per micro-batch forward and backward of one stage from the step-time model; falls back to F = 1, B = 2
/// units when the layout cannot be evaluated.
StageTimes stageTimes(const core::Scenario& scenario)
{
    StageTimes times;
    const auto& t = scenario.training;
    times.microBatches = std::max(1, t.globalBatch / std::max(1, t.layout.dp * t.microBatch));
    const core::GpuSpec* gpu = core::GpuCatalog::builtin().find(scenario.cluster.gpuId);
    if (!gpu)
        return times;
    const auto& efficiency = core::perf::EfficiencyTable::builtin().forGpu(gpu->id);
    const auto step = core::perf::estimateStepTime(scenario, *gpu, efficiency);
    if (!step.valid || step.microBatches < 1)
        return times;
    times.microBatches = step.microBatches;
    times.forwardMs = 1e3 * step.computeForwardS / step.microBatches;
    times.backwardMs = 1e3 * (step.computeBackwardS + step.recomputeS) / step.microBatches;
    return times;
}

core::perf::PipelineParams pipelineParams(const core::Scenario& scenario, const StageTimes& times)
{
    core::perf::PipelineParams params;
    params.schedule = scenario.training.schedule;
    params.stages = scenario.training.layout.pp;
    params.chunks = params.schedule == core::PipelineSchedule::Interleaved ? scenario.training.layout.virtualStages : 1;
    params.microBatches = times.microBatches;
    // The backward splits into input and weight gradients of about equal cost (ZB paper, §2).
    params.forward = times.forwardMs;
    params.backward = times.backwardMs / 2;
    params.weightGrad = times.backwardMs / 2;
    return params;
}

} // namespace

PipelinePanel::PipelinePanel(ScenarioDocument* document, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
    , m_schedule(new QComboBox(this))
    , m_summary(new QLabel(this))
    , m_chart(new GanttChart(this))
{
    setObjectName(QStringLiteral("pipelinePanel"));
    m_chart->setObjectName(QStringLiteral("pipeline-gantt"));
    m_schedule->setObjectName(QStringLiteral("pipeline.schedule"));
    createLayout();
    connect(m_document, &ScenarioDocument::scenarioChanged, this, &PipelinePanel::refresh);
    connect(m_schedule, &QComboBox::activated, this, &PipelinePanel::chooseSchedule);
    refresh();
}

void PipelinePanel::createLayout()
{
    for (auto schedule : core::allValues<core::PipelineSchedule>())
        m_schedule->addItem(QString::fromLatin1(core::toString(schedule).data()), int(schedule));
    m_schedule->setToolTip(tr("Pipeline schedule of the scenario (an undoable edit)"));
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Schedule:"), this));
    top->addWidget(m_schedule);
    top->addWidget(m_summary, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_chart, 1);
    m_chart->setTimeAxisLabel(tr("time within one step (ms)"));
}

void PipelinePanel::chooseSchedule(int index)
{
    core::Scenario scenario = m_document->scenario();
    scenario.training.schedule = static_cast<core::PipelineSchedule>(m_schedule->itemData(index).toInt());
    if (scenario.training.schedule != core::PipelineSchedule::Interleaved)
        scenario.training.layout.virtualStages = 1;
    else if (scenario.training.layout.virtualStages < 2)
        scenario.training.layout.virtualStages = 2;
    m_document->edit(scenario, tr("Change pipeline schedule"));
}

void PipelinePanel::refresh()
{
    const core::Scenario& scenario = m_document->scenario();
    {
        const QSignalBlocker blocker(m_schedule);
        m_schedule->setCurrentIndex(m_schedule->findData(int(scenario.training.schedule)));
    }
    const StageTimes times = stageTimes(scenario);
    const auto params = pipelineParams(scenario, times);
    m_chart->setRows(pipelineStageRows(params.stages));
    m_chart->setLegend(pipelineLegend(params.schedule == core::PipelineSchedule::ZbH1));
    try {
        const auto full = core::perf::pipelineSummary(params); // the whole step, for the figures
        auto shown = params;
        shown.microBatches = shownMicroBatches(params.stages, params.microBatches);
        if (shown.schedule == core::PipelineSchedule::Interleaved)
            shown.microBatches -= shown.microBatches % shown.stages; // interleaving needs m % p == 0
        const auto timeline = core::perf::simulatePipeline(shown);
        m_chart->setBars(pipelineBars(timeline.ops, shown.chunks));
        m_summary->setText(tr("%1 micro-batches per step: makespan %2 ms · bubble %3 % of ideal · peak in flight "
                              "%4 micro-batches%5")
                               .arg(params.microBatches)
                               .arg(full.makespan, 0, 'f', 1)
                               .arg(100 * full.bubbleFraction, 0, 'f', 1)
                               .arg(full.worstPeakInFlight, 0, 'f', 2)
                               .arg(shown.microBatches < params.microBatches
                                       ? tr(" · the chart shows the first %1").arg(shown.microBatches)
                                       : QString()));
    } catch (const std::exception& error) {
        m_chart->setBars({});
        m_summary->setText(tr("Cannot schedule this layout: %1").arg(QString::fromUtf8(error.what())));
    }
}

} // namespace clusterplanner::ui
