// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/utilizationpanel.h"

#include "ui/charts/numberformat.h"
#include "ui/sim/simulationcontrols.h"
#include "ui/sim/simulationlabels.h"
#include "ui/sim/simulationsession.h"
#include "ui/sim/utilizationview.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace clusterplanner::ui {

namespace sched = core::sched;

namespace {
constexpr int kNodeRowsUpTo = 64; ///< clusters of at most this many nodes start with one row per node
}

UtilizationPanel::UtilizationPanel(ScenarioDocument* document, QWidget* parent)
    : QWidget(parent)
    , m_session(SimulationSession::of(document))
    , m_controls(new SimulationControls(m_session))
    , m_resource(new QComboBox)
    , m_grouping(new QComboBox)
    , m_headline(new QLabel)
    , m_range(new QLabel)
    , m_view(new UtilizationView)
{
    setObjectName(QStringLiteral("utilizationPanel"));
    setProperty("dockHeightShare", 0.72); // MainWindow::showPanel: the chart needs most of the height
    for (auto resource : {sched::UsageResource::Gpu, sched::UsageResource::HostMemory, sched::UsageResource::Cpu,
             sched::UsageResource::Network})
        m_resource->addItem(resourceLabel(resource), int(resource));
    m_grouping->addItem(tr("by rack"), int(UtilizationView::Grouping::Rack));
    m_grouping->addItem(tr("by GPU type"), int(UtilizationView::Grouping::GpuType));
    m_grouping->addItem(tr("every node"), int(UtilizationView::Grouping::Node));
    m_headline->setObjectName(QStringLiteral("headline"));
    QFont bold = m_headline->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.15);
    m_headline->setFont(bold);
    m_headline->setWordWrap(true);
    auto* reset = new QPushButton(tr("Reset zoom"));
    m_range->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto* clear = new QPushButton(tr("Clear range"));

    auto* options = new QHBoxLayout;
    options->addWidget(new QLabel(tr("Colour:")));
    options->addWidget(m_resource);
    options->addWidget(new QLabel(tr("Rows:")));
    options->addWidget(m_grouping);
    options->addWidget(reset);
    options->addWidget(m_range, 1);
    options->addWidget(clear);
    auto* hint = new QLabel(tr("Drag across the heatmap to pick a time range (it filters the Job Gantt panel) · "
                               "wheel zooms · right-drag pans · double-click a rack or GPU type to expand it"));
    hint->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_controls);
    layout->addWidget(m_headline);
    layout->addLayout(options);
    layout->addWidget(m_view, 1);
    layout->addWidget(hint);

    connect(m_resource, &QComboBox::currentIndexChanged, this,
        [this] { m_view->setResource(sched::UsageResource(m_resource->currentData().toInt())); });
    connect(m_grouping, &QComboBox::currentIndexChanged, this,
        [this] { m_view->setGrouping(UtilizationView::Grouping(m_grouping->currentData().toInt())); });
    connect(reset, &QPushButton::clicked, m_view, &UtilizationView::resetZoom);
    connect(clear, &QPushButton::clicked, this, [this] { m_session->setTimeRange(std::nullopt); });
    connect(m_view, &UtilizationView::timeRangeSelected, m_session, &SimulationSession::setTimeRange);
    connect(m_session, &SimulationSession::dataChanged, this, &UtilizationPanel::showData);
    connect(m_session, &SimulationSession::timeRangeChanged, this, &UtilizationPanel::showRange);
    connect(m_session, &SimulationSession::selectedJobChanged, m_view, &UtilizationView::setHighlightedJob);
    m_view->setGrouping(UtilizationView::Grouping::Rack);
    showData();
}

QString UtilizationPanel::headline() const
{
    return m_headline->text();
}

void UtilizationPanel::showData()
{
    const auto sim = m_session->data();
    if (sim && sim->cluster.nodeCount() != m_nodes) {
        // A new cluster: a few nodes read best one row each, a large cluster one row per rack.
        m_nodes = sim->cluster.nodeCount();
        const auto grouping
            = m_nodes <= kNodeRowsUpTo ? UtilizationView::Grouping::Node : UtilizationView::Grouping::Rack;
        const QSignalBlocker blocker(m_grouping);
        m_grouping->setCurrentIndex(m_grouping->findData(int(grouping)));
        m_view->setGrouping(grouping);
    }
    m_view->setData(sim);
    if (!sim) {
        m_headline->setText(tr("Utilisation heatmap: waiting for the simulation."));
        return;
    }
    const auto& m = sim->outcome->metrics;
    m_headline->setText(
        tr("%1 jobs on %2 GPUs (%3 nodes), %4 + %5: GPUs %6 % busy over the %7 makespan "
           "(%8 % while any job ran), fragmentation index %9")
            .arg(formatCount(m.jobs))
            .arg(formatCount(sim->cluster.gpuCount()))
            .arg(formatCount(sim->cluster.nodeCount()))
            .arg(policyLabel(sim->outcome->options.policy), placementLabel(sim->outcome->options.placement))
            .arg(100 * m.gpuUtilization, 0, 'f', 1)
            .arg(durationText(m.makespanS))
            .arg(100 * m.gpuUtilizationBusy, 0, 'f', 1)
            .arg(m.fragmentationIndex, 0, 'f', 2));
    showRange();
}

void UtilizationPanel::showRange()
{
    const auto range = m_session->timeRange();
    m_view->setSelection(range);
    const auto sim = m_session->data();
    if (!range || !sim) {
        m_range->setText(tr("Time range: the whole run"));
        return;
    }
    const double origin = sim->outcome->result.startS;
    m_range->setText(tr("Time range: %1 – %2 after the first submission")
                         .arg(durationText(range->first - origin), durationText(range->second - origin)));
}

} // namespace clusterplanner::ui
