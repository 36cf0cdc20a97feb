// SPDX-License-Identifier: GPL-3.0-or-later
// A heterogeneous cluster for the scheduling simulator: node types, node groups, racks and the scale-out fabric.
#pragma once

#include "core/io/inputlimits.h"
#include "core/model/costdefaults.h"
#include "core/model/scenario.h"

#include <string>
#include <vector>

namespace clusterplanner::core {
class GpuCatalog;
}

namespace clusterplanner::core::sched {

enum class FabricKind { FatTree, RailOptimized };

/// One kind of server. GPUs are numbered 0..gpuCount-1 inside the node.
struct NodeType
{
    std::string name = "hgx-h100";
    std::string gpuId = "H100-SXM-80GB"; ///< catalog id
    int gpuCount = 8;
    /// GPU indices of each NVLink domain, e.g. {{0,1,2,3},{4,5,6,7}}; empty = one domain holding every GPU.
    std::vector<std::vector<int>> nvlinkDomains;
    int cpuCores = 112;
    double memoryGiB = 2048; ///< host memory
    int nicCount = 8;
    double nicGbps = 400; ///< per NIC, Gbit/s per direction
    /// Power of everything but the GPUs (CPUs, NICs, fans, PSU loss). Default: node_overhead_w of data/costs.json
    /// (DGX H100 ≈ 10.2 kW per node minus 8 × 0.7 kW GPU TDP, docs/methods-cost.md §8).
    double overheadKw = costDefaults().nodeOverheadKw();
    double bandwidthGbps() const { return nicCount * nicGbps; }
    bool operator==(const NodeType&) const = default;
};

/// `count` nodes of the node type named `nodeType`.
struct NodeGroup
{
    std::string nodeType;
    int count = 1;
    bool operator==(const NodeGroup&) const = default;
};

struct ClusterModel
{
    std::string name = "cluster";
    std::vector<NodeType> nodeTypes;
    std::vector<NodeGroup> groups; ///< nodes are numbered in group order, then in order inside a group
    int nodesPerRack = 4;
    FabricKind fabric = FabricKind::FatTree;
    double oversubscription = 1.0; ///< scale-out fabric, 1 = non-blocking
    bool operator==(const ClusterModel&) const = default;

    /// The node type of a group, or nullptr if the name is unknown.
    const NodeType* findType(const std::string& name) const;
    int nodeCount() const;
    int gpuCount() const;
};

/// Aggregate figures of a cluster, from the GPU catalog.
struct ClusterTotals
{
    int nodes = 0;
    int racks = 0;
    int gpus = 0;
    double gpuMemoryGB = 0; ///< datasheet GB (1e9 B), summed
    double peakPflopsFp32 = 0; ///< dense peak, GpuSpec::peakFlops
    double peakPflopsBf16 = 0;
    double peakPflopsFp16 = 0;
    double peakPflopsFp8 = 0; ///< of the GPUs with FP8 tensor cores only
    double powerKw = 0; ///< Σ GPU TDP + node overhead, IT power before PUE
    double purchaseUsd = 0; ///< GPUs at the catalog price midpoint
    int unpricedGpus = 0; ///< GPUs whose catalog entry has no price (not in purchaseUsd)
};

/// Throws std::invalid_argument naming the group when a node type or a GPU id is unknown.
ClusterTotals clusterTotals(const ClusterModel& model, const GpuCatalog& catalog);

/// Throws std::invalid_argument naming the limit when a cluster exceeds limits::kMaxClusterNodes or
/// limits::kMaxClusterGpus (core/io/inputlimits.h). Counts are 64-bit so that the check itself cannot overflow.
void checkClusterSize(long long nodes, long long gpus);

/// Throws std::invalid_argument (checkClusterSize) for a cluster beyond the limits. One node type with ClusterConfig's
/// GPU, nodes of gpusPerNode GPUs (the last one smaller if gpuCount is not a multiple), NVLink domains of the catalog's
/// scale-up domain size, one NIC of nicGbps per GPU.
ClusterModel homogeneousCluster(const ClusterConfig& config, const GpuCatalog& catalog);

/// Parses "0-3,5,7" into {0,1,2,3,5,7}; throws std::invalid_argument with the offending part. Every index must be
/// below indexCount, checked before a range is expanded.
std::vector<int> parseIndexList(const std::string& text, int indexCount = limits::kMaxGpusPerNode);
/// The inverse: consecutive runs become "a-b".
std::string formatIndexList(const std::vector<int>& indices);

} // namespace clusterplanner::core::sched
