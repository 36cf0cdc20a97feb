// SPDX-License-Identifier: GPL-3.0-or-later
// Queue sizing and capacity sweep: Erlang C curves (P(wait), mean wait against cluster GPUs) and the smallest
// cluster meeting a mean-wait target, beside the simulator's figure for that size on the scenario's workload;
// then the workload simulated on clusters from half to twice the scenario's size, with the owned cost of each.
#pragma once

#include "core/queue/queuesizing.h"
#include "core/sched/capacitysweep.h"

#include <QTimer>
#include <QWidget>

#include <map>
#include <optional>

class QDoubleSpinBox;
class QLabel;

namespace clusterplanner::ui {

class LineChart;
class ScenarioDocument;
class SimulationRunner;
class SimulationSession;

class QueuePanel : public QWidget
{
    Q_OBJECT
public:
    explicit QueuePanel(ScenarioDocument* document, QWidget* parent = nullptr);

    QDoubleSpinBox* arrivalsBox() const { return m_arrivals; }
    QDoubleSpinBox* gpusPerJobBox() const { return m_gpusPerJob; }
    QDoubleSpinBox* durationBox() const { return m_durationH; }
    QDoubleSpinBox* targetBox() const { return m_targetMin; }
    QLabel* answerLabel() const { return m_answer; }
    LineChart* erlangChart() const { return m_erlang; }
    SimulationRunner* pointRunner() const { return m_pointRunner; }
    SimulationRunner* sweepRunner() const { return m_sweepRunner; }
    /// The last sizing drawn (empty when the inputs were invalid).
    const std::optional<core::queue::QueueSizing>& sizing() const { return m_sizing; }
    /// The simulator's figures at the sizing's cluster, once simulated.
    const std::optional<core::sched::CapacityPoint>& simulatedPoint() const { return m_simulated; }
    const std::map<int, core::sched::CapacityPoint>& sweep() const { return m_sweep; }

    /// The queue inputs the workload implies: its mean arrival rate, GPUs per job and run time.
    void takeInputsFromWorkload();
    /// Recomputes the Erlang curves and simulates the target's cluster size.
    void sizeCluster();

protected:
    /// Simulations of a workload that arrived while the panel was hidden start when it is shown.
    void showEvent(QShowEvent* event) override;

private:
    void refreshFromWorkload();
    core::queue::QueueSizingInput input() const;
    void startSweep();
    void drawErlang();
    void drawSweep();
    /// Why the simulated wait and the M/M/c answer differ for this workload.
    QString whyTheyDiffer(double makespanS) const;
    void showAnswer();

    SimulationSession* m_session;
    SimulationRunner* m_pointRunner;
    SimulationRunner* m_sweepRunner;
    QDoubleSpinBox* m_arrivals;
    QDoubleSpinBox* m_gpusPerJob;
    QDoubleSpinBox* m_durationH;
    QDoubleSpinBox* m_targetMin;
    QLabel* m_answer;
    LineChart* m_erlang;
    LineChart* m_sweepTime;
    LineChart* m_sweepCost;
    QTimer m_debounce;
    std::optional<core::queue::QueueSizing> m_sizing;
    std::optional<core::sched::CapacityPoint> m_simulated;
    std::map<int, core::sched::CapacityPoint> m_sweep;
    bool m_filling = false;
    bool m_stale = true; ///< the session has data this panel has not simulated yet
};

} // namespace clusterplanner::ui
