// SPDX-License-Identifier: GPL-3.0-or-later
// Throughput and scaling efficiency of the scenario's layout as data parallelism grows, with Amdahl's fit.
#pragma once

#include "ui/panels/chartpanel.h"
#include <QVector>

namespace clusterplanner::core {
struct Scenario;
}

namespace clusterplanner::ui {

class LineChart;
class ScenarioDocument;

/// One point of the strong-scaling curve: fixed global batch, model parallelism of the scenario, DP varied.
struct ScalingPoint
{
    int gpus = 0;
    double stepTimeS = 0;
    double tokensPerS = 0;
    double efficiency = 0; ///< T₁/(n·Tₙ), relative to the smallest GPU count
};

/// Strong-scaling points for the scenario (DP doubling from 1 while the global batch divides).
QVector<ScalingPoint> strongScaling(const core::Scenario& scenario, double* amdahlParallelFraction = nullptr);

class ScalingPanel : public ChartPanel
{
    Q_OBJECT
public:
    ScalingPanel(ScenarioDocument* document, QWidget* parent = nullptr);

    LineChart* chart() const { return m_chart; }
    void refresh() override;

private:
    LineChart* m_chart;
};

} // namespace clusterplanner::ui
