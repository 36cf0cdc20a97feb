// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/sched/capacitysweep.h"

#include "core/cost/costmodel.h"
#include "core/model/gpucatalog.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace clusterplanner::core::sched {

std::vector<int> capacityGrid(int baseGpus, int gpusPerNode, int points)
{
    if (points < 2 || baseGpus < 1 || gpusPerNode < 1)
        throw std::invalid_argument("capacity grid: needs 2+ points, a base of 1+ GPUs and 1+ GPUs per node");
    std::vector<int> grid;
    for (int i = 0; i < points; ++i) {
        // Geometric steps from ½× to 2× the base: equal ratios read as equal distances on a log axis.
        const double factor = std::pow(4.0, double(i) / (points - 1)) / 2;
        const long long nodes = std::max<long long>(1, std::llround(baseGpus * factor / gpusPerNode));
        const int gpus = static_cast<int>(nodes * gpusPerNode);
        if (grid.empty() || gpus > grid.back())
            grid.push_back(gpus);
    }
    return grid;
}

CapacityCost capacityCost(const Scenario& scenario, int gpus)
{
    const GpuSpec* gpu = GpuCatalog::builtin().find(scenario.cluster.gpuId);
    if (!gpu)
        throw std::invalid_argument("cluster.gpu: " + GpuCatalog::builtin().unknownIdText(scenario.cluster.gpuId));
    cost::CostAssumptions a = cost::costAssumptionsFor(*gpu, gpus, cost::PriceLevel::Mid);
    a.gpusPerNode = scenario.cluster.gpusPerNode;
    a.pue = scenario.economics.pue;
    a.usdPerKwh = scenario.economics.electricityUsdPerKwh;
    const cost::CostModel model(a);
    CapacityCost c;
    c.capexUsd = model.capexUsd();
    c.tcoUsd = model.tcoUsd();
    c.usdPerYear = a.years > 0 ? c.tcoUsd / a.years : c.tcoUsd;
    c.priced = a.gpuPriceUsd > 0;
    return c;
}

} // namespace clusterplanner::core::sched
