// SPDX-License-Identifier: GPL-3.0-or-later
// The counting rules of docs/methods-cluster.md §3: a folded Clos counted in aggregate, tier by tier.
#include "core/cluster/fabriccount.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace clusterplanner::core::cluster {

namespace {

long long ceilDiv(long long a, long long b)
{
    return b > 0 ? (a + b - 1) / b : 0;
}

/// Leaf ports one NIC takes: an 800G NIC on 400G leaf ports takes two.
long long portsPerNic(const NodeGroup& group, double leafPortGbps)
{
    return std::max(1LL, static_cast<long long>(std::ceil(group.nicGbps / leafPortGbps - 1e-9)));
}

/// Leaf switches: rail-optimised fabrics give each rail of each scalable unit (d₀ nodes) its own leaf, so a group's
/// leaves are rails × ⌈nodes/d₀⌉; otherwise the NIC ports simply fill leaves. One tier has no spine to join rails,
/// so it is never rail-optimised.
long long leafSwitches(const ClusterSpec& spec, int downlinks)
{
    const FabricTier& leaf = spec.fabric.tiers.front();
    const bool byRail = spec.fabric.railOptimized && spec.fabric.tiers.size() > 1;
    long long switches = 0;
    long long ports = 0;
    for (const auto& group : spec.groups) {
        const long long rails = static_cast<long long>(group.nicsPerNode) * portsPerNic(group, leaf.portGbps);
        if (byRail)
            switches += rails * ceilDiv(group.nodeCount, downlinks);
        ports += rails * group.nodeCount;
    }
    return byRail ? switches : ceilDiv(ports, downlinks);
}

} // namespace

int downlinksPerSwitch(int radix, double oversubscription, bool top)
{
    if (top)
        return radix;
    const double o = std::max(1.0, oversubscription);
    return std::max(1, static_cast<int>(std::floor(radix * o / (1 + o) + 1e-9)));
}

FabricCount countFabric(const ClusterSpec& spec)
{
    FabricCount count;
    if (spec.fabric.tiers.empty())
        return count;
    const double leafPortGbps = spec.fabric.tiers.front().portGbps;
    for (const auto& group : spec.groups)
        count.endpointPorts
            += static_cast<long long>(group.nodeCount) * group.nicsPerNode * portsPerNic(group, leafPortGbps);
    count.links = count.endpointPorts;
    count.bisectionGbps = std::numeric_limits<double>::infinity();
    long long linksIn = count.endpointPorts; // links entering the current tier from below
    long long capacity = 1;
    const std::size_t top = spec.fabric.tiers.size() - 1;
    for (std::size_t t = 0; t <= top; ++t) {
        const FabricTier& tier = spec.fabric.tiers[t];
        const int down = downlinksPerSwitch(tier.switchRadix, tier.oversubscription, t == top);
        TierFigures figures;
        figures.name = tier.name;
        figures.switches = t == 0 ? leafSwitches(spec, down) : ceilDiv(linksIn, down);
        // Half the links entering this tier cross a cut that halves the endpoints (docs/methods-cluster.md §3).
        figures.bisectionGbps = static_cast<double>(linksIn) * tier.portGbps / 2;
        if (t < top) {
            figures.uplinks
                = static_cast<long long>(std::ceil(static_cast<double>(linksIn) / tier.oversubscription - 1e-9));
            count.links += figures.uplinks;
            linksIn = figures.uplinks;
        }
        capacity = capacity > std::numeric_limits<long long>::max() / down ? std::numeric_limits<long long>::max()
                                                                           : capacity * down;
        count.bisectionGbps = std::min(count.bisectionGbps, figures.bisectionGbps);
        count.tiers.push_back(figures);
    }
    count.capacityPorts = capacity;
    return count;
}

} // namespace clusterplanner::core::cluster
