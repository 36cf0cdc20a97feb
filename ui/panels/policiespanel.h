// SPDX-License-Identifier: GPL-3.0-or-later
// Policy comparison: the chosen policies × placements simulated in parallel on the shared workload; a table of
// their metrics (filled as each run ends) and CDF and utilisation charts, each exportable.
#pragma once

#include "ui/sim/policyrun.h"

#include <QWidget>

#include <vector>

class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace clusterplanner::ui {

class LineChart;
class ScenarioDocument;
class SimulationRunner;
class SimulationSession;

class PoliciesPanel : public QWidget
{
    Q_OBJECT
public:
    explicit PoliciesPanel(ScenarioDocument* document, QWidget* parent = nullptr);

    QTableWidget* table() const { return m_table; }
    SimulationRunner* runner() const { return m_runner; }
    QListWidget* policyList() const { return m_policies; }
    QListWidget* placementList() const { return m_placements; }
    LineChart* jctChart() const { return m_jctChart; }
    /// Starts the comparison of the checked policies and placements on the session's workload.
    void run();
    /// The runs received so far, in table order (null where a run has not ended).
    const std::vector<std::shared_ptr<const PolicyRun>>& runs() const { return m_runs; }

    /// Table columns (the raw value of a cell is under Qt::UserRole).
    enum Column {
        PolicyColumn,
        PlacementColumn,
        MakespanColumn,
        UtilizationColumn,
        JctMeanColumn,
        JctP50Column,
        JctP90Column,
        JctP99Column,
        WaitMeanColumn,
        WaitP50Column,
        WaitP90Column,
        WaitP99Column,
        SlowdownColumn,
        FragmentationColumn,
        JainColumn,
        PreemptionsColumn,
        EnergyColumn,
        ColumnCount
    };

protected:
    /// A comparison of a workload that arrived while the panel was hidden starts when it is shown.
    void showEvent(QShowEvent* event) override;

private:
    void addResult(int index, const std::shared_ptr<const PolicyRun>& run);
    void redrawCharts();

    SimulationSession* m_session;
    SimulationRunner* m_runner;
    QListWidget* m_policies;
    QListWidget* m_placements;
    QPushButton* m_run;
    QPushButton* m_cancel;
    QProgressBar* m_progress;
    QLabel* m_status;
    QTableWidget* m_table;
    LineChart* m_jctChart;
    LineChart* m_waitChart;
    LineChart* m_utilizationChart;
    std::vector<std::shared_ptr<const PolicyRun>> m_runs;
    bool m_stale = true; ///< the session has data this panel has not compared yet
};

} // namespace clusterplanner::ui
