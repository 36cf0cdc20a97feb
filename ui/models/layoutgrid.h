// SPDX-License-Identifier: GPL-3.0-or-later
// Aggregates sweep results onto two chosen layout axes: per cell the best layout by a metric (other dimensions
// optimized) or the layout matching the scenario in every other dimension (other dimensions fixed).
#pragma once

#include "core/sweep/sweep.h"

#include <QString>
#include <QVector>

#include <map>
#include <optional>
#include <span>

namespace clusterplanner::ui {

enum class LayoutAxis { Dp, Tp, Pp, Cp, Ep, MicroBatch, VirtualStages };
enum class GridMetric { TokensPerGpu, Mfu, StepTime, PeakMemory, Headroom, CostPerMTokens };

QString axisName(LayoutAxis axis);
QString metricName(GridMetric metric); ///< with unit, e.g. "tokens/s per GPU"
bool higherIsBetter(GridMetric metric);
int axisValue(const core::LayoutCandidate& candidate, LayoutAxis axis);
double metricValue(const core::LayoutResult& result, GridMetric metric);

struct GridCell
{
    std::optional<core::LayoutResult> best; ///< best fitting layout of the cell
    int evaluated = 0;
    int valid = 0;
    std::uint32_t problems = 0; ///< union of the layout-check problems of the cell's invalid layouts
    double smallestPeakGiB = 0; ///< of valid layouts, to say by how much the cell misses the memory limit
    double capacityGiB = 0;
};

class LayoutGrid
{
public:
    void configure(LayoutAxis x, LayoutAxis y, GridMetric metric, std::optional<core::LayoutCandidate> fixedTo);
    void clear();
    void add(std::span<const core::LayoutResult> results);

    LayoutAxis xAxis() const { return m_x; }
    LayoutAxis yAxis() const { return m_y; }
    GridMetric metric() const { return m_metric; }
    QVector<int> xValues() const;
    QVector<int> yValues() const;
    const GridCell* cell(int xValue, int yValue) const;
    /// Text for the hover: the best layout's figures, or why the cell is empty.
    QString describe(const GridCell& cell) const;

private:
    bool matchesFixed(const core::LayoutCandidate& candidate) const;
    void addOne(const core::LayoutResult& result);

    LayoutAxis m_x = LayoutAxis::Tp;
    LayoutAxis m_y = LayoutAxis::Pp;
    GridMetric m_metric = GridMetric::TokensPerGpu;
    std::optional<core::LayoutCandidate> m_fixed;
    std::map<std::pair<int, int>, GridCell> m_cells;
    std::map<int, int> m_xCounts;
    std::map<int, int> m_yCounts;
};

/// One line describing a layout, e.g. "DP 32 · TP 8 · PP 4 · mb 1 · selective · ZeRO 1 · 1f1b".
QString layoutSummary(const core::LayoutCandidate& candidate);

} // namespace clusterplanner::ui
