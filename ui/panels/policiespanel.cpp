// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/policiespanel.h"

#include "ui/charts/chartstyle.h"
#include "ui/charts/linechart.h"
#include "ui/sim/simulationlabels.h"
#include "ui/sim/simulationrunner.h"
#include "ui/sim/simulationsession.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace clusterplanner::ui {

namespace sched = core::sched;

namespace {

/// The comparison a new workload starts with: the classic queue orders and the two preemptive ones are cheap
/// enough for 100,000 jobs; the others are a click away.
bool checkedByDefault(sched::Policy policy)
{
    return policy == sched::Policy::Fifo || policy == sched::Policy::Sjf || policy == sched::Policy::Backfill
        || policy == sched::Policy::Tiresias;
}

QListWidget* checkList(QWidget* parent)
{
    auto* list = new QListWidget(parent);
    list->setMaximumWidth(210);
    return list;
}

QTableWidgetItem* numberItem(double value, const QString& text)
{
    auto* item = new QTableWidgetItem(text);
    item->setData(Qt::UserRole, value);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

} // namespace

PoliciesPanel::PoliciesPanel(ScenarioDocument* document, QWidget* parent)
    : QWidget(parent)
    , m_session(SimulationSession::of(document))
    , m_runner(new SimulationRunner(this))
    , m_policies(checkList(this))
    , m_placements(checkList(this))
    , m_run(new QPushButton(tr("Compare")))
    , m_cancel(new QPushButton(tr("Cancel")))
    , m_progress(new QProgressBar)
    , m_status(new QLabel)
    , m_table(new QTableWidget(0, ColumnCount))
    , m_jctChart(new LineChart)
    , m_waitChart(new LineChart)
    , m_utilizationChart(new LineChart)
{
    setObjectName(QStringLiteral("policiesPanel"));
    setProperty("dockHeightShare", 0.72); // MainWindow::showPanel: the chart needs most of the height
    for (auto policy : allPolicies()) {
        auto* item = new QListWidgetItem(policyLabel(policy), m_policies);
        item->setData(Qt::UserRole, int(policy));
        item->setCheckState(checkedByDefault(policy) ? Qt::Checked : Qt::Unchecked);
    }
    for (auto placement : allPlacements()) {
        auto* item = new QListWidgetItem(placementLabel(placement), m_placements);
        item->setData(Qt::UserRole, int(placement));
        item->setCheckState(placement == sched::PlacementStrategy::Pack ? Qt::Checked : Qt::Unchecked);
    }
    m_policies->setMaximumHeight(9 * 21);
    m_placements->setMaximumHeight(3 * 22 + 6);
    m_progress->setRange(0, 1000);
    m_status->setObjectName(QStringLiteral("comparisonStatus"));
    m_status->setWordWrap(true);
    m_table->setObjectName(QStringLiteral("policyTable"));
    m_table->setHorizontalHeaderLabels({tr("Policy"), tr("Placement"), tr("Makespan\n(h)"), tr("GPU util.\n(%)"),
        tr("JCT mean\n(h)"), tr("JCT p50\n(h)"), tr("JCT p90\n(h)"), tr("JCT p99\n(h)"), tr("Wait mean\n(h)"),
        tr("Wait p50\n(h)"), tr("Wait p90\n(h)"), tr("Wait p99\n(h)"), tr("Slow-\ndown"), tr("Frag.\nindex"),
        tr("Jain\nfairness"), tr("Pre-\nemptions"), tr("GPU energy\n(MWh)")});
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSortingEnabled(false);

    m_jctChart->setObjectName(QStringLiteral("policy-jct-cdf"));
    m_jctChart->setDisplayTitle(tr("Job completion time CDF"));
    m_jctChart->setAxisTitles(tr("job completion time (h, log scale)"), tr("share of finished jobs (%)"));
    m_jctChart->setLogX(true);
    m_waitChart->setObjectName(QStringLiteral("policy-wait-cdf"));
    m_waitChart->setDisplayTitle(tr("Queueing delay CDF"));
    m_waitChart->setAxisTitles(tr("time waiting in the queue (h)"), tr("share of started jobs (%)"));
    m_utilizationChart->setObjectName(QStringLiteral("policy-utilization"));
    m_utilizationChart->setDisplayTitle(tr("GPU utilisation over time"));
    m_utilizationChart->setAxisTitles(tr("time (% of each run's makespan)"), tr("GPUs busy (%)"));

    auto* side = new QVBoxLayout;
    side->addWidget(new QLabel(tr("Policies:")));
    side->addWidget(m_policies);
    side->addWidget(new QLabel(tr("Placements:")));
    side->addWidget(m_placements);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    side->addLayout(buttons);
    side->addWidget(m_progress);
    side->addWidget(m_status);
    side->addStretch(1);
    auto* charts = new QHBoxLayout;
    charts->addWidget(m_jctChart);
    charts->addWidget(m_waitChart);
    charts->addWidget(m_utilizationChart);
    auto* chartsWidget = new QWidget;
    chartsWidget->setLayout(charts);
    charts->setContentsMargins(0, 0, 0, 0);
    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(m_table);
    splitter->addWidget(chartsWidget);
    splitter->setSizes({260, 440});
    auto* layout = new QHBoxLayout(this);
    layout->addLayout(side);
    layout->addWidget(splitter, 1);

    connect(m_run, &QPushButton::clicked, this, &PoliciesPanel::run);
    connect(m_cancel, &QPushButton::clicked, m_runner, &SimulationRunner::cancel);
    connect(m_runner, &SimulationRunner::progress, m_progress, &QProgressBar::setValue);
    connect(m_runner, &SimulationRunner::resultReady, this, [this](int index, const std::any& result) {
        addResult(index, std::any_cast<std::shared_ptr<const PolicyRun>>(result));
    });
    connect(m_runner, &SimulationRunner::jobFailed, this, [this](int index, const QString& message) {
        m_table->setItem(index, MakespanColumn, new QTableWidgetItem(tr("failed: %1").arg(message)));
    });
    connect(m_runner, &SimulationRunner::finished, this, [this] {
        m_cancel->setEnabled(false);
        m_status->setText(tr("%n run(s) compared on the same workload.", nullptr, m_table->rowCount()));
    });
    connect(m_runner, &SimulationRunner::cancelled, this, [this] {
        m_cancel->setEnabled(false);
        m_status->setText(tr("Cancelled."));
    });
    connect(m_session, &SimulationSession::dataChanged, this, [this] {
        m_stale = true;
        if (isVisible()) // hidden tabs wait: several 100,000-job runs are not free
            run();
    });
    m_cancel->setEnabled(false);
    m_status->setText(tr("Waiting for the workload."));
}

void PoliciesPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_stale && m_session->data())
        run();
}

