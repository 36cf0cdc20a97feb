// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/jobspanel.h"

#include "ui/sim/jobganttview.h"
#include "ui/sim/simulationcontrols.h"
#include "ui/sim/simulationlabels.h"
#include "ui/sim/simulationsession.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QVBoxLayout>

#include <set>

namespace clusterplanner::ui {

JobsPanel::JobsPanel(ScenarioDocument* document, QWidget* parent)
    : QWidget(parent)
    , m_session(SimulationSession::of(document))
    , m_colorBy(new QComboBox)
    , m_range(new QLabel)
    , m_gantt(new JobGanttView)
    , m_details(new QLabel)
{
    setObjectName(QStringLiteral("jobsPanel"));
    setProperty("dockHeightShare", 0.72); // MainWindow::showPanel: the chart needs most of the height
    m_colorBy->addItem(tr("size (GPUs)"), int(JobGanttView::ColorBy::Size));
    m_colorBy->addItem(tr("user"), int(JobGanttView::ColorBy::User));
    m_colorBy->addItem(tr("policy outcome"), int(JobGanttView::ColorBy::State));
    m_details->setObjectName(QStringLiteral("jobDetails"));
    m_details->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_details->setWordWrap(true);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_details->setMargin(8);
    auto* clear = new QPushButton(tr("Show all"));
    m_range->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);

    auto* options = new QHBoxLayout;
    options->addWidget(new QLabel(tr("Colour by:")));
    options->addWidget(m_colorBy);
    options->addWidget(m_range, 1);
    options->addWidget(clear);
    auto* scroll = new QScrollArea;
    scroll->setWidget(m_details);
    scroll->setWidgetResizable(true);
    scroll->setMinimumWidth(260);
    auto* splitter = new QSplitter;
    splitter->addWidget(m_gantt);
    splitter->addWidget(scroll);
    splitter->setStretchFactor(0, 1);
    splitter->setSizes({1200, 300});
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new SimulationControls(m_session));
    layout->addLayout(options);
    layout->addWidget(splitter, 1);

    m_gantt->setColorBy(JobGanttView::ColorBy::Size); // the first entry; traces often name no users
    connect(m_colorBy, &QComboBox::currentIndexChanged, this,
        [this] { m_gantt->setColorBy(JobGanttView::ColorBy(m_colorBy->currentData().toInt())); });
    connect(clear, &QPushButton::clicked, this, [this] { m_session->setTimeRange(std::nullopt); });
    connect(m_gantt, &JobGanttView::jobClicked, m_session, &SimulationSession::selectJob);
    connect(m_session, &SimulationSession::dataChanged, this, &JobsPanel::showData);
    connect(m_session, &SimulationSession::timeRangeChanged, this, &JobsPanel::showRange);
    connect(m_session, &SimulationSession::selectedJobChanged, this, &JobsPanel::showJob);
    showData();
}

void JobsPanel::showData()
{
    m_gantt->setData(m_session->data());
    showRange();
    showJob(m_session->selectedJob());
}

void JobsPanel::showRange()
{
    const auto range = m_session->timeRange();
    m_gantt->setTimeRange(range);
    const auto sim = m_session->data();
    if (!sim) {
        m_range->setText(tr("Waiting for the simulation."));
        return;
    }
    const QString what
        = tr("%n job(s) on %1 node(s)", nullptr, int(m_gantt->shownJobs().size())).arg(m_gantt->shownNodes().size());
    if (!range) {
        m_range->setText(tr("All %1 · one row per GPU · thin grey line = waiting, black tick = preemption").arg(what));
        return;
    }
    const double origin = sim->outcome->result.startS;
    m_range->setText(tr("Time range %1 – %2 (picked in the heatmap): %3")
                         .arg(durationText(range->first - origin), durationText(range->second - origin), what));
}

QString JobsPanel::jobDetails(int job) const
{
    const auto sim = m_session->data();
    if (!sim || job < 0 || job >= int(sim->outcome->result.jobs.size()))
        return tr("<b>Click a job</b> to see its details here.");
    const auto& r = sim->outcome->result.jobs[static_cast<std::size_t>(job)];
    std::set<int> nodes;
    for (const auto& segment : r.segments)
        for (const auto& slice : segment.slices)
            nodes.insert(slice.node);
    QStringList nodeNames;
    for (int node : nodes)
        nodeNames << QString::number(node);
    const int groups = std::max(1, sim->workloadSpec.groups);
    const double origin = sim->outcome->result.startS;
    auto at = [&](double t) { return t < 0 ? tr("—") : durationText(t - origin); };
    QString html = tr("<h3>Job #%1</h3><table>").arg(r.jobId);
    auto row = [&html](const QString& name, const QString& value) {
        html += QStringLiteral("<tr><td>%1</td><td><b>%2</b></td></tr>").arg(name, value);
    };
    row(tr("User (group)"), tr("%1 (group %2)").arg(r.user).arg(r.user % groups));
    row(tr("GPUs"), r.gpus > 0 ? QString::number(r.gpus) : tr("%1 ‰ of one").arg(r.gpuMilli));
    row(tr("Submitted"), at(r.submitS));
    row(tr("First start"), at(r.startS));
    row(tr("Finished"), r.unfinished ? tr("unfinished") : at(r.endS));
    row(tr("Run time (dedicated)"), durationText(r.durationS));
    row(tr("Waiting in queue"), durationText(r.queuedS));
    if (!r.unfinished && r.endS >= 0)
        row(tr("Completion time"), durationText(r.endS - r.submitS));
    row(tr("Preemptions"), QString::number(r.preemptions));
    row(tr("Migrations"), QString::number(r.migrations));
    row(tr("Runs (segments)"), QString::number(r.segments.size()));
    row(tr("Nodes"), nodeNames.isEmpty() ? tr("—") : nodeNames.join(QStringLiteral(", ")));
    html += QStringLiteral("</table>");
    if (!r.note.empty())
        html += QStringLiteral("<p>%1</p>").arg(QString::fromStdString(r.note).toHtmlEscaped());
    html += tr("<p>Times are since the first submission. The job is outlined in the Gantt chart and the "
               "utilisation heatmap.</p>");
    return html;
}

void JobsPanel::showJob(int job)
{
    m_gantt->setSelectedJob(job);
    m_details->setText(jobDetails(job));
}

} // namespace clusterplanner::ui
