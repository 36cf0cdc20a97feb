// SPDX-License-Identifier: GPL-3.0-or-later
// Figures derived from a ClusterSpec: size, peak compute, bisection, power, racks, capex, opex, TCO
// (docs/methods-cluster.md). One function computes them for the topology panel, the purchase panel, the report and
// `clusterplanner cost --json`.
#pragma once

#include "core/cluster/clusterspec.h"
#include "core/model/costdefaults.h"

#include <optional>

#include <string>
#include <vector>

namespace clusterplanner::core {
class GpuCatalog;
struct Scenario;
} // namespace clusterplanner::core

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
    double peakPflopsFp8 = 0; ///< dense, of the GPUs with FP8 tensor cores (0 for an all-A100 cluster)
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
    // Added with the implementation (docs/methods-cluster.md):
    long long scaleUpDomains = 0; ///< NVLink (scale-up) domains, whole or partial
    long long switches = 0; ///< summed over the tiers
    long long links = 0; ///< NIC-to-leaf plus switch-to-switch links: what optics and cables are bought for
    double capexSwitchesUsd = 0;
    double capexOpticsUsd = 0; ///< transceivers and cables of `links`
    double switchPowerKw = 0; ///< part of itPowerKw
    double pue = 0; ///< the one used for facilityPowerKw
    long long unpricedGpus = 0; ///< GPUs without a catalog purchase price and no node price (not in capexNodesUsd)
};

/// Prices and rates clusterFigures() uses beyond the spec itself: data/costs.json defaults, each overridable
/// (a scenario's economics section, docs/methods-cluster.md §6).
struct CostInputs
{
    double usdPerKwh = costDefaults().usdPerKwh;
    double pue = costDefaults().pue; ///< where the spec's facility has none
    double lifetimeYears = costDefaults().amortisationYears;
    double maintenanceFractionPerYear = costDefaults().maintenanceFractionPerYear;
    double storageUsdPerGpu = costDefaults().storageUsdPerGpu;
    double facilityUsdPerKw = costDefaults().facilityUsdPerKw;
    std::optional<double> cloudUsdPerGpuHour; ///< unset = each group's catalog rate (middle of its range)
};

/// Throws std::invalid_argument naming the group when a GPU id is unknown.
ClusterFigures clusterFigures(const ClusterSpec& spec, const GpuCatalog& catalog);
ClusterFigures clusterFigures(const ClusterSpec& spec, const GpuCatalog& catalog, const CostInputs& inputs);

/// Whether the cluster can be built as drawn, without throwing: unknown GPU ids, scale-up domains that do not divide
/// the nodes or the group, racks over their power limit, a fabric beyond what its switches' radix can connect,
/// an empty cluster. clusterFigures() returns the same list in `issues`.
std::vector<ClusterIssue> clusterIssues(const ClusterSpec& spec, const GpuCatalog& catalog);

/// The price of a node bought without a quote: its GPUs at `gpuPriceUsd` each plus node_overhead_usd of
/// data/costs.json scaled from the 8-GPU reference node (docs/methods-cluster.md).
double defaultNodePriceUsd(int gpusPerNode, double gpuPriceUsd);

/// Board power of one GPU of the group (its limit, else the catalog TDP) plus the node's share of other parts.
double nodePowerW(const NodeGroup& group, double gpuTdpW);

} // namespace clusterplanner::core::cluster
