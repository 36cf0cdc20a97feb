// SPDX-License-Identifier: GPL-3.0-or-later
// Capacity sweep: the same workload on clusters of several sizes, with the owned cost of each size from the cost
// model (docs/methods-scheduling.md §7 "Capacity sweep", docs/methods-cost.md §8).
#pragma once

#include "core/model/scenario.h"
#include "core/sched/metrics.h"

#include <vector>

namespace clusterplanner::core::sched {

/// `points` cluster sizes from about half to twice `baseGpus`, each a multiple of gpusPerNode, ascending and
/// distinct. Throws std::invalid_argument for points < 2, baseGpus < 1 or gpusPerNode < 1.
std::vector<int> capacityGrid(int baseGpus, int gpusPerNode, int points = 8);

/// Owned cost of a cluster size: catalog price midpoint, data/costs.json defaults, the scenario's PUE and
/// electricity price.
struct CapacityCost
{
    double capexUsd = 0;
    double tcoUsd = 0; ///< capex + amortisation years × opex per year
    double usdPerYear = 0; ///< tco / amortisation years
    bool priced = true; ///< false when the catalog has no price for the GPU (capex then excludes the GPUs)
};
/// Throws std::invalid_argument for an unknown GPU id.
CapacityCost capacityCost(const Scenario& scenario, int gpus);

struct CapacityPoint
{
    int gpus = 0;
    SimulationMetrics metrics;
    CapacityCost cost;
};

} // namespace clusterplanner::core::sched
