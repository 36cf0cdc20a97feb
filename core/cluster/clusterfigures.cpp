// SPDX-License-Identifier: GPL-3.0-or-later
// Size, peaks, bisection, power, racks, capex, opex and TCO of a ClusterSpec (docs/methods-cluster.md §3–§6).
#include "core/cluster/clusterfigures.h"

#include "core/cluster/fabriccount.h"
#include "core/model/gpucatalog.h"
#include "core/perf/powercap.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace clusterplanner::core::cluster {

namespace {

constexpr double kHoursPerYear = 8760;

std::string groupWhere(std::size_t i)
{
    return "groups[" + std::to_string(i) + "]";
}

std::string kw(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", value);
    return text;
}

/// Non-GPU IT power of a node: the group's own figure, else node_overhead_w scaled from the 8-GPU reference node.
double overheadW(const NodeGroup& group)
{
    if (group.nodeOverheadW)
        return *group.nodeOverheadW;
    return costDefaults().nodeOverheadW * group.gpusPerNode / std::max(1, costDefaults().gpusPerNode);
}

/// A node's purchase price: the group's figure, else the default price at the catalog's middle GPU price. Unset when
/// neither is known.
std::optional<double> nodePriceUsd(const NodeGroup& group, const GpuSpec& gpu)
{
    if (group.nodePriceUsd)
        return group.nodePriceUsd;
    const auto gpuPrice = gpu.purchaseUsd.midUsd();
    if (!gpuPrice)
        return std::nullopt;
    return defaultNodePriceUsd(group.gpusPerNode, *gpuPrice);
}

/// Per-port switch price and power by port class (data/costs.json): ≤ 400 Gb/s ports pro rata of a 400G port,
/// faster ones pro rata of an 800G port.
double perPort(double portGbps, double at400, double at800)
{
    return portGbps <= 400 ? at400 * portGbps / 400 : at800 * portGbps / 800;
}

double switchPriceUsd(const FabricTier& tier)
{
    if (tier.switchPriceUsd)
        return *tier.switchPriceUsd;
    const auto& d = costDefaults();
    return tier.switchRadix * perPort(tier.portGbps, d.switchUsdPerPort400g, d.switchUsdPerPort800g);
}

double switchPowerW(const FabricTier& tier)
{
    if (tier.switchPowerW)
        return *tier.switchPowerW;
    const auto& d = costDefaults();
    return tier.switchRadix * perPort(tier.portGbps, d.switchWPerPort400g, d.switchWPerPort800g);
}

double opticsUsdPerLink(const Fabric& fabric, double portGbps)
{
    return fabric.opticsUsdPerLink ? *fabric.opticsUsdPerLink : costDefaults().opticsUsdPerLink400g * portGbps / 400;
}

void scaleUpIssues(const NodeGroup& g, const std::string& where, std::vector<ClusterIssue>& issues)
{
    const int domain = g.scaleUpDomainGpus;
    if (domain <= g.gpusPerNode) {
        if (g.gpusPerNode % domain != 0)
            issues.push_back({where,
                "scale-up domains of " + std::to_string(domain) + " GPUs do not divide a node of "
                    + std::to_string(g.gpusPerNode)});
        return;
    }
    if (domain % g.gpusPerNode != 0)
        issues.push_back({where,
            "a scale-up domain of " + std::to_string(domain) + " GPUs is not a whole number of "
                + std::to_string(g.gpusPerNode) + "-GPU nodes"});
    else if (g.gpuCount() % domain != 0)
        issues.push_back({where,
            std::to_string(g.gpuCount()) + " GPUs do not fill whole " + std::to_string(domain)
                + "-GPU scale-up domains (" + std::to_string(domain / g.gpusPerNode) + " nodes each)"});
}

void rackIssue(const NodeGroup& g, double nodeW, const Facility& facility, const std::string& where,
    std::vector<ClusterIssue>& issues)
{
    const int perRack = std::min(g.nodesPerRack, g.nodeCount);
    const double rackKw = perRack * nodeW / 1000;
    if (rackKw > facility.rackPowerLimitKw + 1e-9)
        issues.push_back({where,
            "rack of " + std::to_string(perRack) + " nodes draws " + kw(rackKw) + " kW, over the "
                + kw(facility.rackPowerLimitKw) + " kW limit"});
}

void fabricIssues(const ClusterSpec& spec, const FabricCount& count, std::vector<ClusterIssue>& issues)
{
    if (spec.fabric.tiers.empty()) {
        if (spec.nodeCount() > 1)
            issues.push_back({"fabric.tiers", "the nodes need at least one switching tier to reach each other"});
        return;
    }
    if (count.endpointPorts > count.capacityPorts) {
        const auto& top = spec.fabric.tiers.back();
        issues.push_back({"fabric.tiers",
            std::to_string(count.endpointPorts) + " NIC ports exceed the " + std::to_string(count.capacityPorts)
                + " that " + std::to_string(spec.fabric.tiers.size()) + " tier(s) of these switches can connect (top "
                + "radix " + std::to_string(top.switchRadix) + "); add a tier or use switches with more ports"});
    }
    for (std::size_t i = 0; i < spec.groups.size(); ++i)
        if (spec.groups[i].nicsPerNode == 0 && spec.nodeCount() > 1)
            issues.push_back({groupWhere(i), "nodes without NICs cannot reach the other nodes"});
}

} // namespace

