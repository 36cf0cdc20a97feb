// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/evaluation/layoutgrid.h"

#include <algorithm>

namespace clusterplanner::core {

namespace {

bool better(const LayoutResult& a, const LayoutResult& b, GridMetric metric)
{
    const double va = metricValue(a, metric);
    const double vb = metricValue(b, metric);
    return higherIsBetter(metric) ? va > vb : va < vb;
}

std::vector<int> keys(const std::map<int, int>& counts)
{
    std::vector<int> values;
    values.reserve(counts.size());
    for (const auto& [value, count] : counts)
        values.push_back(value);
    return values;
}

} // namespace

bool higherIsBetter(GridMetric metric)
{
    return metric == GridMetric::TokensPerGpu || metric == GridMetric::Mfu || metric == GridMetric::Headroom;
}

int axisValue(const LayoutCandidate& c, LayoutAxis axis)
{
    switch (axis) {
    case LayoutAxis::Dp:
        return c.layout.dp;
    case LayoutAxis::Tp:
        return c.layout.tp;
    case LayoutAxis::Pp:
        return c.layout.pp;
    case LayoutAxis::Cp:
        return c.layout.cp;
    case LayoutAxis::Ep:
        return c.layout.ep;
    case LayoutAxis::MicroBatch:
        return c.microBatch;
    case LayoutAxis::VirtualStages:
        return c.layout.virtualStages;
    }
    return 0;
}

double metricValue(const LayoutResult& r, GridMetric metric)
{
    switch (metric) {
    case GridMetric::TokensPerGpu:
        return r.tokensPerSPerGpu;
    case GridMetric::Mfu:
        return 100 * r.mfu;
    case GridMetric::StepTime:
        return r.stepTimeS;
    case GridMetric::PeakMemory:
        return r.peakMemoryGiB;
    case GridMetric::Headroom:
        return r.headroomGiB();
    case GridMetric::CostPerMTokens:
        return r.costPerMTokensUsd;
    }
    return 0;
}

void LayoutGrid::configure(LayoutAxis x, LayoutAxis y, GridMetric metric, std::optional<LayoutCandidate> fixedTo)
{
    m_x = x;
    m_y = y;
    m_metric = metric;
    m_fixed = fixedTo;
    clear();
}

void LayoutGrid::clear()
{
    m_cells.clear();
    m_xCounts.clear();
    m_yCounts.clear();
}

bool LayoutGrid::matchesFixed(const LayoutCandidate& c) const
{
    if (!m_fixed)
        return true;
    // Every dimension but the two axes and DP (DP follows from the GPU count) must equal the scenario's.
    for (LayoutAxis axis : {LayoutAxis::Tp, LayoutAxis::Pp, LayoutAxis::Cp, LayoutAxis::Ep, LayoutAxis::MicroBatch,
             LayoutAxis::VirtualStages})
        if (axis != m_x && axis != m_y && axisValue(c, axis) != axisValue(*m_fixed, axis))
            return false;
    return c.recompute == m_fixed->recompute && c.zeroStage == m_fixed->zeroStage && c.schedule == m_fixed->schedule
        && c.layout.rankOrder == m_fixed->layout.rankOrder;
}

void LayoutGrid::addOne(const LayoutResult& r)
{
    if (!matchesFixed(r.candidate))
        return;
    const int x = axisValue(r.candidate, m_x);
    const int y = axisValue(r.candidate, m_y);
    ++m_xCounts[x];
    ++m_yCounts[y];
    GridCell& cell = m_cells[{x, y}];
    ++cell.evaluated;
    cell.capacityGiB = r.capacityGiB;
    if (!r.valid) {
        cell.problems |= r.problems;
        return;
    }
    cell.smallestPeakGiB = cell.valid == 0 ? r.peakMemoryGiB : std::min(cell.smallestPeakGiB, r.peakMemoryGiB);
    ++cell.valid;
    if (r.fits && (!cell.best || better(r, *cell.best, m_metric)))
        cell.best = r;
}

void LayoutGrid::add(std::span<const LayoutResult> results)
{
    for (const auto& r : results)
        addOne(r);
}

std::vector<int> LayoutGrid::xValues() const
{
    return keys(m_xCounts);
}

std::vector<int> LayoutGrid::yValues() const
{
    return keys(m_yCounts);
}

const GridCell* LayoutGrid::cell(int xValue, int yValue) const
{
    auto it = m_cells.find({xValue, yValue});
    return it == m_cells.end() ? nullptr : &it->second;
}

} // namespace clusterplanner::core
