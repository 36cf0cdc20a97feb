// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/perf/collectives.h"

#include <algorithm>
#include <cmath>

namespace clusterplanner::core::perf {

namespace {

constexpr double kGB = 1e9;

// NCCL src/graph/tuning.cc (v2.30) latencies in µs, indexed [algorithm][protocol] and [algorithm][link][protocol].
// Protocol order LL, LL128, Simple; algorithm order Tree, Ring. Copied as numbers from docs/methods-time.md §4.2.
constexpr double kBaseLatUs[2][3] = {{6.8, 14.0, 8.4}, {6.6, 14.0, 8.4}};
constexpr double kHwLatUs[2][3][3] = {
    {{0.6, 1.25, 4.0}, {1.0, 1.9, 4.0}, {5.0, 8.5, 14.0}}, // tree: NVLink, PCIe, NET
    {{0.6, 1.9, 3.4}, {1.0, 2.5, 5.7}, {2.7, 4.0, 14.0}}, // ring: NVLink, PCIe, NET
};

int algorithmIndex(NcclAlgorithm a)
{
    return a == NcclAlgorithm::Tree ? 0 : 1;
}

double log2Ranks(int ranks)
{
    return ranks > 1 ? std::log2(double(ranks)) : 0.0;
}

/// Bytes each rank pushes through its link for the collective (the bus-bandwidth volume).
double busBytes(Collective c, double bytes, int ranks)
{
    return c == Collective::SendRecv ? bytes : busFactor(c, ranks) * bytes;
}

/// One tier, every rank on the same kind of link: the cheapest NCCL protocol for this size.
double tierS(Collective c, double bytes, int ranks, int nodes, double bandwidthGBs, LinkKind intra, double latencyScale)
{
    if (ranks <= 1 && c != Collective::SendRecv)
        return 0.0;
    const double volumeS = busBytes(c, bytes, ranks) / (bandwidthGBs * kGB);
    // ncclRingLatencyUs inlined over the three protocols (the sweep calls this ~10 times per layout).
    const bool twoPass = c == Collective::AllReduce;
    const int steps = c == Collective::SendRecv ? 1 : (twoPass ? 2 : 1) * (std::max(ranks, 2) - 1);
    const int netSteps = c == Collective::SendRecv ? (nodes > 1 ? 1 : 0) : (twoPass ? 2 : 1) * (nodes - 1);
    constexpr double kShare[3] = {0.5, 120.0 / 128.0, 1.0}; // ncclProtocolBandwidthShare
    const auto& ring = kHwLatUs[1];
    double best = HUGE_VAL;
    for (int p = 0; p < 3; ++p) {
        const double latencyUs
            = kBaseLatUs[1][p] + (steps - netSteps) * ring[int(intra)][p] + netSteps * ring[int(LinkKind::Net)][p];
        best = std::min(best, latencyUs * 1e-6 * latencyScale + volumeS / kShare[p]);
    }
    return best;
}

/// All-to-all over several domains: bound by the bytes leaving the domain or by those staying in it, whichever link
/// is the busier.
double hierarchicalAllToAllS(double bytes, const GroupSpan& span, const Fabric& f)
{
    const double ranks = span.size, g = span.ranksPerDomain;
    const double offDomainS = bytes * (ranks - g) / ranks / (f.scaleOutGBs * kGB);
    const double inDomainS = bytes * (g - 1) / ranks / (f.scaleUpGBs * kGB);
    return std::max(offDomainS, inDomainS)
        + ncclRingLatencyUs(Collective::AllToAll, NcclProtocol::Simple, span.size, span.domains, f.intraLink) * 1e-6
        * f.latencyScale;
}

double hierarchicalS(Collective c, double bytes, const GroupSpan& span, const Fabric& f)
{
    const int g = span.ranksPerDomain, n = span.domains;
    const double up = f.scaleUpGBs, out = f.scaleOutGBs, scale = f.latencyScale;
    const LinkKind il = f.intraLink;
    switch (c) {
    case Collective::AllReduce:
        return tierS(Collective::ReduceScatter, bytes, g, 1, up, il, scale)
            + tierS(Collective::AllReduce, bytes / g, n, n, out, il, scale)
            + tierS(Collective::AllGather, bytes, g, 1, up, il, scale);
    case Collective::ReduceScatter:
    case Collective::AllGather:
        return tierS(c, bytes, g, 1, up, il, scale) + tierS(c, bytes / g, n, n, out, il, scale);
    case Collective::AllToAll:
        return hierarchicalAllToAllS(bytes, span, f);
    case Collective::Broadcast:
    case Collective::Reduce:
    case Collective::SendRecv:
        break;
    }
    return tierS(c, bytes, span.size, n, out, il, scale);
}

} // namespace

double ringAllReduceS(double bytes, int n, double bandwidthGBs, double alphaS)
{
    return n <= 1 ? 0.0 : 2.0 * (n - 1) * alphaS + 2.0 * (n - 1) / n * bytes / (bandwidthGBs * kGB);
}

double ringReduceScatterS(double bytes, int n, double bandwidthGBs, double alphaS)
{
    return n <= 1 ? 0.0 : (n - 1) * alphaS + double(n - 1) / n * bytes / (bandwidthGBs * kGB);
}

double ringAllGatherS(double bytes, int n, double bandwidthGBs, double alphaS)
{
    return ringReduceScatterS(bytes, n, bandwidthGBs, alphaS);
}

double treeAllReduceS(double bytes, int n, double bandwidthGBs, double alphaS)
{
    return n <= 1 ? 0.0 : 2.0 * log2Ranks(n) * alphaS + 2.0 * bytes / (bandwidthGBs * kGB);
}

double allToAllS(double bytes, int n, double bandwidthGBs, double alphaS)
{
    return ringReduceScatterS(bytes, n, bandwidthGBs, alphaS);
}

double p2pS(double bytes, double bandwidthGBs, double alphaS)
{
    return alphaS + bytes / (bandwidthGBs * kGB);
}

double broadcastS(double bytes, int n, double bandwidthGBs, double alphaS)
{
    return n <= 1 ? 0.0 : (n - 1) * alphaS + bytes / (bandwidthGBs * kGB);
}

double busFactor(Collective c, int n, bool inNetworkReduction)
{
    if (n <= 1)
        return 0.0;
    switch (c) {
    case Collective::AllReduce:
        return inNetworkReduction ? double(n - 1) / (n + 1) : 2.0 * (n - 1) / n;
    case Collective::ReduceScatter:
    case Collective::AllGather:
    case Collective::AllToAll:
        return double(n - 1) / n;
    case Collective::Broadcast:
    case Collective::Reduce:
    case Collective::SendRecv:
        break;
    }
    return 1.0;
}

double ncclBaseLatencyUs(NcclAlgorithm a, NcclProtocol p)
{
    return kBaseLatUs[algorithmIndex(a)][int(p)];
}

double ncclHwLatencyUs(NcclAlgorithm a, NcclProtocol p, LinkKind link)
{
    return kHwLatUs[algorithmIndex(a)][int(link)][int(p)];
}

double ncclRingLatencyUs(Collective c, NcclProtocol p, int ranks, int nodes, LinkKind intra)
{
    const bool twoPass = c == Collective::AllReduce;
    const int steps = c == Collective::SendRecv ? 1 : (twoPass ? 2 : 1) * (ranks - 1);
    const int netSteps = c == Collective::SendRecv ? (nodes > 1 ? 1 : 0) : (twoPass ? 2 : 1) * (nodes - 1);
    return ncclBaseLatencyUs(NcclAlgorithm::Ring, p)
        + (steps - netSteps) * ncclHwLatencyUs(NcclAlgorithm::Ring, p, intra)
        + netSteps * ncclHwLatencyUs(NcclAlgorithm::Ring, p, LinkKind::Net);
}

double ncclTreeAllReduceLatencyUs(NcclProtocol p, int ranksPerNode, int nodes, LinkKind intra)
{
    return ncclBaseLatencyUs(NcclAlgorithm::Tree, p)
        + 2.0
        * ((ranksPerNode - 1) * ncclHwLatencyUs(NcclAlgorithm::Tree, p, intra)
            + log2Ranks(nodes) * ncclHwLatencyUs(NcclAlgorithm::Tree, p, LinkKind::Net));
}

double ncclProtocolBandwidthShare(NcclProtocol p)
{
    switch (p) {
    case NcclProtocol::LL:
        return 0.5;
    case NcclProtocol::LL128:
        return 120.0 / 128.0;
    case NcclProtocol::Simple:
        break;
    }
    return 1.0;
}

Fabric makeFabric(const GpuSpec& gpu, const ClusterConfig& cluster, const LinkEfficiency& efficiency)
{
    Fabric f;
    const bool hasScaleUp = gpu.scaleupDomainGpus > 1;
    f.domainGpus = std::max(1, std::min(gpu.scaleupDomainGpus, std::max(1, cluster.gpuCount)));
    f.intraLink = hasScaleUp ? LinkKind::NvLink : LinkKind::Pcie;
    f.scaleUpGBs = gpu.scaleupGBsBidir / 2.0 * efficiency.scaleUp;
    f.scaleOutGBs = cluster.nicGbps / 8.0 / std::max(1.0, cluster.oversubscription) * efficiency.scaleOut;
    f.latencyScale = efficiency.latencyScale;
    return f;
}

double groupCollectiveS(Collective c, double bytes, const GroupSpan& span, const Fabric& f)
{
    if (bytes <= 0 || (span.size <= 1 && c != Collective::SendRecv))
        return 0.0;
    if (span.domains <= 1)
        return tierS(c, bytes, span.size, 1, f.scaleUpGBs, f.intraLink, f.latencyScale);
    if (span.ranksPerDomain <= 1)
        return tierS(c, bytes, span.size, span.size, f.scaleOutGBs, f.intraLink, f.latencyScale);
    return hierarchicalS(c, bytes, span, f);
}

double deduplicatedShare(int topK, int targets)
{
    if (targets <= 1 || topK <= 1)
        return 1.0;
    const double n = targets, k = topK;
    // Expected distinct targets hit by k uniform picks, against the k copies a plain all-to-all sends; the remote
    // share (n − 1)/n is the same for both and cancels.
    return n * (1 - std::pow(1 - 1 / n, k)) / k;
}

int reachableTargets(const ExpertRoute& route, int targets)
{
    const int groups = route.expertGroups, allowed = route.groupsPerToken;
    if (!limitsExpertGroups(groups, allowed) || targets <= 1)
        return targets;
    const int targetsPerGroup = std::max(1, targets / groups);
    return std::clamp(allowed * targetsPerGroup, 1, targets);
}

double expertAllToAllS(double bytes, const ExpertRoute& route, const GroupSpan& span, const Fabric& f)
{
    if (!route.deduplicated)
        return groupCollectiveS(Collective::AllToAll, bytes, span, f);
    if (bytes <= 0 || span.size <= 1)
        return 0.0;
    const int topK = route.topK;
    // DeepEP inside a node: one copy per destination rank, over the ranks the routing can reach (group-limited
    // routing keeps a token to the ranks of its groups there too). One rank per node: one per destination node.
    const int reachableRanks = reachableTargets(route, span.size);
    if (span.domains <= 1)
        return tierS(Collective::AllToAll, deduplicatedShare(topK, reachableRanks) * bytes, span.size, 1, f.scaleUpGBs,
            f.intraLink, f.latencyScale);
    if (span.ranksPerDomain <= 1)
        return tierS(Collective::AllToAll, deduplicatedShare(topK, reachableRanks) * bytes, span.size, span.size,
            f.scaleOutGBs, f.intraLink, f.latencyScale);
    // Across nodes: one copy per destination node to the GPU of the same local index there, which forwards it over
    // NVLink to each destination rank of its node but itself: (g − 1)/g of the per-rank copies cross NVLink. The
    // routing spreads a token's k copies over the nodes (and their ranks) it can reach; every node is equally likely
    // to be one of them, so the remote share (ranks − g)/ranks holds either way. Where groups outnumber nodes, a
    // token reaches fewer ranks than its nodes hold: the ranks of its groups.
    const double g = span.ranksPerDomain, ranks = span.size;
    const int nodes = reachableTargets(route, span.domains);
    const double offDomainS = deduplicatedShare(topK, nodes) * bytes * (ranks - g) / ranks / (f.scaleOutGBs * kGB);
    const double inDomainS = deduplicatedShare(topK, reachableRanks) * bytes * (g - 1) / g / (f.scaleUpGBs * kGB);
    return std::max(offDomainS, inDomainS)
        + ncclRingLatencyUs(Collective::AllToAll, NcclProtocol::Simple, span.size, span.domains, f.intraLink) * 1e-6
        * f.latencyScale;
}

} // namespace clusterplanner::core::perf
