// SPDX-License-Identifier: GPL-3.0-or-later
// Throughput and scaling efficiency of the scenario's layout as data parallelism grows, with Amdahl's fit
// (computed by core::strongScaling, core/evaluation/strongscaling.h).
#pragma once

#include "ui/panels/chartpanel.h"

namespace clusterplanner::ui {

class LineChart;
class ScenarioDocument;

class ScalingPanel : public ChartPanel
{
    Q_OBJECT
public:
    ScalingPanel(ScenarioDocument* document, QWidget* parent = nullptr);

    LineChart* chart() const { return m_chart; }
    void refresh() override;

protected:
    /// Memory and throughput do not depend on prices.
    ScenarioChanges dependencies() const override
    {
        return kEngineInputs & ~ScenarioChanges(ScenarioChange::Economics);
    }

private:
    LineChart* m_chart;
};

} // namespace clusterplanner::ui
