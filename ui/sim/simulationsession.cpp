// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/sim/simulationsession.h"

#include "core/sched/scenariocluster.h"
#include "core/sched/workloadspec.h"
#include "ui/document/scenariodocument.h"
#include "ui/sim/simulationrunner.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QFileInfo>
#include <QThread>
#include <QThreadPool>

#include <utility>

namespace clusterplanner::ui {

namespace {

constexpr int kDebounceMs = 400;

/// Builds the workload and simulates it, in a pool thread.
SimulationJob simulationJob(const core::Scenario& scenario, const std::string& folder, core::sched::Policy policy,
    core::sched::PlacementStrategy placement)
{
    return [scenario, folder, policy, placement](std::stop_token stop, const std::function<void(double)>& progress) {
        namespace sched = core::sched;
        auto data = std::make_shared<SimulationData>();
        data->scenario = scenario;
        data->workloadSpec = SimulationSession::workloadOf(scenario);
        data->cluster = sched::simulationCluster(scenario);
        data->workload = std::make_shared<const sched::Workload>(
            sched::buildWorkload(data->workloadSpec, data->cluster.gpuCount(), folder));
        data->summary = sched::summarizeWorkload(*data->workload);
        sched::SimulationOptions options;
        options.policy = policy;
        options.placement = placement;
        options.recordTimeline = true; // the heatmap bins the per-node timeline
        data->outcome = std::make_shared<const sched::SimulationOutcome>(
            sched::runSimulation(data->cluster, *data->workload, options, stop, progress));
        data->runs = std::make_shared<const sched::NodeRunIndex>(data->outcome->result);
        return std::any(std::shared_ptr<const SimulationData>(std::move(data)));
    };
}

} // namespace

SimulationSession* SimulationSession::of(ScenarioDocument* document)
{
    if (auto* existing = document->findChild<SimulationSession*>(QString(), Qt::FindDirectChildrenOnly))
        return existing;
    return new SimulationSession(document);
}

SimulationSession::SimulationSession(ScenarioDocument* document)
    : QObject(document)
    , m_document(document)
    , m_runner(new SimulationRunner(this))
{
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(kDebounceMs);
    connect(&m_debounce, &QTimer::timeout, this, &SimulationSession::restart);
    connect(document, &ScenarioDocument::scenarioChanged, this, &SimulationSession::onScenarioChanged);
    connect(m_runner, &SimulationRunner::progress, this, &SimulationSession::progress);
    connect(m_runner, &SimulationRunner::cancelled, this, &SimulationSession::cancelled);
    connect(m_runner, &SimulationRunner::resultReady, this, [this](int, const std::any& result) {
        auto previous = std::exchange(m_data, std::any_cast<std::shared_ptr<const SimulationData>>(result));
        m_error.clear();
        m_selectedJob = -1;
        m_timeRange.reset();
        Q_EMIT dataChanged();
        // Freeing 100,000 job records takes tens of milliseconds: let a pool thread drop the last reference.
        QThreadPool::globalInstance()->start([previous = std::move(previous)]() mutable { previous.reset(); });
    });
    connect(m_runner, &SimulationRunner::jobFailed, this, [this](int, const QString& message) {
        m_error = message;
        Q_EMIT failed(message);
    });
    restart(); // at once: a screenshot taken at start-up must find the run already going
}

bool SimulationSession::isRunning() const
{
    return m_runner->isRunning() || m_debounce.isActive();
}

core::sched::WorkloadSpec SimulationSession::workloadOf(const core::Scenario& scenario)
{
    return scenario.workload ? *scenario.workload : core::sched::WorkloadSpec {};
}

QString SimulationSession::scenarioFolder() const
{
    const QString file = m_document->fileName();
    return file.isEmpty() ? QString() : QFileInfo(file).absolutePath();
}

void SimulationSession::setPolicy(core::sched::Policy policy, core::sched::PlacementStrategy placement)
{
    if (policy == m_policy && placement == m_placement)
        return;
    m_policy = policy;
    m_placement = placement;
    restart();
}

void SimulationSession::setTimeRange(std::optional<std::pair<double, double>> range)
{
    if (range && range->second < range->first)
        std::swap(range->first, range->second);
    if (range == m_timeRange)
        return;
    m_timeRange = range;
    Q_EMIT timeRangeChanged();
}

void SimulationSession::selectJob(int job)
{
    if (job == m_selectedJob)
        return;
    m_selectedJob = job;
    Q_EMIT selectedJobChanged(job);
}

void SimulationSession::restart()
{
    m_debounce.stop();
    m_runner->start({simulationJob(m_document->scenario(), scenarioFolder().toStdString(), m_policy, m_placement)});
    Q_EMIT started();
}

void SimulationSession::cancel()
{
    m_debounce.stop();
    m_runner->cancel();
}

bool SimulationSession::waitUntilIdle(int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    while (isRunning() && !deadline.hasExpired()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QThread::msleep(2);
    }
    return !isRunning();
}

void SimulationSession::onScenarioChanged(ScenarioChanges changes)
{
    // The simulation reads the cluster and the workload; a new or loaded document changes every part.
    if (!(changes & (ScenarioChange::Cluster | ScenarioChange::Workload)))
        return;
    if (changes == kAllScenarioChanges)
        restart();
    else
        m_debounce.start();
}

} // namespace clusterplanner::ui
