// SPDX-License-Identifier: GPL-3.0-or-later
// The simulator's per-node usage timeline binned in time: the n × bins matrix behind the utilisation heatmap.
#pragma once

#include "core/sched/simulation.h"

#include <vector>

namespace clusterplanner::core::sched {

/// The four columns of U and of the timeline samples (UsageSample::u): GPU share busy (fractional shares
/// counted), host memory, CPU cores and scale-out bandwidth, each used/capacity of the node.
enum class UsageResource { Gpu = 0, HostMemory = 1, Cpu = 2, Network = 3 };

/// rows × bins busy fractions in [0, 1], row-major. Bin b covers [startS + b·binS, startS + (b+1)·binS).
struct UtilizationMatrix
{
    int rows = 0;
    int bins = 0;
    double startS = 0;
    double binS = 0;
    std::vector<float> values;
    float at(int row, int bin) const { return values[static_cast<std::size_t>(row) * bins + bin]; }
};

/// Time average of each node's usage step function over each bin of [fromS, toS) (docs/methods-scheduling.md §7
/// "Utilisation matrix"). Before a node's first sample its usage is 0. Needs a result recorded with
/// SimulationOptions::recordTimeline; throws std::invalid_argument when the timeline is missing, bins < 1 or
/// toS ≤ fromS. O(samples + nodes × bins).
UtilizationMatrix binUtilization(
    const SimulationResult& result, UsageResource resource, int bins, double fromS, double toS);

/// Rows merged into groups (racks, GPU types, or screen rows): group g is the weighted mean of the rows r with
/// groupOfRow[r] == g (weights: e.g. each node's GPUs). Throws std::invalid_argument when sizes disagree or a
/// group index is outside [0, groups).
UtilizationMatrix groupRows(const UtilizationMatrix& matrix, const std::vector<int>& groupOfRow, int groups,
    const std::vector<double>& rowWeights);

} // namespace clusterplanner::core::sched
