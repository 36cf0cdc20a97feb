// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cluster/trainingview.h"

#include "core/cluster/clusterfigures.h"
#include "core/model/gpucatalog.h"
#include "core/model/scenario.h"

#include <algorithm>
#include <cmath>

namespace clusterplanner::core::cluster {

namespace {

/// Ports of the switches a migrated cluster gets: NVIDIA QM9700 (64 × 400G NDR), the DGX H100 SuperPOD's switch.
constexpr int kDefaultRadix = 64;
/// Rack power of a liquid-cooled NVL72 rack (NVIDIA GB200 NVL72: ≈ 120–132 kW), docs/methods-cluster.md §4.
constexpr double kRackScaleDomainKw = 132;

/// Tiers a folded Clos of radix-R switches needs for `endpoints` NIC ports at the given leaf oversubscription
/// (capacity R·d₀ for two tiers, R·d₀·R/2 for three; docs/methods-cluster.md §3).
int tiersNeeded(long long endpoints, int radix, double oversubscription)
{
    const long long leafDown = static_cast<long long>(std::floor(radix * oversubscription / (1 + oversubscription)));
    if (endpoints <= radix && oversubscription <= 1)
        return 1;
    if (endpoints <= radix * leafDown)
        return 2;
    return 3;
}

std::vector<FabricTier> tiersFor(int count, double portGbps)
{
    static const char* const names[] = {"leaf", "spine", "core"};
    std::vector<FabricTier> tiers;
    for (int i = 0; i < count; ++i) {
        FabricTier tier;
        tier.name = names[std::min(i, 2)];
        tier.switchRadix = kDefaultRadix;
        tier.portGbps = portGbps;
        tiers.push_back(tier);
    }
    return tiers;
}

} // namespace

double fabricOversubscription(const Fabric& fabric)
{
    double ratio = 1;
    for (std::size_t i = 0; i + 1 < fabric.tiers.size(); ++i)
        ratio *= fabric.tiers[i].oversubscription;
    return ratio;
}

void setFabricOversubscription(Fabric& fabric, double oversubscription)
{
    if (fabric.tiers.empty())
        fabric.tiers.push_back(FabricTier {});
    if (fabric.tiers.size() == 1 && oversubscription > 1) {
        FabricTier spine = fabric.tiers.front();
        spine.name = "spine";
        fabric.tiers.push_back(spine);
    }
    for (std::size_t i = 0; i + 1 < fabric.tiers.size(); ++i)
        fabric.tiers[i].oversubscription = i == 0 ? oversubscription : 1.0;
}

ClusterSpec clusterFromView(const ClusterConfig& view, const GpuCatalog& catalog)
{
    const int perNode = std::max(1, view.gpusPerNode);
    NodeGroup group;
    group.name = view.gpuId + "-x" + std::to_string(perNode);
    group.gpuId = view.gpuId;
    group.gpusPerNode = perNode;
    group.nodeCount = std::max(1, (view.gpuCount + perNode - 1) / perNode);
    const GpuSpec* gpu = catalog.find(view.gpuId);
    group.scaleUpDomainGpus = gpu ? gpu->scaleupDomainGpus : perNode;
    group.nicsPerNode = perNode;
    group.nicGbps = view.nicGbps;
    group.cpuCores = 14 * perNode;
    group.hostMemoryGiB = 256.0 * perNode;
    group.gpuPowerLimitW = view.gpuPowerLimitW;
    ClusterSpec spec;
    spec.name = std::to_string(view.gpuCount) + " × " + view.gpuId;
    const bool rackScaleDomain
        = group.scaleUpDomainGpus > perNode && group.scaleUpDomainGpus % perNode == 0 && group.scaleUpDomainGpus <= 576;
    if (rackScaleDomain) {
        group.nodesPerRack = group.scaleUpDomainGpus / perNode;
        spec.facility.rackPowerLimitKw = kRackScaleDomainKw;
    } else if (gpu) {
        // As many air-cooled nodes as the rack's power allows, at most 4 (an 8 × 700 W HGX H100 node at 10.2 kW: 3).
        const double nodeKw = nodePowerW(group, gpu->tdpW) / 1000;
        group.nodesPerRack = std::clamp(static_cast<int>(spec.facility.rackPowerLimitKw / nodeKw), 1, 4);
    }
    spec.groups = {group};
    const long long endpoints = static_cast<long long>(group.nodeCount) * group.nicsPerNode;
    spec.fabric.tiers = tiersFor(tiersNeeded(endpoints, kDefaultRadix, view.oversubscription), view.nicGbps);
    setFabricOversubscription(spec.fabric, view.oversubscription);
    return spec;
}

void adoptClusterView(Scenario& scenario, const GpuCatalog& catalog)
{
    scenario.topology = clusterFromView(scenario.cluster, catalog);
    scenario.trainingGroup = scenario.topology.groups.front().name;
}

bool syncTrainingView(Scenario& scenario)
{
    const NodeGroup* group = scenario.topology.findGroup(scenario.trainingGroup);
    if (!group)
        return false;
    ClusterConfig& view = scenario.cluster;
    view.gpuId = group->gpuId;
    view.gpusPerNode = group->gpusPerNode;
    view.nicGbps = group->gpusPerNode > 0 ? group->nicsPerNode * group->nicGbps / group->gpusPerNode : 0;
    view.oversubscription = fabricOversubscription(scenario.topology.fabric);
    view.gpuPowerLimitW = group->gpuPowerLimitW;
    return true;
}

void writeViewIntoTopology(Scenario& scenario, const GpuCatalog& catalog)
{
    if (!scenario.topology.findGroup(scenario.trainingGroup)) {
        adoptClusterView(scenario, catalog);
        syncTrainingView(scenario);
        return;
    }
    const ClusterConfig& view = scenario.cluster;
    auto it = std::find_if(scenario.topology.groups.begin(), scenario.topology.groups.end(),
        [&](const NodeGroup& g) { return g.name == scenario.trainingGroup; });
    NodeGroup& group = *it;
    const std::string autoName = group.gpuId + "-x" + std::to_string(group.gpusPerNode);
    if (group.gpuId != view.gpuId) {
        if (const GpuSpec* gpu = catalog.find(view.gpuId))
            group.scaleUpDomainGpus = gpu->scaleupDomainGpus;
        group.gpuId = view.gpuId;
    }
    if (group.gpusPerNode != view.gpusPerNode) {
        // Keep one NIC per GPU where the group had that; otherwise keep the NIC count.
        if (group.nicsPerNode == group.gpusPerNode)
            group.nicsPerNode = view.gpusPerNode;
        group.gpusPerNode = std::max(1, view.gpusPerNode);
    }
    if (group.nicsPerNode <= 0)
        group.nicsPerNode = group.gpusPerNode;
    // Written back only when it differs, so that a round trip through the view does not move the last digit.
    if (std::abs(group.nicsPerNode * group.nicGbps / group.gpusPerNode - view.nicGbps) > 1e-9 * view.nicGbps)
        group.nicGbps = view.nicGbps * group.gpusPerNode / group.nicsPerNode;
    // A group named after its GPU and node size (as migrated) keeps the name honest; a name the user chose stays.
    const std::string newName = group.gpuId + "-x" + std::to_string(group.gpusPerNode);
    if (group.name == autoName && newName != autoName && !scenario.topology.findGroup(newName)) {
        group.name = newName;
        scenario.trainingGroup = newName;
    }
    // The power limit is edited on the topology only; the view's copy is derived.
    const int nodesForRun = (view.gpuCount + group.gpusPerNode - 1) / group.gpusPerNode;
    group.nodeCount = std::max(group.nodeCount, nodesForRun);
    if (std::abs(fabricOversubscription(scenario.topology.fabric) - view.oversubscription) > 1e-12)
        setFabricOversubscription(scenario.topology.fabric, view.oversubscription);
    syncTrainingView(scenario);
}

Scenario reconcileEdit(const Scenario& before, Scenario after, const GpuCatalog& catalog)
{
    if (after.cluster != before.cluster)
        writeViewIntoTopology(after, catalog);
    else if (after.topology != before.topology || after.trainingGroup != before.trainingGroup)
        syncTrainingView(after);
    return after;
}

std::string trainingGpuField(const Scenario& scenario)
{
    const auto& groups = scenario.topology.groups;
    for (std::size_t i = 0; i < groups.size(); ++i)
        if (groups[i].name == scenario.trainingGroup)
            return "cluster.node_groups[" + std::to_string(i) + "].gpu";
    return "cluster.gpu";
}

} // namespace clusterplanner::core::cluster
