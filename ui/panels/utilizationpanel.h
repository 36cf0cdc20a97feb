// SPDX-License-Identifier: GPL-3.0-or-later
// The utilisation heatmap panel: nodes × time of the shared simulation, linked with the job Gantt panel (a time
// range picked here filters it; the job selected there is outlined here).
#pragma once

#include <QWidget>

class QComboBox;
class QLabel;

namespace clusterplanner::ui {

class ScenarioDocument;
class SimulationControls;
class SimulationSession;
class UtilizationView;

class UtilizationPanel : public QWidget
{
    Q_OBJECT
public:
    explicit UtilizationPanel(ScenarioDocument* document, QWidget* parent = nullptr);

    UtilizationView* view() const { return m_view; }
    SimulationSession* session() const { return m_session; }
    QComboBox* resourceBox() const { return m_resource; }
    QComboBox* groupingBox() const { return m_grouping; }
    QString headline() const;

private:
    void showData();
    void showRange();

    SimulationSession* m_session;
    SimulationControls* m_controls;
    QComboBox* m_resource;
    QComboBox* m_grouping;
    QLabel* m_headline;
    QLabel* m_range;
    UtilizationView* m_view;
    int m_nodes = -1; ///< node count of the cluster shown, to pick the row grouping once per cluster
};

} // namespace clusterplanner::ui