void PoliciesPanel::run()
{
    const auto sim = m_session->data();
    if (!sim)
        return;
    m_stale = false;
    std::vector<std::pair<sched::Policy, sched::PlacementStrategy>> pairs;
    for (int p = 0; p < m_policies->count(); ++p)
        for (int q = 0; q < m_placements->count(); ++q)
            if (m_policies->item(p)->checkState() == Qt::Checked && m_placements->item(q)->checkState() == Qt::Checked)
                pairs.emplace_back(sched::Policy(m_policies->item(p)->data(Qt::UserRole).toInt()),
                    sched::PlacementStrategy(m_placements->item(q)->data(Qt::UserRole).toInt()));
    m_table->setRowCount(int(pairs.size()));
    m_runs.assign(pairs.size(), nullptr);
    std::vector<SimulationJob> jobs;
    for (int i = 0; i < int(pairs.size()); ++i) {
        const auto [policy, placement] = pairs[static_cast<std::size_t>(i)];
        m_table->setItem(i, PolicyColumn, new QTableWidgetItem(policyLabel(policy)));
        m_table->setItem(i, PlacementColumn, new QTableWidgetItem(placementLabel(placement)));
        for (int c = MakespanColumn; c < ColumnCount; ++c)
            m_table->setItem(i, c, new QTableWidgetItem(c == MakespanColumn ? tr("running…") : QString()));
        // Structured bindings are copied by name: clang before 16 cannot capture them directly (P1091).
        jobs.push_back([sim, policy = policy, placement = placement](
                           std::stop_token stop, const std::function<void(double)>& progress) {
            return std::any(runPolicy(sim->cluster, *sim->workload, policy, placement, stop, progress));
        });
    }
    redrawCharts();
    if (jobs.empty()) {
        m_runner->cancel();
        m_status->setText(tr("Check at least one policy and one placement."));
        return;
    }
    m_status->setText(
        tr("Simulating %n run(s) of %1 jobs in parallel…", nullptr, int(jobs.size())).arg(sim->summary.jobs));
    m_cancel->setEnabled(true);
    m_runner->start(std::move(jobs));
}

