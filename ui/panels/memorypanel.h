// SPDX-License-Identifier: GPL-3.0-or-later
// Memory of the selected layout per pipeline stage, term by term, against the GPU's capacity.
#pragma once

#include "ui/panels/chartpanel.h"

namespace clusterplanner::core {
struct MemoryView;
struct ScenarioEvaluation;
} // namespace clusterplanner::core

namespace clusterplanner::ui {

class ScenarioDocument;
class StackedBarChart;

class MemoryPanel : public ChartPanel
{
    Q_OBJECT
public:
    MemoryPanel(ScenarioDocument* document, QWidget* parent = nullptr);

    StackedBarChart* chart() const { return m_chart; }
    void refresh() override;

protected:
    /// Memory and throughput do not depend on prices.
    ScenarioChanges dependencies() const override
    {
        return kEngineInputs & ~ScenarioChanges(ScenarioChange::Economics);
    }

private:
    void showProblems(const core::ScenarioEvaluation& evaluation);
    QString summary(const core::MemoryView& memory) const;

    StackedBarChart* m_chart;
};

} // namespace clusterplanner::ui
