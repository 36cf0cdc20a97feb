// SPDX-License-Identifier: GPL-3.0-or-later
// Sizing a GPU pool for a job stream with M/M/c (Erlang C): the curves P(wait) and mean wait against cluster GPUs,
// and the smallest cluster that meets a mean-wait target (docs/methods-queueing.md §6 "Cluster use").
#pragma once

#include "core/queue/erlang.h"

#include <vector>

namespace clusterplanner::core::queue {

struct QueueSizingInput
{
    double arrivalsPerHour = 60; ///< λ
    double meanGpusPerJob = 1; ///< g: a server is g GPUs, so c = ⌊GPUs / g⌋
    double meanDurationS = 3600; ///< 1/μ
    double targetMeanWaitS = 600; ///< Wq target
};

struct QueueCurvePoint
{
    long long gpus = 0;
    long long servers = 0;
    double utilization = 0;
    double pWait = 0; ///< 1 when unstable
    double meanWaitS = 0; ///< +infinity when unstable
};

struct QueueSizing
{
    QueueSizingInput input;
    double offeredLoadErlangs = 0; ///< a = λ/μ, in servers
    long long serversForTarget = 0;
    long long gpusForTarget = 0; ///< serversForTarget × g, rounded up to whole GPUs
    MmcResult atTarget; ///< the queue at serversForTarget (times in seconds)
    std::vector<QueueCurvePoint> curve; ///< stable sizes from just above the load to 4× the target's distance from it
};

/// Throws std::invalid_argument naming the input when a rate, size, duration or target is not positive and finite.
QueueSizing sizeQueue(const QueueSizingInput& input, int curvePoints = 120);

/// The curve point for a given cluster size.
QueueCurvePoint queueAt(const QueueSizingInput& input, long long gpus);

} // namespace clusterplanner::core::queue
