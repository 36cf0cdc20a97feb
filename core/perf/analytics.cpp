// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/perf/analytics.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace clusterplanner::core::perf {

double amdahlSpeedup(double pPar, double n)
{
    return 1.0 / ((1.0 - pPar) + pPar / n);
}

std::vector<double> scalingEfficiency(const std::vector<int>& gpuCounts, const std::vector<double>& stepTimesS)
{
    if (gpuCounts.empty() || gpuCounts.size() != stepTimesS.size())
        throw std::invalid_argument("scaling efficiency needs as many step times as GPU counts (and at least one)");
    std::size_t first = 0;
    for (std::size_t i = 0; i < gpuCounts.size(); ++i) {
        if (gpuCounts[i] < 1 || !(stepTimesS[i] > 0))
            throw std::invalid_argument(
                "scaling efficiency: point " + std::to_string(i + 1) + " needs a positive GPU count and step time");
        if (gpuCounts[i] < gpuCounts[first])
            first = i;
    }
    const double t1 = gpuCounts[first] * stepTimesS[first];
    std::vector<double> efficiency;
    for (std::size_t i = 0; i < gpuCounts.size(); ++i)
        efficiency.push_back(t1 / (gpuCounts[i] * stepTimesS[i]));
    return efficiency;
}

double fitAmdahlParallelFraction(const std::vector<int>& gpuCounts, const std::vector<double>& speedups)
{
    if (gpuCounts.size() != speedups.size())
        throw std::invalid_argument("Amdahl fit needs as many speed-ups as GPU counts");
    double xy = 0, xx = 0;
    for (std::size_t i = 0; i < gpuCounts.size(); ++i) {
        if (gpuCounts[i] < 1 || !(speedups[i] > 0))
            throw std::invalid_argument("Amdahl fit: point " + std::to_string(i + 1) + " is not positive");
        const double x = 1.0 / gpuCounts[i] - 1.0;
        const double y = 1.0 / speedups[i] - 1.0;
        xy += x * y;
        xx += x * x;
    }
    if (xx == 0)
        throw std::invalid_argument("Amdahl fit needs at least one point with more than one GPU");
    return std::clamp(xy / xx, 0.0, 1.0);
}

double alphaBetaTimeS(Collective collective, double bytes, int ranks, double bandwidthGBs, double alphaS)
{
    switch (collective) {
    case Collective::AllReduce:
        return ringAllReduceS(bytes, ranks, bandwidthGBs, alphaS);
    case Collective::ReduceScatter:
    case Collective::AllGather:
    case Collective::AllToAll:
        return ringReduceScatterS(bytes, ranks, bandwidthGBs, alphaS);
    case Collective::Broadcast:
    case Collective::Reduce:
        return broadcastS(bytes, ranks, bandwidthGBs, alphaS);
    case Collective::SendRecv:
        break;
    }
    return p2pS(bytes, bandwidthGBs, alphaS);
}

std::vector<MessageTimePoint> alphaBetaCurve(
    Collective collective, int ranks, double bandwidthGBs, double alphaS, double minBytes, double maxBytes, int points)
{
    if (!(minBytes > 0) || maxBytes < minBytes || points < 1)
        throw std::invalid_argument("alpha-beta curve needs 0 < min bytes <= max bytes and at least one point");
    std::vector<MessageTimePoint> curve;
    const double step = points > 1 ? std::log(maxBytes / minBytes) / (points - 1) : 0.0;
    const double factor = collective == Collective::SendRecv ? 1.0 : busFactor(collective, ranks);
    for (int i = 0; i < points; ++i) {
        MessageTimePoint point;
        point.bytes = minBytes * std::exp(step * i);
        point.seconds = alphaBetaTimeS(collective, point.bytes, ranks, bandwidthGBs, alphaS);
        point.busBandwidthGBs = point.seconds > 0 ? factor * point.bytes / point.seconds / 1e9 : 0.0;
        curve.push_back(point);
    }
    return curve;
}

} // namespace clusterplanner::core::perf
