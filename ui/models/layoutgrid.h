// SPDX-License-Identifier: GPL-3.0-or-later
// The grid explorer's view of core::LayoutGrid (core/evaluation/layoutgrid.h): Qt containers and translated text
// for axes, metrics and cells. The aggregation itself lives in core, with its tests.
#pragma once

#include "core/evaluation/layoutgrid.h"

#include <QString>
#include <QVector>

#include <optional>
#include <span>

namespace clusterplanner::ui {

using LayoutAxis = core::LayoutAxis;
using GridMetric = core::GridMetric;
using GridCell = core::GridCell;
using core::axisValue;
using core::higherIsBetter;
using core::metricValue;

QString axisName(LayoutAxis axis);
QString metricName(GridMetric metric); ///< with unit, e.g. "tokens/s per GPU"

class LayoutGrid
{
public:
    void configure(LayoutAxis x, LayoutAxis y, GridMetric metric, std::optional<core::LayoutCandidate> fixedTo)
    {
        m_grid.configure(x, y, metric, fixedTo);
    }
    void clear() { m_grid.clear(); }
    void add(std::span<const core::LayoutResult> results) { m_grid.add(results); }

    LayoutAxis xAxis() const { return m_grid.xAxis(); }
    LayoutAxis yAxis() const { return m_grid.yAxis(); }
    GridMetric metric() const { return m_grid.metric(); }
    QVector<int> xValues() const;
    QVector<int> yValues() const;
    const GridCell* cell(int xValue, int yValue) const { return m_grid.cell(xValue, yValue); }
    /// Text for the hover: the best layout's figures, or why the cell is empty.
    QString describe(const GridCell& cell) const;

private:
    core::LayoutGrid m_grid;
};

/// One line describing a layout, e.g. "DP 32 · TP 8 · PP 4 · mb 1 · selective · ZeRO 1 · 1f1b".
QString layoutSummary(const core::LayoutCandidate& candidate);

} // namespace clusterplanner::ui
