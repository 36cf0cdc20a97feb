// SPDX-License-Identifier: GPL-3.0-or-later
// The one cluster model: node groups, racks and the scale-out fabric. The training engine (through the scenario's
// training group), the scheduling simulator, the cost model and the GUI all read this (docs/methods-cost.md §8,
// docs/methods-cluster.md).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clusterplanner::core::cluster {

/// `nodeCount` identical servers. The scale-up (NVLink) domain may be smaller than a node (two 4-GPU domains in an
/// 8-GPU node), equal to it (HGX: 8) or span nodes (GB200 NVL72: 72 GPUs over 18 trays of 4).
struct NodeGroup
{
    std::string name = "hgx-h100"; ///< unique in the cluster; how a scenario names its training group
    std::string gpuId = "H100-SXM-80GB"; ///< catalog id (data/gpus.json)
    int nodeCount = 8;
    int gpusPerNode = 8;
    int scaleUpDomainGpus = 8; ///< GPUs per NVLink domain; must divide or be a multiple of gpusPerNode
    int nicsPerNode = 8;
    double nicGbps = 400; ///< per NIC, Gbit/s per direction
    int cpuCores = 112;
    double hostMemoryGiB = 2048;
    /// Board power limit per GPU (nvidia-smi -pl); unset = the catalog TDP. Meta's Grand Teton H100s run at 500 W.
    std::optional<double> gpuPowerLimitW;
    /// Non-GPU IT power per node (CPUs, NICs, fans, PSU loss); unset = data/costs.json node_overhead_w.
    std::optional<double> nodeOverheadW;
    /// Whole-node purchase price, GPUs included; unset = GPUs at the catalog price + node_overhead_usd.
    std::optional<double> nodePriceUsd;
    int nodesPerRack = 4; ///< 4 air-cooled HGX nodes per rack; 18 trays per NVL72 rack
    bool operator==(const NodeGroup&) const = default;

    long long gpuCount() const { return static_cast<long long>(nodeCount) * gpusPerNode; }
};

/// One switching tier of the scale-out fabric, counted from the NICs up: leaf (or rail), spine, core.
struct FabricTier
{
    std::string name = "leaf";
    /// Downlink/uplink bandwidth ratio of this tier's switches (1 = non-blocking, 2 = 2:1). The top tier has no
    /// uplinks; its value is ignored.
    double oversubscription = 1.0;
    int switchRadix = 64; ///< ports per switch (NVIDIA QM9700: 64 × 400G NDR)
    double portGbps = 400; ///< per port, per direction
    std::optional<double> switchPriceUsd; ///< unset = data/costs.json
    std::optional<double> switchPowerW; ///< unset = data/costs.json
    bool operator==(const FabricTier&) const = default;
};

/// A tier with the defaults above and the given name.
inline FabricTier namedTier(std::string name)
{
    FabricTier tier;
    tier.name = std::move(name);
    return tier;
}

struct Fabric
{
    /// Rail-optimised: NIC k of every node in a scalable unit goes to leaf (rail) switch k, so same-rank GPUs of
    /// different nodes are one hop apart (NVIDIA DGX SuperPOD reference architecture).
    bool railOptimized = true;
    std::vector<FabricTier> tiers = {namedTier("leaf"), namedTier("spine")};
    std::optional<double>
        opticsUsdPerLink; ///< transceivers and cable per switch-to-switch or NIC link; unset = data/costs.json
    bool operator==(const Fabric&) const = default;
};

struct Facility
{
    double rackPowerLimitKw = 40; ///< per rack; air-cooled halls ≈ 15–40 kW, liquid-cooled NVL72 ≈ 120–132 kW
    std::optional<double> pue; ///< unset = data/costs.json
    bool operator==(const Facility&) const = default;
};

struct ClusterSpec
{
    std::string name = "cluster";
    std::vector<NodeGroup> groups; ///< nodes are numbered in group order, then in order inside a group
    Fabric fabric;
    Facility facility;
    bool operator==(const ClusterSpec&) const = default;

    const NodeGroup* findGroup(const std::string& groupName) const;
    long long nodeCount() const;
    long long gpuCount() const;
};

} // namespace clusterplanner::core::cluster
