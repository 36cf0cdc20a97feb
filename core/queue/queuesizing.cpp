// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/queue/queuesizing.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace clusterplanner::core::queue {

namespace {

void checkPositive(double value, const char* name)
{
    if (!(value > 0) || !std::isfinite(value))
        throw std::invalid_argument(std::string("queue sizing: ") + name + " must be a positive number");
}

long long gpusOf(long long servers, double gpusPerJob)
{
    return static_cast<long long>(std::ceil(servers * gpusPerJob - 1e-9));
}

} // namespace

QueueCurvePoint queueAt(const QueueSizingInput& input, long long gpus)
{
    QueueCurvePoint point;
    point.gpus = gpus;
    point.servers = static_cast<long long>(std::floor(gpus / input.meanGpusPerJob + 1e-9));
    const double lambda = input.arrivalsPerHour / 3600;
    const double mu = 1 / input.meanDurationS;
    if (point.servers < 1) {
        point.utilization = std::numeric_limits<double>::infinity();
        point.pWait = 1;
        point.meanWaitS = std::numeric_limits<double>::infinity();
        return point;
    }
    const MmcResult queue = solveMmc(lambda, mu, point.servers);
    point.utilization = queue.utilization;
    point.pWait = queue.pWait;
    point.meanWaitS = queue.wq;
    return point;
}

QueueSizing sizeQueue(const QueueSizingInput& input, int curvePoints)
{
    checkPositive(input.arrivalsPerHour, "arrivals per hour");
    checkPositive(input.meanGpusPerJob, "mean GPUs per job");
    checkPositive(input.meanDurationS, "mean job duration");
    checkPositive(input.targetMeanWaitS, "target mean wait");
    QueueSizing sizing;
    sizing.input = input;
    const double lambda = input.arrivalsPerHour / 3600;
    const double mu = 1 / input.meanDurationS;
    sizing.offeredLoadErlangs = lambda / mu;
    sizing.serversForTarget = serversForMeanWait(lambda, mu, input.targetMeanWaitS);
    sizing.gpusForTarget = gpusOf(sizing.serversForTarget, input.meanGpusPerJob);
    sizing.atTarget = solveMmc(lambda, mu, sizing.serversForTarget);
    // From the first stable size to well past the target: the waits fall steeply just above the load, so the
    // range is the target's distance from the load, four times over (at least a few servers).
    const long long firstServers = static_cast<long long>(std::floor(sizing.offeredLoadErlangs)) + 1;
    const long long lastServers = sizing.serversForTarget + 3 * (sizing.serversForTarget - firstServers) + 4;
    const long long step = std::max<long long>(1, (lastServers - firstServers) / std::max(1, curvePoints));
    for (long long c = firstServers; c <= lastServers; c += step)
        sizing.curve.push_back(queueAt(input, gpusOf(c, input.meanGpusPerJob)));
    return sizing;
}

} // namespace clusterplanner::core::queue
