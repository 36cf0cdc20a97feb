// SPDX-License-Identifier: GPL-3.0-or-later
// Utilisation matrix and the fragmentation, imbalance and fairness metrics of docs/methods-scheduling.md §7.
#include "core/queue/fragmentation.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace clusterplanner::core::queue {

namespace {

/// Population standard deviation (divides by n, not n − 1).
double populationStd(const UtilizationRow& row)
{
    const double mean = std::accumulate(row.begin(), row.end(), 0.0) / kResourceCount;
    double squares = 0;
    for (double value : row)
        squares += (value - mean) * (value - mean);
    return std::sqrt(squares / kResourceCount);
}

double populationStd(const std::vector<double>& values)
{
    if (values.empty())
        return 0;
    const double mean = std::accumulate(values.begin(), values.end(), 0.0) / double(values.size());
    double squares = 0;
    for (double value : values)
        squares += (value - mean) * (value - mean);
    return std::sqrt(squares / double(values.size()));
}

template <typename T>
void requireNonNegative(const std::vector<T>& values, const char* what)
{
    for (std::size_t i = 0; i < values.size(); ++i)
        if (!(values[i] >= 0))
            throw std::invalid_argument(std::string(what) + " " + std::to_string(i) + " is negative");
}

} // namespace

void UtilizationMatrix::addNode(const UtilizationRow& used, const UtilizationRow& total)
{
    UtilizationRow row {};
    for (int r = 0; r < kResourceCount; ++r) {
        if (!(used[r] >= 0) || used[r] > total[r] + 1e-9 * total[r])
            throw std::invalid_argument("utilisation: node " + std::to_string(rows.size()) + " resource "
                + std::to_string(r) + " uses " + std::to_string(used[r]) + " of " + std::to_string(total[r]));
        row[r] = total[r] > 0 ? std::min(1.0, used[r] / total[r]) : 0.0;
    }
    rows.push_back(row);
}

double UtilizationMatrix::meanOf(Resource r) const
{
    if (rows.empty())
        return 0;
    double sum = 0;
    for (const auto& row : rows)
        sum += row[static_cast<int>(r)];
    return sum / static_cast<double>(rows.size());
}

double imbalance(const UtilizationMatrix& u)
{
    if (u.rows.empty())
        return 0;
    double sum = 0;
    for (const auto& row : u.rows)
        sum += populationStd(row);
    return sum / static_cast<double>(u.rows.size());
}

double nodeImbalance(const UtilizationMatrix& u)
{
    double sum = 0;
    int used = 0;
    for (int r = 0; r < kResourceCount; ++r) {
        std::vector<double> column;
        bool any = false;
        for (const auto& row : u.rows) {
            column.push_back(row[static_cast<std::size_t>(r)]);
            any = any || row[static_cast<std::size_t>(r)] > 0;
        }
        if (!any)
            continue;
        sum += populationStd(column);
        ++used;
    }
    return used > 0 ? sum / used : 0.0;
}

double gpuFragmentationIndex(const std::vector<long long>& freePerNode, const std::vector<long long>& pending)
{
    requireNonNegative(freePerNode, "free capacity of node");
    requireNonNegative(pending, "pending request");
    if (pending.empty())
        return 0;
    const long long smallest = *std::min_element(pending.begin(), pending.end());
    long long totalFree = 0;
    long long unusableFree = 0;
    for (long long free : freePerNode) {
        totalFree += free;
        if (free < smallest) // no request fits when even the smallest does not
            unusableFree += free;
    }
    return totalFree > 0 ? static_cast<double>(unusableFree) / static_cast<double>(totalFree) : 0.0;
}

double memoryFragmentation(const std::vector<double>& freeBlocks)
{
    requireNonNegative(freeBlocks, "free block");
    const double total = std::accumulate(freeBlocks.begin(), freeBlocks.end(), 0.0);
    if (total <= 0)
        return 0;
    return 1.0 - *std::max_element(freeBlocks.begin(), freeBlocks.end()) / total;
}

double timeFragmentation(std::vector<BusyInterval> tasks, double totalS)
{
    if (!(totalS > 0))
        throw std::invalid_argument("time fragmentation: total time must be > 0");
    for (std::size_t i = 0; i < tasks.size(); ++i)
        if (!(tasks[i].endS >= tasks[i].startS))
            throw std::invalid_argument("time fragmentation: task " + std::to_string(i) + " ends before it starts");
    std::sort(tasks.begin(), tasks.end(), [](const auto& a, const auto& b) { return a.startS < b.startS; });
    double idle = 0;
    for (std::size_t k = 1; k < tasks.size(); ++k) {
        idle += std::max(0.0, tasks[k].startS - tasks[k - 1].endS);
        tasks[k].endS = std::max(tasks[k].endS, tasks[k - 1].endS); // an overlap extends the busy stretch
    }
    return idle / totalS;
}

double jainFairness(const std::vector<double>& shares)
{
    requireNonNegative(shares, "share");
    double sum = 0;
    double squares = 0;
    for (double share : shares) {
        sum += share;
        squares += share * share;
    }
    if (squares <= 0)
        return 1.0;
    return sum * sum / (static_cast<double>(shares.size()) * squares);
}

double percentile(std::vector<double> values, double p)
{
    if (values.empty())
        throw std::invalid_argument("percentile of an empty list");
    if (!(p >= 0 && p <= 100))
        throw std::invalid_argument("percentile must be in [0, 100] (got " + std::to_string(p) + ")");
    std::sort(values.begin(), values.end());
    const double position = static_cast<double>(values.size() - 1) * p / 100.0;
    const auto below = static_cast<std::size_t>(std::floor(position));
    const std::size_t above = std::min(below + 1, values.size() - 1);
    return values[below] + (position - static_cast<double>(below)) * (values[above] - values[below]);
}

} // namespace clusterplanner::core::queue
