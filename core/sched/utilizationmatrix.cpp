// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/sched/utilizationmatrix.h"

#include <algorithm>
#include <stdexcept>

namespace clusterplanner::core::sched {

namespace {

/// Adds a constant level over [a, b) to the bins it overlaps, each weighted by the overlap's share of a bin.
void addLevel(float* row, const UtilizationMatrix& m, double a, double b, double level)
{
    if (level == 0 || b <= a)
        return;
    const double endS = m.startS + m.bins * m.binS;
    a = std::max(a, m.startS);
    b = std::min(b, endS);
    if (b <= a)
        return;
    int first = std::clamp(static_cast<int>((a - m.startS) / m.binS), 0, m.bins - 1);
    const int last = std::clamp(static_cast<int>((b - m.startS) / m.binS), 0, m.bins - 1);
    for (int bin = first; bin <= last; ++bin) {
        const double binStart = m.startS + bin * m.binS;
        const double overlap = std::min(b, binStart + m.binS) - std::max(a, binStart);
        if (overlap > 0)
            row[bin] += static_cast<float>(level * overlap / m.binS);
    }
}

} // namespace

UtilizationMatrix binUtilization(
    const SimulationResult& result, UsageResource resource, int bins, double fromS, double toS)
{
    if (bins < 1 || !(toS > fromS))
        throw std::invalid_argument("utilization matrix: needs at least one bin and an end after the start");
    if (result.timeline.size() != result.nodes.size())
        throw std::invalid_argument("utilization matrix: the simulation recorded no timeline (recordTimeline)");
    UtilizationMatrix m;
    m.rows = static_cast<int>(result.nodes.size());
    m.bins = bins;
    m.startS = fromS;
    m.binS = (toS - fromS) / bins;
    m.values.assign(static_cast<std::size_t>(m.rows) * bins, 0.0f);
    const auto column = static_cast<std::size_t>(resource);
    for (int node = 0; node < m.rows; ++node) {
        const auto& samples = result.timeline[static_cast<std::size_t>(node)];
        float* row = m.values.data() + static_cast<std::size_t>(node) * bins;
        for (std::size_t i = 0; i < samples.size(); ++i) {
            const double until = i + 1 < samples.size() ? samples[i + 1].timeS : toS;
            addLevel(row, m, samples[i].timeS, until, samples[i].u[column]);
        }
        for (int bin = 0; bin < bins; ++bin)
            row[bin] = std::clamp(row[bin], 0.0f, 1.0f); // float sums may overshoot by an ulp
    }
    return m;
}

UtilizationMatrix groupRows(const UtilizationMatrix& matrix, const std::vector<int>& groupOfRow, int groups,
    const std::vector<double>& rowWeights)
{
    if (groupOfRow.size() != static_cast<std::size_t>(matrix.rows) || rowWeights.size() != groupOfRow.size()
        || groups < 1)
        throw std::invalid_argument("grouping of utilization rows: one group and one weight per row needed");
    UtilizationMatrix out = matrix;
    out.rows = groups;
    std::vector<double> sums(static_cast<std::size_t>(groups) * matrix.bins, 0.0);
    std::vector<double> weights(static_cast<std::size_t>(groups), 0.0);
    for (int r = 0; r < matrix.rows; ++r) {
        const int g = groupOfRow[static_cast<std::size_t>(r)];
        if (g < 0 || g >= groups)
            throw std::invalid_argument("grouping of utilization rows: group index out of range");
        const double w = rowWeights[static_cast<std::size_t>(r)];
        weights[static_cast<std::size_t>(g)] += w;
        for (int b = 0; b < matrix.bins; ++b)
            sums[static_cast<std::size_t>(g) * matrix.bins + b] += w * matrix.at(r, b);
    }
    out.values.assign(sums.size(), 0.0f);
    for (int g = 0; g < groups; ++g)
        for (int b = 0; b < matrix.bins; ++b) {
            const double w = weights[static_cast<std::size_t>(g)];
            out.values[static_cast<std::size_t>(g) * matrix.bins + b]
                = w > 0 ? static_cast<float>(sums[static_cast<std::size_t>(g) * matrix.bins + b] / w) : 0.0f;
        }
    return out;
}

} // namespace clusterplanner::core::sched
