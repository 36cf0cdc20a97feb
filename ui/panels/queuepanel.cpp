// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/queuepanel.h"

#include "core/sched/scenariocluster.h"
#include "core/sched/simulationrun.h"
#include "ui/charts/chartstyle.h"
#include "ui/charts/linechart.h"
#include "ui/panels/panelwidgets.h"
#include "ui/sim/simulationlabels.h"
#include "ui/sim/simulationrunner.h"
#include "ui/sim/simulationsession.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include <cmath>

namespace clusterplanner::ui {

namespace sched = core::sched;

namespace {

constexpr int kSweepPoints = 7;
constexpr double kShortestWaitMin = 0.01;

/// Simulates the shared workload on `gpus` GPUs under the session's policy and prices that cluster.
SimulationJob capacityJob(std::shared_ptr<const SimulationData> sim, int gpus, sched::Policy policy)
{
    return [sim, gpus, policy](std::stop_token stop, const std::function<void(double)>& progress) {
        sched::SimulationOptions options;
        options.policy = policy;
        options.recordTimeline = false;
        sched::CapacityPoint point;
        point.gpus = gpus;
        point.metrics = sched::runSimulation(
            sched::simulationCluster(sim->scenario, gpus), *sim->workload, options, stop, progress)
                            .metrics;
        point.cost = sched::capacityCost(sim->scenario, gpus);
        return std::any(point);
    };
}

} // namespace

QueuePanel::QueuePanel(ScenarioDocument* document, QWidget* parent)
    : QWidget(parent)
    , m_session(SimulationSession::of(document))
    , m_pointRunner(new SimulationRunner(this))
    , m_sweepRunner(new SimulationRunner(this))
    , m_arrivals(numberField(0.001, 1e7, 2, tr(" jobs/h")))
    , m_gpusPerJob(numberField(0.01, 1e5, 2, tr(" GPUs")))
    , m_durationH(numberField(0.0001, 1e5, 3, tr(" h")))
    , m_targetMin(numberField(0.01, 1e6, 1, tr(" min")))
    , m_answer(new QLabel)
    , m_erlang(new LineChart)
    , m_sweepTime(new LineChart)
    , m_sweepCost(new LineChart)
{
    setObjectName(QStringLiteral("queuePanel"));
    setProperty("dockHeightShare", 0.72); // MainWindow::showPanel: the chart needs most of the height
    m_targetMin->setValue(10);
    m_answer->setObjectName(QStringLiteral("queueAnswer"));
    m_answer->setWordWrap(true);
    m_answer->setTextFormat(Qt::RichText);
    m_erlang->setObjectName(QStringLiteral("queue-erlang"));
    m_erlang->setDisplayTitle(tr("Erlang C: waiting against cluster size"));
    m_erlang->setAxisTitles(tr("cluster GPUs"), tr("mean wait in queue (min, log scale)"), tr("P(wait) (%)"));
    m_erlang->setLogY(true);
    m_sweepTime->setObjectName(QStringLiteral("capacity-time"));
    m_sweepTime->setDisplayTitle(tr("Capacity sweep: wait, JCT and utilisation"));
    m_sweepTime->setAxisTitles(tr("cluster GPUs (simulated)"), tr("hours"), tr("GPU utilisation (%)"));
    m_sweepCost->setObjectName(QStringLiteral("capacity-cost"));
    m_sweepCost->setDisplayTitle(tr("Capacity sweep: owned cost and mean wait"));
    m_sweepCost->setAxisTitles(
        tr("cluster GPUs (simulated)"), tr("owned cost (million USD per year)"), tr("mean wait (h)"));

    // Two rows, so that the panel stays narrow enough to share the window.
    auto* inputs = new QGridLayout;
    auto add = [&](int row, int column, const QString& label, QWidget* box) {
        inputs->addWidget(new QLabel(label), row, 2 * column);
        inputs->addWidget(box, row, 2 * column + 1);
    };
    add(0, 0, tr("Arrivals:"), m_arrivals);
    add(0, 1, tr("Mean job size:"), m_gpusPerJob);
    add(0, 2, tr("Mean run time:"), m_durationH);
    add(1, 0, tr("Target mean wait:"), m_targetMin);
    auto* fromWorkload = new QPushButton(tr("From workload"));
    inputs->addWidget(fromWorkload, 1, 3);
    inputs->setColumnStretch(6, 1);
    auto* charts = new QHBoxLayout;
    charts->addWidget(m_erlang);
    charts->addWidget(m_sweepTime);
    charts->addWidget(m_sweepCost);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(inputs);
    layout->addWidget(m_answer);
    layout->addLayout(charts, 1);

    m_debounce.setSingleShot(true);
    m_debounce.setInterval(300);
    connect(&m_debounce, &QTimer::timeout, this, &QueuePanel::sizeCluster);
    for (auto* box : {m_arrivals, m_gpusPerJob, m_durationH, m_targetMin})
        connect(box, &QDoubleSpinBox::valueChanged, this, [this] {
            if (!m_filling)
                m_debounce.start();
        });
    connect(fromWorkload, &QPushButton::clicked, this, [this] {
        takeInputsFromWorkload();
        sizeCluster();
    });
    connect(m_pointRunner, &SimulationRunner::resultReady, this, [this](int, const std::any& result) {
        m_simulated = std::any_cast<sched::CapacityPoint>(result);
        drawErlang();
        showAnswer();
    });
    connect(m_sweepRunner, &SimulationRunner::resultReady, this, [this](int, const std::any& result) {
        const auto point = std::any_cast<sched::CapacityPoint>(result);
        m_sweep[point.gpus] = point; // streams in: each point is drawn as it ends
        drawSweep();
    });
    connect(m_session, &SimulationSession::dataChanged, this, [this] {
        m_stale = true;
        if (isVisible()) // hidden tabs wait: a sweep of 100,000-job runs is not free
            refreshFromWorkload();
    });
}

void QueuePanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_stale && m_session->data())
        refreshFromWorkload();
}

