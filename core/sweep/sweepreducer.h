// SPDX-License-Identifier: GPL-3.0-or-later
// What a sweep keeps of its results: counts, the top N by the objective and the Pareto front (methods-search §5.1).
#pragma once

#include "core/model/layoutcheck.h"
#include "core/sweep/paretofront.h"
#include "core/sweep/toplayouts.h"

namespace clusterplanner::core {

enum class SweepObjective { TokensPerSecond, CostPerToken, Balanced };

/// Score used for ranking (higher is better).
double sweepScore(const LayoutResult& result, SweepObjective objective);

struct SweepCounts
{
    long long evaluated = 0;
    long long valid = 0;
    long long fitting = 0;
    /// Why nothing may come out: every rule some invalid layout broke, and how far the leanest valid layout that
    /// does not fit is over its usable memory (< 0: none seen).
    LayoutProblems problemsSeen = 0;
    double leastOverflowGiB = -1;
    double leastOverflowCapacityGiB = 0;
};

/// Reduces a stream of results to what is shown, in memory independent of the stream's length. One instance per
/// worker thread, merged at the end; the outcome does not depend on the thread count or the order of chunks.
class SweepReducer
{
public:
    SweepReducer(SweepObjective objective, int topCount);

    /// index: the result's position in the enumeration (orders ties).
    void add(const LayoutResult& result, std::size_t index);
    void merge(const SweepReducer& other);

    const SweepCounts& counts() const { return m_counts; }
    std::vector<LayoutResult> top() const { return m_top.sorted(); }
    std::vector<LayoutResult> pareto() const { return m_front.sorted(); }

private:
    void noteOverflow(double overflowGiB, double capacityGiB);

    SweepCounts m_counts;
    TopLayouts m_top;
    ParetoFront m_front;
};

} // namespace clusterplanner::core