double nodePowerW(const NodeGroup& group, double gpuTdpW)
{
    return group.gpusPerNode * perf::cappedBoardPowerW(group.gpuPowerLimitW, gpuTdpW) + overheadW(group);
}

std::vector<ClusterIssue> clusterIssues(const ClusterSpec& spec, const GpuCatalog& catalog)
{
    std::vector<ClusterIssue> issues;
    if (spec.groups.empty())
        issues.push_back({"groups", "the cluster has no node groups"});
    for (std::size_t i = 0; i < spec.groups.size(); ++i) {
        const NodeGroup& g = spec.groups[i];
        const GpuSpec* gpu = catalog.find(g.gpuId);
        if (!gpu) {
            issues.push_back({groupWhere(i), catalog.unknownIdText(g.gpuId)});
            continue;
        }
        scaleUpIssues(g, groupWhere(i), issues);
        rackIssue(g, nodePowerW(g, gpu->tdpW), spec.facility, groupWhere(i), issues);
        if (g.gpuPowerLimitW && *g.gpuPowerLimitW > gpu->tdpW)
            issues.push_back({groupWhere(i),
                "power limit " + kw(*g.gpuPowerLimitW) + " W is above the " + kw(gpu->tdpW)
                    + " W TDP; it has no effect"});
    }
    fabricIssues(spec, countFabric(spec), issues);
    return issues;
}

ClusterFigures clusterFigures(const ClusterSpec& spec, const GpuCatalog& catalog)
{
    return clusterFigures(spec, catalog, CostInputs {});
}