void QueuePanel::refreshFromWorkload()
{
    m_stale = false;
    takeInputsFromWorkload();
    sizeCluster();
    startSweep();
}

void QueuePanel::takeInputsFromWorkload()
{
    const auto sim = m_session->data();
    if (!sim || sim->summary.jobs < 2)
        return;
    const auto& s = sim->summary;
    m_filling = true;
    m_arrivals->setValue(s.arrivalsPerHour);
    m_gpusPerJob->setValue(std::max(0.01, s.meanGpus));
    m_durationH->setValue(std::max(0.0001, s.meanDurationS / 3600));
    m_filling = false;
}

core::queue::QueueSizingInput QueuePanel::input() const
{
    return {m_arrivals->value(), m_gpusPerJob->value(), m_durationH->value() * 3600, m_targetMin->value() * 60};
}

void QueuePanel::sizeCluster()
{
    m_debounce.stop();
    m_simulated.reset();
    try {
        m_sizing = core::queue::sizeQueue(input());
    } catch (const std::exception& error) {
        m_sizing.reset();
        m_answer->setText(tr("Cannot size the queue: %1").arg(QString::fromUtf8(error.what())));
        m_pointRunner->cancel();
        drawErlang();
        return;
    }
    const auto sim = m_session->data();
    if (sim && m_sizing->gpusForTarget <= 10'000'000)
        m_pointRunner->start({capacityJob(sim, int(m_sizing->gpusForTarget), m_session->policy())});
    drawErlang();
    showAnswer();
}

void QueuePanel::startSweep()
{
    m_sweep.clear();
    drawSweep();
    const auto sim = m_session->data();
    if (!sim)
        return;
    std::vector<SimulationJob> jobs;
    for (int gpus :
        sched::capacityGrid(sim->cluster.gpuCount(), std::max(1, sim->scenario.cluster.gpusPerNode), kSweepPoints))
        jobs.push_back(capacityJob(sim, gpus, m_session->policy()));
    m_sweepRunner->start(std::move(jobs));
}

void QueuePanel::drawErlang()
{
    if (!m_sizing) {
        m_erlang->setSeries({});
        return;
    }
    LineSeries wait {tr("mean wait"), categoryColor(0), {}, {}, false, false, false};
    LineSeries pWait {tr("P(wait)"), categoryColor(1), {}, {}, true, true};
    double maxWaitMin = 0;
    for (const auto& p : m_sizing->curve) {
        if (!std::isfinite(p.meanWaitS))
            continue;
        pWait.x << double(p.gpus);
        pWait.y << 100 * p.pWait;
        if (p.meanWaitS / 60 < kShortestWaitMin)
            continue; // below a second the log axis would stretch over decades of nothing
        wait.x << double(p.gpus);
        wait.y << p.meanWaitS / 60;
        maxWaitMin = std::max(maxWaitMin, p.meanWaitS / 60);
    }
    const double target = m_targetMin->value();
    LineSeries targetLine {tr("target"), categoryColor(7), {}, {}, true, false};
    if (!pWait.x.isEmpty()) {
        targetLine.x << pWait.x.front() << pWait.x.back();
        targetLine.y << target << target;
    }
    LineSeries answer {tr("%1 GPUs").arg(m_sizing->gpusForTarget), categoryColor(5), {}, {}, true, false};
    answer.x << double(m_sizing->gpusForTarget) << double(m_sizing->gpusForTarget);
    answer.y << (wait.y.isEmpty() ? kShortestWaitMin : *std::min_element(wait.y.begin(), wait.y.end()))
             << std::max(maxWaitMin, target);
    QVector<LineSeries> series {wait, pWait, targetLine, answer};
    if (m_simulated && m_simulated->metrics.waitS.mean > 0) {
        LineSeries sim {tr("simulated"), categoryColor(3), {}, {}, false, false, true};
        sim.x << double(m_simulated->gpus);
        sim.y << m_simulated->metrics.waitS.mean / 60;
        series << sim;
    }
    m_erlang->setSeries(series);
}

