// SPDX-License-Identifier: GPL-3.0-or-later
// The shared simulation of a document: builds the workload, simulates it under the chosen policy off the GUI
// thread, and holds what the linked panels share (the time range picked in the heatmap, the selected job).
#pragma once

#include "core/sched/simulation.h"
#include "ui/document/scenariochange.h"
#include "ui/sim/simulationdata.h"

#include <QObject>
#include <QString>
#include <QTimer>

#include <memory>
#include <optional>
#include <utility>

namespace clusterplanner::ui {

class ScenarioDocument;
class SimulationRunner;

class SimulationSession : public QObject
{
    Q_OBJECT
public:
    /// The session of a document, created (as the document's child) on first use, so that every panel of the
    /// document shares one simulation.
    static SimulationSession* of(ScenarioDocument* document);

    ScenarioDocument* document() const { return m_document; }
    SimulationRunner* runner() const { return m_runner; }
    /// The last finished simulation, or null before the first one (or after a failure of the workload).
    std::shared_ptr<const SimulationData> data() const { return m_data; }
    QString error() const { return m_error; }
    bool isRunning() const;

    core::sched::Policy policy() const { return m_policy; }
    core::sched::PlacementStrategy placement() const { return m_placement; }
    /// Changes the policy of the shared run and simulates again.
    void setPolicy(core::sched::Policy policy, core::sched::PlacementStrategy placement);

    /// Time range [from, to) in simulation seconds picked in the heatmap; empty = the whole run.
    std::optional<std::pair<double, double>> timeRange() const { return m_timeRange; }
    void setTimeRange(std::optional<std::pair<double, double>> range);
    /// Index into the result's jobs; -1 = none.
    int selectedJob() const { return m_selectedJob; }
    void selectJob(int job);

    /// Simulates the document's scenario again now (cancelling a run in progress).
    void restart();
    void cancel();
    /// Handles events until no simulation runs (or the time is up); for screenshots and tests.
    bool waitUntilIdle(int timeoutMs);

    /// The workload the session simulates for a scenario: its own, or the default synthetic stream.
    static core::sched::WorkloadSpec workloadOf(const core::Scenario& scenario);
    /// Folder that relative trace paths are read from: the document's file's folder (empty if unsaved).
    QString scenarioFolder() const;

Q_SIGNALS:
    void started();
    void progress(int permille);
    void dataChanged();
    void failed(const QString& message);
    void cancelled();
    void timeRangeChanged();
    void selectedJobChanged(int job);

private:
    explicit SimulationSession(ScenarioDocument* document);
    void onScenarioChanged(ScenarioChanges changes);

    ScenarioDocument* m_document;
    SimulationRunner* m_runner;
    QTimer m_debounce; ///< typing in the workload form restarts once, after a pause
    std::shared_ptr<const SimulationData> m_data;
    QString m_error;
    core::sched::Policy m_policy = core::sched::Policy::Fifo;
    core::sched::PlacementStrategy m_placement = core::sched::PlacementStrategy::Pack;
    std::optional<std::pair<double, double>> m_timeRange;
    int m_selectedJob = -1;
};

} // namespace clusterplanner::ui
