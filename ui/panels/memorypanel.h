// SPDX-License-Identifier: GPL-3.0-or-later
// Memory of the selected layout per pipeline stage, term by term, against the GPU's capacity.
#pragma once

#include <QWidget>

class QLabel;

namespace clusterplanner::ui {

class ScenarioDocument;
class StackedBarChart;

class MemoryPanel : public QWidget
{
    Q_OBJECT
public:
    MemoryPanel(ScenarioDocument* document, QWidget* parent = nullptr);

    StackedBarChart* chart() const { return m_chart; }
    QString summaryText() const;
    void refresh();

private:
    ScenarioDocument* m_document;
    QLabel* m_summary;
    StackedBarChart* m_chart;
};

} // namespace clusterplanner::ui
