// SPDX-License-Identifier: GPL-3.0-or-later
// Where the step time of the selected layout goes (compute, exposed communication, bubble, optimizer) and what
// it means for the run: tokens/s, MFU, time, GPU-hours, cost and energy for the token budget.
#pragma once

#include "ui/panels/chartpanel.h"

namespace clusterplanner::ui {

class ScenarioDocument;
class StackedBarChart;

class StepTimePanel : public ChartPanel
{
    Q_OBJECT
public:
    StepTimePanel(ScenarioDocument* document, QWidget* parent = nullptr);

    StackedBarChart* chart() const { return m_chart; }
    void refresh() override;

private:
    StackedBarChart* m_chart;
};

} // namespace clusterplanner::ui
