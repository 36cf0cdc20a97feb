// TEMP stand-in for the cluster-core branch; deleted when it is merged.
#include "core/cluster/clusterfigures.h"
#include "core/evaluation/purchasefigures.h"
#include "core/model/gpucatalog.h"
#include "core/model/scenario.h"

namespace clusterplanner::core::cluster {
const NodeGroup* ClusterSpec::findGroup(const std::string& groupName) const
{
    for (const auto& g : groups)
        if (g.name == groupName)
            return &g;
    return nullptr;
}
long long ClusterSpec::nodeCount() const
{
    long long n = 0;
    for (const auto& g : groups)
        n += g.nodeCount;
    return n;
}
long long ClusterSpec::gpuCount() const
{
    long long n = 0;
    for (const auto& g : groups)
        n += g.gpuCount();
    return n;
}
ClusterFigures clusterFigures(const ClusterSpec& spec, const GpuCatalog&)
{
    ClusterFigures f;
    f.nodes = spec.nodeCount();
    f.gpus = spec.gpuCount();
    for (const auto& g : spec.groups) {
        f.racks += (g.nodeCount + g.nodesPerRack - 1) / g.nodesPerRack;
        f.itPowerKw += g.gpuCount() * 0.7 + g.nodeCount * 2.0;
        f.maxRackKw = std::max(f.maxRackKw, g.nodesPerRack * (g.gpusPerNode * 0.7 + 2.0));
        f.capexNodesUsd += g.nodeCount * 300000.0;
        f.peakPflopsBf16 += g.gpuCount() * 0.989;
        f.peakPflopsFp8 += g.gpuCount() * 1.979;
        f.hbmTotalTB += g.gpuCount() * 0.08;
        if (g.nodeCount % std::max(1, g.scaleUpDomainGpus / std::max(1, g.gpusPerNode)) != 0)
            f.issues.push_back({"groups[" + std::to_string(&g - spec.groups.data()) + "]", "domain does not divide"});
    }
    for (const auto& t : spec.fabric.tiers)
        f.tiers.push_back({t.name, f.nodes / 4 + 1, f.nodes, f.gpus * 400.0 / 2});
    f.bisectionGbps = f.gpus * 200.0;
    if (f.maxRackKw > spec.facility.rackPowerLimitKw)
        f.issues.push_back({"racks", "rack over its kW limit"});
    f.facilityPowerKw = f.itPowerKw * spec.facility.pue.value_or(1.3);
    f.capexNetworkUsd = f.gpus * 3000.0;
    f.capexUsd = f.capexNodesUsd + f.capexNetworkUsd;
    f.opexEnergyUsdPerYear = f.facilityPowerKw * 8760 * 0.08;
    f.opexUsdPerYear = f.opexEnergyUsdPerYear;
    f.lifetimeYears = 5;
    f.tcoUsd = f.capexUsd + 5 * f.opexUsdPerYear;
    return f;
}
} // namespace clusterplanner::core::cluster

namespace clusterplanner::core::evaluation {
Expected<PurchaseFigures> purchaseFigures(const Scenario& scenario)
{
    if (scenario.topology.groups.empty())
        return EvaluationError {"topology.groups", "no node group"};
    PurchaseFigures p;
    p.cluster = cluster::clusterFigures(scenario.topology, GpuCatalog::builtin());
    p.run.fits = true;
    p.run.tokensPerS = 1e6;
    p.run.timeToTrainDays = scenario.economics.trainingTokens / 1e6 / 86400;
    p.run.energyMwh = p.cluster.facilityPowerKw * p.run.timeToTrainDays * 24 / 1000;
    p.run.ownedUsdPerMillionTokens = p.cluster.tcoUsd / 1e6;
    p.run.cloudUsdPerMillionTokens = scenario.economics.gpuHourUsd;
    return p;
}
} // namespace clusterplanner::core::evaluation
#include "core/cluster/trainingview.h"
namespace clusterplanner::core::cluster {
bool syncTrainingView(Scenario& scenario)
{
    const auto* group = scenario.topology.findGroup(scenario.trainingGroup);
    if (!group)
        return false;
    scenario.cluster.gpuId = group->gpuId;
    scenario.cluster.gpusPerNode = group->gpusPerNode;
    return true;
}
} // namespace clusterplanner::core::cluster
