// SPDX-License-Identifier: GPL-3.0-or-later
// Figures derived from a ClusterSpec: size, peak compute, bisection, power, racks, capex, opex, TCO
// (docs/methods-cluster.md). One function computes them for the topology panel, the purchase panel, the report and
// `clusterplanner cost --json`.
#pragma once

#include "core/cluster/clusterspec.h"

#include <string>
#include <vector>

namespace clusterplanner::core {
class GpuCatalog;
struct Scenario;
}

namespace clusterplanner::core::cluster {

/// Per fabric tier: how many switches and links it needs and what crosses it.
struct TierFigures
{
    std::string name;
    long long switches = 0;
    long long uplinks = 0; ///< links from this tier to the next (optics/cables counted from these)
    double bisectionGbps = 0; ///< bandwidth across a cut that halves the endpoints, at this tier
};

/// A problem marked on the topology diagram: `where` is the element ("groups[1]", "fabric.tiers[0]", "racks"),
/// `reason` a sentence a user can act on ("rack of 4 nodes draws 44.8 kW, over the 40 kW limit").
struct ClusterIssue
{
    std::string where;
    std::string reason;
};

struct ClusterFigures
{
    long long nodes = 0;
    long long gpus = 0;
    long long racks = 0;
    double peakPflopsBf16 = 0; ///< dense
    double peakPflopsFp8 = 0; ///< dense; falls back to BF16 where the GPU has no FP8
    double peakPflopsFp32 = 0;
    double hbmTotalTB = 0; ///< datasheet GB / 1000, summed
    std::vector<TierFigures> tiers;
    double bisectionGbps = 0; ///< smallest over the tiers
    double itPowerKw = 0; ///< GPUs at their power limit + node overhead + switches
    double facilityPowerKw = 0; ///< × PUE
    double maxRackKw = 0;
    double capexNodesUsd = 0;
    double capexNetworkUsd = 0; ///< switches + optics/cables
    double capexStorageUsd = 0;
    double capexFacilityUsd = 0; ///< power and cooling build-out per kW
    double capexUsd = 0;
    double opexEnergyUsdPerYear = 0;
    double opexMaintenanceUsdPerYear = 0;
    double opexUsdPerYear = 0;
    double lifetimeYears = 0;
    double tcoUsd = 0; ///< capex + lifetime × opex
    double cloudEquivalentUsd = 0; ///< same GPU-hours over the lifetime at the catalog cloud rate; 0 = unknown
    std::vector<ClusterIssue> issues; ///< empty when the cluster is buildable as drawn
};

/// Throws std::invalid_argument naming the group when a GPU id is unknown.
ClusterFigures clusterFigures(const ClusterSpec& spec, const GpuCatalog& catalog);

} // namespace clusterplanner::core::cluster
