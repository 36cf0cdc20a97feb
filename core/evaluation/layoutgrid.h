// SPDX-License-Identifier: GPL-3.0-or-later
// Sweep results aggregated onto two chosen layout axes: per cell the best layout by a metric (other dimensions
// optimized) or the layout matching the scenario in every other dimension (other dimensions fixed).
#pragma once

#include "core/sweep/sweep.h"

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace clusterplanner::core {

enum class LayoutAxis { Dp, Tp, Pp, Cp, Ep, MicroBatch, VirtualStages };
enum class GridMetric { TokensPerGpu, Mfu, StepTime, PeakMemory, Headroom, CostPerMTokens };

bool higherIsBetter(GridMetric metric);
int axisValue(const LayoutCandidate& candidate, LayoutAxis axis);
/// The metric in the unit a grid shows (MFU in %, memory in GiB, cost in US$ per million tokens).
double metricValue(const LayoutResult& result, GridMetric metric);

struct GridCell
{
    std::optional<LayoutResult> best; ///< best fitting layout of the cell
    int evaluated = 0;
    int valid = 0;
    std::uint32_t problems = 0; ///< union of the layout-check problems of the cell's invalid layouts
    double smallestPeakGiB = 0; ///< of valid layouts, to say by how much the cell misses the memory limit
    double capacityGiB = 0;
};

class LayoutGrid
{
public:
    /// Chooses axes, metric and, with fixedTo, the layout every other dimension must match; clears the cells.
    void configure(LayoutAxis x, LayoutAxis y, GridMetric metric, std::optional<LayoutCandidate> fixedTo);
    void clear();
    void add(std::span<const LayoutResult> results);

    LayoutAxis xAxis() const { return m_x; }
    LayoutAxis yAxis() const { return m_y; }
    GridMetric metric() const { return m_metric; }
    std::vector<int> xValues() const; ///< increasing, every value some added result had
    std::vector<int> yValues() const;
    const GridCell* cell(int xValue, int yValue) const; ///< null when no result fell there

private:
    bool matchesFixed(const LayoutCandidate& candidate) const;
    void addOne(const LayoutResult& result);

    LayoutAxis m_x = LayoutAxis::Tp;
    LayoutAxis m_y = LayoutAxis::Pp;
    GridMetric m_metric = GridMetric::TokensPerGpu;
    std::optional<LayoutCandidate> m_fixed;
    std::map<std::pair<int, int>, GridCell> m_cells;
    std::map<int, int> m_xCounts;
    std::map<int, int> m_yCounts;
};

} // namespace clusterplanner::core
