// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/perf/powercap.h"

#include "core/perf/computetime.h"

#include <algorithm>
#include <cmath>

namespace clusterplanner::core::perf {

double powerCapThroughputFactor(std::optional<double> limitW, double tdpW)
{
    if (!limitW || tdpW <= 0 || *limitW >= tdpW)
        return 1.0;
    const double fraction = std::max(kMinPowerCapFraction, *limitW / tdpW);
    return std::pow(fraction, kPowerCapExponent);
}

double cappedBoardPowerW(std::optional<double> limitW, double tdpW)
{
    return limitW ? std::min(tdpW, std::max(*limitW, kMinPowerCapFraction * tdpW)) : tdpW;
}

double trainingDrawW(std::optional<double> limitW, double tdpW, double utilization)
{
    return std::min(tdpW * utilization, cappedBoardPowerW(limitW, tdpW));
}

ComputePeaks withPowerCap(ComputePeaks peaks, std::optional<double> limitW, double tdpW)
{
    const double factor = powerCapThroughputFactor(limitW, tdpW);
    peaks.tensorFlops *= factor;
    peaks.attentionFlops *= factor;
    return peaks;
}

} // namespace clusterplanner::core::perf
