// SPDX-License-Identifier: GPL-3.0-or-later
// The job Gantt panel: the shared simulation's jobs on their GPUs, filtered by the time range picked in the
// utilisation heatmap, with the details of the clicked job beside it.
#pragma once

#include <QWidget>

class QComboBox;
class QLabel;

namespace clusterplanner::ui {

class JobGanttView;
class ScenarioDocument;
class SimulationSession;

class JobsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit JobsPanel(ScenarioDocument* document, QWidget* parent = nullptr);

    JobGanttView* gantt() const { return m_gantt; }
    SimulationSession* session() const { return m_session; }
    QLabel* detailsLabel() const { return m_details; }
    /// Rich-text details of one job (index into the result's jobs) as the side pane shows them.
    QString jobDetails(int job) const;

private:
    void showData();
    void showRange();
    void showJob(int job);

    SimulationSession* m_session;
    QComboBox* m_colorBy;
    QLabel* m_range;
    JobGanttView* m_gantt;
    QLabel* m_details;
};

} // namespace clusterplanner::ui