void QueuePanel::showAnswer()
{
    if (!m_sizing)
        return;
    const auto& s = *m_sizing;
    QString text = tr("<b>M/M/c approximation: the smallest cluster with a mean wait ≤ %1 is %2 GPUs</b> (%3 "
                      "servers of %4 GPUs; offered load %5 servers, utilisation %6 %, P(wait) %7 %).")
                       .arg(durationText(s.input.targetMeanWaitS))
                       .arg(s.gpusForTarget)
                       .arg(s.serversForTarget)
                       .arg(s.input.meanGpusPerJob, 0, 'f', 2)
                       .arg(s.offeredLoadErlangs, 0, 'f', 1)
                       .arg(100 * s.atTarget.utilization, 0, 'f', 1)
                       .arg(100 * s.atTarget.pWait, 0, 'f', 1);
    if (m_simulated) {
        const auto& m = m_simulated->metrics;
        text += tr("<br><b>Simulator, %1 on %2 GPUs with this workload: mean wait %3</b> (p90 %4, GPU utilisation "
                   "%5 %). ")
                    .arg(policyLabel(m_session->policy()))
                    .arg(m_simulated->gpus)
                    .arg(durationText(m.waitS.mean), durationText(m.waitS.p90))
                    .arg(100 * m.gpuUtilization, 0, 'f', 1);
        text += whyTheyDiffer(m.makespanS);
    } else if (m_session->data()) {
        text += tr("<br>Simulating the workload on %1 GPUs…").arg(s.gpusForTarget);
    }
    m_answer->setText(text);
}

QString QueuePanel::whyTheyDiffer(double makespanS) const
{
    // A finite trace whose jobs all arrive early is a burst that drains, not the steady stream M/M/c assumes; said
    // plainly, since the two answers can then differ by a factor of several.
    const auto sim = m_session->data();
    if (sim && sim->summary.spanS > 0 && makespanS > 2 * sim->summary.spanS)
        return tr("This workload's %L1 jobs all arrive within %2 and the simulated cluster finishes them %3 after the "
                  "first: M/M/c assumes the arrival rate holds for ever, a steady load this finite workload never "
                  "sustains, so it asks for more GPUs than the simulation needs.")
            .arg(sim->summary.jobs)
            .arg(durationText(sim->summary.spanS), durationText(makespanS));
    return tr("Heavy-tailed run times and whole-node jobs make the simulated wait differ from the M/M/c figure.");
}

void QueuePanel::drawSweep()
{
    LineSeries wait {tr("mean wait (h)"), categoryColor(0), {}, {}, false, false};
    LineSeries jct {tr("mean JCT (h)"), categoryColor(1), {}, {}, false, false};
    LineSeries utilization {tr("GPU utilisation (%)"), categoryColor(2), {}, {}, true, true};
    LineSeries cost {tr("owned cost (M USD/year)"), categoryColor(5), {}, {}, false, false};
    LineSeries costWait {tr("mean wait (h)"), categoryColor(0), {}, {}, true, true};
    for (const auto& [gpus, p] : m_sweep) {
        wait.x << gpus;
        wait.y << p.metrics.waitS.mean / 3600;
        jct.x << gpus;
        jct.y << p.metrics.jctS.mean / 3600;
        utilization.x << gpus;
        utilization.y << 100 * p.metrics.gpuUtilization;
        cost.x << gpus;
        cost.y << p.cost.usdPerYear / 1e6;
        costWait.x << gpus;
        costWait.y << p.metrics.waitS.mean / 3600;
    }
    m_sweepTime->setSeries({wait, jct, utilization});
    m_sweepCost->setSeries({cost, costWait});
}

} // namespace clusterplanner::ui
