// SPDX-License-Identifier: GPL-3.0-or-later
// The pipeline schedule of the selected layout as a Gantt chart: one row per stage, F/B/W boxes per micro-batch.
#pragma once

#include "ui/document/scenariochange.h"

#include <QWidget>

class QComboBox;
class QLabel;

namespace clusterplanner::core {
struct PipelineView;
}

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
    /// Bubble / ideal time of the full step as shown, the step-time engine's figure; NaN when the layout is invalid.
    double bubbleFraction() const { return m_bubbleFraction; }

Q_SIGNALS:
    /// refresh() ran because the document changed.
    void refreshed();

private:
    void createLayout();
    void onScenarioChanged(ScenarioChanges changes);
    QString summary(const core::PipelineView& view) const;
    void chooseSchedule(int index);

    ScenarioDocument* m_document;
    QComboBox* m_schedule;
    QLabel* m_summary;
    GanttChart* m_chart;
    double m_bubbleFraction = 0;
};

} // namespace clusterplanner::ui