void PoliciesPanel::addResult(int index, const std::shared_ptr<const PolicyRun>& run)
{
    m_runs[static_cast<std::size_t>(index)] = run;
    const auto& m = run->metrics;
    auto hours = [](double s) { return s / 3600; };
    auto set = [&](int column, double value, int decimals) {
        m_table->setItem(index, column, numberItem(value, QString::number(value, 'f', decimals)));
    };
    set(MakespanColumn, hours(m.makespanS), 2);
    set(UtilizationColumn, 100 * m.gpuUtilization, 1);
    set(JctMeanColumn, hours(m.jctS.mean), 2);
    set(JctP50Column, hours(m.jctS.p50), 2);
    set(JctP90Column, hours(m.jctS.p90), 2);
    set(JctP99Column, hours(m.jctS.p99), 2);
    set(WaitMeanColumn, hours(m.waitS.mean), 2);
    set(WaitP50Column, hours(m.waitS.p50), 2);
    set(WaitP90Column, hours(m.waitS.p90), 2);
    set(WaitP99Column, hours(m.waitS.p99), 2);
    set(SlowdownColumn, m.meanSlowdown, 2);
    set(FragmentationColumn, m.fragmentationIndex, 3);
    set(JainColumn, m.jainFairness, 3);
    set(PreemptionsColumn, m.preemptions, 0);
    set(EnergyColumn, m.energyKwh / 1000, 2);
    m_table->item(index, MakespanColumn)->setData(Qt::UserRole, m.makespanS); // exact seconds, for checks
    redrawCharts();
}

void PoliciesPanel::redrawCharts()
{
    QVector<LineSeries> jct, wait, utilization;
    for (int i = 0; i < int(m_runs.size()); ++i) {
        const auto& run = m_runs[static_cast<std::size_t>(i)];
        if (!run)
            continue;
        // Short names: four to a dozen legend entries share one line above a third of the panel.
        const QString name = QString::fromLatin1(sched::toString(run->options.policy).data()) + QLatin1Char('/')
            + QString::fromLatin1(sched::toString(run->options.placement).data());
        const QColor color = categoryColor(i);
        LineSeries j {name, color, {}, {}, false, false, false};
        for (std::size_t k = 0; k < run->jct.x.size(); ++k) {
            j.x << std::max(run->jct.x[k], 1.0) / 3600; // log axis: clamp 0 s runs to 1 s
            j.y << 100 * run->jct.share[k];
        }
        LineSeries w {name, color, {}, {}, false, false, false};
        for (std::size_t k = 0; k < run->wait.x.size(); ++k) {
            w.x << run->wait.x[k] / 3600;
            w.y << 100 * run->wait.share[k];
        }
        LineSeries u {name, color, {}, {}, false, false, false};
        const auto& bins = run->metrics.utilizationOverTime;
        for (std::size_t b = 0; b < bins.size(); ++b) {
            u.x << 100.0 * (double(b) + 0.5) / double(bins.size());
            u.y << 100 * bins[b];
        }
        jct << j;
        wait << w;
        utilization << u;
    }
    m_jctChart->setSeries(jct);
    m_waitChart->setSeries(wait);
    m_utilizationChart->setSeries(utilization);
}

} // namespace clusterplanner::ui
