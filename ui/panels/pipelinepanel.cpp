// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/pipelinepanel.h"

#include "core/evaluation/scenarioevaluation.h"
#include "core/model/enumnames.h"
#include "ui/charts/ganttchart.h"
#include "ui/charts/pipelinebars.h"
#include "ui/document/scenariodocument.h"
#include "ui/panels/enumlabels.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>

namespace clusterplanner::ui {

namespace {

/// The engine's timeline is in seconds; the chart's time axis and tooltips are in milliseconds.
std::vector<core::perf::PipelineOp> inMilliseconds(std::vector<core::perf::PipelineOp> ops)
{
    for (auto& op : ops) {
        op.start *= 1e3;
        op.end *= 1e3;
    }
    return ops;
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
    m_summary->setObjectName(QStringLiteral("pipeline.summary"));
    createLayout();
    connect(m_document, &ScenarioDocument::scenarioChanged, this, &PipelinePanel::onScenarioChanged);
    connect(m_schedule, &QComboBox::activated, this, &PipelinePanel::chooseSchedule);
    refresh();
}

void PipelinePanel::createLayout()
{
    for (auto schedule : core::allValues<core::PipelineSchedule>())
        m_schedule->addItem(enumLabel(schedule), int(schedule));
    m_schedule->setToolTip(tr("Pipeline schedule of the scenario (an undoable edit)"));
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_summary->setWordWrap(true); // a refusal is a sentence or two: wrapped, not cut at the panel's edge
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Schedule:"), this));
    top->addWidget(m_schedule);
    top->addWidget(m_summary, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_chart, 1);
    layout->addStretch(0); // with the chart hidden (nothing to schedule) the schedule and the reason stay at the top
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

void PipelinePanel::onScenarioChanged(ScenarioChanges changes)
{
    // The schedule does not depend on prices, the name or the notes.
    if (!(changes & (kEngineInputs & ~ScenarioChanges(ScenarioChange::Economics))))
        return;
    refresh();
    Q_EMIT refreshed();
}

void PipelinePanel::refresh()
{
    const core::Scenario& scenario = m_document->scenario();
    {
        const QSignalBlocker blocker(m_schedule);
        m_schedule->setCurrentIndex(m_schedule->findData(int(scenario.training.schedule)));
    }
    const core::ScenarioEvaluation evaluation
        = core::evaluateScenario(scenario, core::EvaluationOptions {false, true, 0});
    m_bubbleFraction
        = evaluation.valid() ? evaluation.pipeline.summary.bubbleFraction : std::numeric_limits<double>::quiet_NaN();
    const bool dualPipe = evaluation.valid() && evaluation.pipeline.params.schedule == core::PipelineSchedule::DualPipe;
    m_chart->setRows(pipelineStageRows(std::max(1, scenario.training.layout.pp), dualPipe));
    const bool splitBackward = scenario.training.schedule == core::PipelineSchedule::ZbH1
        || scenario.training.schedule == core::PipelineSchedule::DualPipe;
    m_chart->setLegend(
        pipelineLegend(splitBackward, evaluation.valid() ? evaluation.pipeline.params.chunks : 1, dualPipe));
    if (!evaluation.valid()) {
        m_chart->setBars({});
        m_chart->setVisible(false); // empty stage rows on a time axis of nothing
        const QString heading
            = evaluation.error ? tr("This scenario cannot be evaluated:") : tr("Cannot schedule this layout:");
        m_summary->setText(
            tr("<b>%1</b> %2")
                .arg(heading.toHtmlEscaped(), QString::fromStdString(evaluation.firstReason()).toHtmlEscaped()));
        return;
    }
    m_chart->setVisible(true);
    m_chart->setBars(pipelineBars(inMilliseconds(evaluation.pipeline.ops), evaluation.pipeline.params.chunks));
    m_summary->setText(summary(evaluation.pipeline));
}

QString PipelinePanel::summary(const core::PipelineView& view) const
{
    const core::perf::PipelineSummary& full = view.summary; // the whole step, the step time's own figures
    const int microBatches = view.params.microBatches;
    QString drawn;
    if (!view.timelineProblem.empty())
        drawn = tr(" · not drawn: %1").arg(QString::fromStdString(view.timelineProblem));
    else if (view.shownMicroBatches < microBatches)
        drawn = tr(" · the chart shows the first %1").arg(view.shownMicroBatches);
    return tr("%1 micro-batches per step: makespan %2 ms · bubble %3 % of ideal · peak in flight %4 micro-batches%5")
        .arg(microBatches)
        .arg(1e3 * full.makespan, 0, 'f', 1)
        .arg(100 * full.bubbleFraction, 0, 'f', 1)
        .arg(full.worstPeakInFlight, 0, 'f', 2)
        .arg(drawn);
}

} // namespace clusterplanner::ui
