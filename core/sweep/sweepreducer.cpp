// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/sweep/sweepreducer.h"

#include <algorithm>

namespace clusterplanner::core {

double sweepScore(const LayoutResult& r, SweepObjective objective)
{
    switch (objective) {
    case SweepObjective::TokensPerSecond:
        return r.tokensPerSPerGpu;
    case SweepObjective::CostPerToken:
        return r.costPerMTokensUsd > 0 ? -r.costPerMTokensUsd : 0;
    case SweepObjective::Balanced:
        // Throughput, discounted when the layout runs within 10 % of the memory limit (fragile in practice).
        return r.tokensPerSPerGpu * (r.tight() ? 0.9 : 1.0);
    }
    return r.tokensPerSPerGpu;
}

SweepReducer::SweepReducer(SweepObjective objective, int topCount)
    : m_top([objective](const LayoutResult& r) { return sweepScore(r, objective); }, std::size_t(std::max(0, topCount)))
{ }

void SweepReducer::add(const LayoutResult& result, std::size_t index)
{
    ++m_counts.evaluated;
    m_counts.valid += result.valid;
    m_counts.problemsSeen |= result.problems;
    if (result.valid && !result.fits) // reserved over usable; clamped so that "none seen" (< 0) stays unambiguous
        noteOverflow(std::max(0.0, -result.headroomGiB()), result.capacityGiB);
    if (!result.valid || !result.fits)
        return;
    ++m_counts.fitting;
    m_top.add(result, index);
    m_front.add(result, index);
}

void SweepReducer::noteOverflow(double overflowGiB, double capacityGiB)
{
    // Ties keep the smaller capacity, so the outcome does not depend on the order of chunks.
    const bool better = m_counts.leastOverflowGiB < 0 || overflowGiB < m_counts.leastOverflowGiB
        || (overflowGiB == m_counts.leastOverflowGiB && capacityGiB < m_counts.leastOverflowCapacityGiB);
    if (!better)
        return;
    m_counts.leastOverflowGiB = overflowGiB;
    m_counts.leastOverflowCapacityGiB = capacityGiB;
}

void SweepReducer::merge(const SweepReducer& other)
{
    m_counts.evaluated += other.m_counts.evaluated;
    m_counts.valid += other.m_counts.valid;
    m_counts.fitting += other.m_counts.fitting;
    m_counts.problemsSeen |= other.m_counts.problemsSeen;
    if (other.m_counts.leastOverflowGiB >= 0)
        noteOverflow(other.m_counts.leastOverflowGiB, other.m_counts.leastOverflowCapacityGiB);
    m_top.merge(other.m_top);
    m_front.merge(other.m_front);
}

} // namespace clusterplanner::core
