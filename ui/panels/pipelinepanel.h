// SPDX-License-Identifier: GPL-3.0-or-later
// The pipeline schedule of the selected layout as a Gantt chart: one row per stage, F/B/W boxes per micro-batch.
#pragma once

#include <QWidget>

class QComboBox;
class QLabel;

namespace clusterplanner::ui {

class GanttChart;
class ScenarioDocument;

class PipelinePanel : public QWidget
{
    Q_OBJECT
public:
    PipelinePanel(ScenarioDocument* document, QWidget* parent = nullptr);

    GanttChart* chart() const { return m_chart; }
    /// Re-reads the document (connected to scenarioChanged).
    void refresh();

private:
    void createLayout();
    void chooseSchedule(int index);

    ScenarioDocument* m_document;
    QComboBox* m_schedule;
    QLabel* m_summary;
    GanttChart* m_chart;
};

} // namespace clusterplanner::ui
