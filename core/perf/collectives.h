// SPDX-License-Identifier: GPL-3.0-or-later
// Collective communication costs: α–β forms, NCCL bus factors and latencies, and a two-tier (NVLink / network)
// fabric on which a parallel group's collectives run.
#pragma once

#include "core/model/gpucatalog.h"
#include "core/model/scenario.h"

namespace clusterplanner::core::perf {

enum class Collective { AllReduce, ReduceScatter, AllGather, AllToAll, Broadcast, Reduce, SendRecv };
enum class NcclAlgorithm { Ring, Tree };
enum class NcclProtocol { LL, LL128, Simple };
enum class LinkKind { NvLink, Pcie, Net };

// ---- Textbook α–β forms (docs/methods-time.md §4.2). bytes = S, the full (reduced or gathered) buffer; bandwidth per
// rank and direction in GB/s (1e9 B/s); alphaS = per-step latency in seconds. Results in seconds.

/// Ring all-reduce: 2(n−1)·α + 2(n−1)/n · S/B.
double ringAllReduceS(double bytes, int ranks, double bandwidthGBs, double alphaS = 0);
/// Ring reduce-scatter or all-gather: (n−1)·α + (n−1)/n · S/B.
double ringReduceScatterS(double bytes, int ranks, double bandwidthGBs, double alphaS = 0);
double ringAllGatherS(double bytes, int ranks, double bandwidthGBs, double alphaS = 0);
/// Tree / recursive-doubling all-reduce: 2·log₂n·α + 2·S/B.
double treeAllReduceS(double bytes, int ranks, double bandwidthGBs, double alphaS = 0);
/// All-to-all where every rank holds S and keeps 1/n of it: (n−1)·α + (n−1)/n · S/B.
double allToAllS(double bytes, int ranks, double bandwidthGBs, double alphaS = 0);
/// One point-to-point message: α + S/B.
double p2pS(double bytes, double bandwidthGBs, double alphaS = 0);
/// Pipelined (ring) broadcast: (n−1)·α + S/B.
double broadcastS(double bytes, int ranks, double bandwidthGBs, double alphaS = 0);

/// NCCL bus-bandwidth factor busbw/algbw (nccl-tests doc/PERFORMANCE.md): all-reduce 2(n−1)/n
/// ((n−1)/(n+1) with in-network reduction, SHARP/NVLS), reduce-scatter / all-gather / all-to-all (n−1)/n,
/// broadcast / reduce / send-recv 1.
double busFactor(Collective collective, int ranks, bool inNetworkReduction = false);

// ---- NCCL's latency model (NVIDIA/nccl src/graph/tuning.cc, v2.30; table in docs/methods-time.md §4.2), microseconds.

double ncclBaseLatencyUs(NcclAlgorithm algorithm, NcclProtocol protocol);
double ncclHwLatencyUs(NcclAlgorithm algorithm, NcclProtocol protocol, LinkKind link);
/// Ring: baseLat + intra-node steps · hwLat(intra) + inter-node steps · hwLat(NET). All-reduce has 2(n−1) steps,
/// 2(nodes−1) of them across the network; the other collectives n−1 steps, nodes−1 across the network.
double ncclRingLatencyUs(
    Collective collective, NcclProtocol protocol, int ranks, int nodes, LinkKind intra = LinkKind::NvLink);
/// Tree all-reduce: baseLat + 2·((ranksPerNode − 1)·hwLat(intra) + log₂(nodes)·hwLat(NET)).
double ncclTreeAllReduceLatencyUs(
    NcclProtocol protocol, int ranksPerNode, int nodes, LinkKind intra = LinkKind::NvLink);
/// Share of the link bandwidth a protocol delivers: LL sends 4 B of flag per 4 B of data (0.5), LL128 120 of
/// 128 B (0.9375), Simple all of it (NCCL protocol design, tuning.cc per-protocol bandwidth caps).
double ncclProtocolBandwidthShare(NcclProtocol protocol);

// ---- Two-tier fabric for the step-time model.

/// Achievable fractions of the line rates (busbw / line rate measured by nccl-tests is ≈ 0.8–0.9 on NVLink
/// and InfiniBand, docs/methods-time.md §4.2). Calibrated per GPU family in data/efficiency.json.
struct LinkEfficiency
{
    double scaleUp = 0.80; ///< achievable share of the NVLink / Infinity Fabric per-direction bandwidth
    double scaleOut = 0.85; ///< achievable share of the NIC bandwidth
    double latencyScale = 1.0; ///< multiplies the NCCL latency terms (fabric hops, software)
};

/// Per-GPU bandwidths and latencies of the two tiers a collective can cross.
struct Fabric
{
    int domainGpus = 8; ///< GPUs that share one scale-up (NVLink) domain
    double scaleUpGBs = 0; ///< achievable per direction per GPU inside the domain
    double scaleOutGBs = 0; ///< achievable per direction per GPU across domains, after oversubscription
    LinkKind intraLink = LinkKind::NvLink; ///< PCIe for cards without a scale-up fabric
    double latencyScale = 1.0;
};

/// scale-up: GpuSpec::scaleupGBsBidir / 2 per direction inside min(scaleupDomainGpus, GPUs); scale-out:
/// ClusterConfig::nicGbps / 8 GB/s per GPU divided by the oversubscription ratio; both times their efficiency.
Fabric makeFabric(const GpuSpec& gpu, const ClusterConfig& cluster, const LinkEfficiency& efficiency);

/// Where one group of ranks sits: size = ranksPerDomain · domains.
struct GroupSpan
{
    int size = 1;
    int ranksPerDomain = 1;
    int domains = 1;
};

/// Time of one collective over a group, in seconds (bytes = S as above; SendRecv = one message to a neighbour
/// in the group, crossing the network when the group spans domains). One domain: ring on the scale-up tier.
/// One rank per domain: ring on the network. Otherwise hierarchical: all-reduce = scale-up reduce-scatter →
/// network all-reduce of S/g per rail → scale-up all-gather; reduce-scatter / all-gather likewise in two
/// phases; all-to-all is bound by the share of S leaving the domain. Latency: NCCL ring model with the
/// cheapest protocol for the size.
double groupCollectiveS(Collective collective, double bytes, const GroupSpan& span, const Fabric& fabric);

/// Share of a token's top-k copies that a deduplicating dispatcher (DeepEP, HybridEP) sends to `targets` (nodes, or
/// the ranks of one node), relative to a plain all-to-all: one copy per destination target. With k experts spread
/// uniformly over n targets the expected distinct remote targets are (n − 1)·(1 − (1 − 1/n)^k), against k·(n − 1)/n
/// copies (docs/methods-time.md §4.25). 1 for one target or k = 1.
double deduplicatedShare(int topK, int targets);

/// How a MoE layer's tokens reach their experts.
struct ExpertRoute
{
    int topK = 1;
    bool deduplicated = false; ///< DeepEP / HybridEP: one copy per destination node (or rank inside a node)
    int expertGroups = 0; ///< group-limited routing (MoeConfig): the experts' groups, 0 = none
    int groupsPerToken = 0; ///< the groups a token may use; 0 or ≥ expertGroups = unlimited
};

/// The EP group's targets (its nodes, or its ranks) that one token's copies can reach: all `targets` under unlimited
/// routing; under group-limited routing the targets holding the groups it may use. Experts sit on the EP ranks in
/// order, so a group spans targets / groups targets when groups are fewer than targets, and at most one group's worth
/// each otherwise (docs/methods-time.md §4.28).
int reachableTargets(const ExpertRoute& route, int targets);

/// One expert all-to-all (dispatch or combine) of `bytes` per rank (its tokens × top-k copies) over the EP group.
/// deduplicated (DeepEP): inside one node one copy per destination rank; across nodes one copy per destination node
/// over the network, forwarded there over NVLink to the destination ranks, over the nodes the routing can reach
/// (docs/methods-time.md §4.25, §4.28). A plain all-to-all sends every copy, wherever it goes.
double expertAllToAllS(double bytes, const ExpertRoute& route, const GroupSpan& span, const Fabric& fabric);

} // namespace clusterplanner::core::perf