ClusterFigures clusterFigures(const ClusterSpec& spec, const GpuCatalog& catalog, const CostInputs& in)
{
    ClusterFigures f;
    double nodesItW = 0;
    double cloudUsdPerHour = 0;
    bool cloudKnown = true;
    for (std::size_t i = 0; i < spec.groups.size(); ++i) {
        const NodeGroup& g = spec.groups[i];
        const GpuSpec* gpu = catalog.find(g.gpuId);
        if (!gpu)
            throw std::invalid_argument("node group " + g.name + ": " + catalog.unknownIdText(g.gpuId));
        const long long gpus = g.gpuCount();
        f.nodes += g.nodeCount;
        f.gpus += gpus;
        f.racks += (g.nodeCount + g.nodesPerRack - 1) / std::max(1, g.nodesPerRack);
        f.scaleUpDomains += (gpus + g.scaleUpDomainGpus - 1) / std::max(1, g.scaleUpDomainGpus);
        f.peakPflopsBf16 += gpus * gpu->peakFlops(Precision::AmpBf16) / 1e15;
        // Only GPUs with FP8 tensor cores count: an A100's BF16 rate is not an FP8 capability.
        f.peakPflopsFp8 += gpus * (gpu->hasFp8TensorCores() ? gpu->peakFlops(Precision::Fp8) : 0.0) / 1e15;
        f.peakPflopsFp32 += gpus * gpu->peakFlops(Precision::Fp32) / 1e15;
        f.hbmTotalTB += gpus * gpu->memoryGB / 1000;
        const double nodeW = nodePowerW(g, gpu->tdpW);
        nodesItW += g.nodeCount * nodeW;
        f.maxRackKw = std::max(f.maxRackKw, std::min(g.nodesPerRack, g.nodeCount) * nodeW / 1000);
        if (const auto price = nodePriceUsd(g, *gpu))
            f.capexNodesUsd += g.nodeCount * *price;
        else
            f.unpricedGpus += gpus;
        const auto rate = in.cloudUsdPerGpuHour ? in.cloudUsdPerGpuHour : gpu->cloudUsdPerGpuHour.midUsd();
        cloudKnown = cloudKnown && rate.has_value();
        cloudUsdPerHour += gpus * rate.value_or(0);
    }
    const FabricCount fabric = countFabric(spec);
    f.tiers = fabric.tiers;
    f.bisectionGbps = fabric.tiers.empty() ? 0 : fabric.bisectionGbps;
    f.links = fabric.links;
    double switchW = 0;
    for (std::size_t t = 0; t < spec.fabric.tiers.size(); ++t) {
        const FabricTier& tier = spec.fabric.tiers[t];
        const long long switches = fabric.tiers[t].switches;
        f.switches += switches;
        f.capexSwitchesUsd += switches * switchPriceUsd(tier);
        switchW += switches * switchPowerW(tier);
        // The links entering this tier run at its port speed: the NIC links at the leaf's, uplinks at the next tier's.
        const long long linksIn = t == 0 ? fabric.endpointPorts : fabric.tiers[t - 1].uplinks;
        f.capexOpticsUsd += linksIn * opticsUsdPerLink(spec.fabric, tier.portGbps);
    }
    f.switchPowerKw = switchW / 1000;
    f.capexNetworkUsd = f.capexSwitchesUsd + f.capexOpticsUsd;
    f.itPowerKw = nodesItW / 1000 + f.switchPowerKw;
    f.pue = spec.facility.pue.value_or(in.pue);
    f.facilityPowerKw = f.itPowerKw * f.pue;
    f.capexStorageUsd = f.gpus * in.storageUsdPerGpu;
    f.capexFacilityUsd = f.itPowerKw * in.facilityUsdPerKw;
    f.capexUsd = f.capexNodesUsd + f.capexNetworkUsd + f.capexStorageUsd + f.capexFacilityUsd;
    // Energy at full load around the clock: an upper bound for a busy training cluster (docs/methods-cluster.md §6).
    f.opexEnergyUsdPerYear = f.facilityPowerKw * kHoursPerYear * in.usdPerKwh;
    f.opexMaintenanceUsdPerYear
        = in.maintenanceFractionPerYear * (f.capexNodesUsd + f.capexNetworkUsd + f.capexStorageUsd);
    f.opexUsdPerYear = f.opexEnergyUsdPerYear + f.opexMaintenanceUsdPerYear;
    f.lifetimeYears = in.lifetimeYears;
    f.tcoUsd = f.capexUsd + f.lifetimeYears * f.opexUsdPerYear;
    f.cloudEquivalentUsd = cloudKnown ? cloudUsdPerHour * kHoursPerYear * f.lifetimeYears : 0;
    f.issues = clusterIssues(spec, catalog);
    return f;
}

double defaultNodePriceUsd(int gpusPerNode, double gpuPriceUsd)
{
    return gpusPerNode * (gpuPriceUsd + costDefaults().nodeOverheadUsd / std::max(1, costDefaults().gpusPerNode));
}

} // namespace clusterplanner::core::cluster
