// SPDX-License-Identifier: GPL-3.0-or-later
// Run-time state of the simulated cluster: per-node and per-GPU usage, free-GPU counters and utilisation integrals.
#pragma once

#include "core/sched/clustermodel.h"

#include <array>
#include <set>
#include <string>
#include <vector>

namespace clusterplanner::core::sched {

/// Static facts of one node, expanded from the ClusterModel groups.
struct NodeInfo
{
    int id = 0;
    int gpuType = 0; ///< index into ClusterState::gpuTypeIds()
    int nodeType = 0; ///< index of the node type (distinct ClusterModel::nodeTypes used by groups)
    int rack = 0;
    int gpus = 0;
    double gpuMemoryMiB = 0; ///< per GPU
    double tdpW = 0; ///< per GPU
    double cpuCores = 0;
    double memoryGiB = 0;
    double bandwidthGbps = 0;
    std::vector<int> domainOf; ///< NVLink domain of each GPU
    int domains = 1;
};

struct GpuUse
{
    int milli = 0; ///< 1000 when whole jobs hold it, else the sum of fractional shares
    int residents = 0; ///< whole-GPU jobs on it (> 1 only under time slicing)
    double memoryMiB = 0;
    bool isFree() const { return milli == 0 && residents == 0; }
};

struct NodeUse
{
    int busyGpus = 0;
    double cpuCores = 0;
    double memoryGiB = 0;
    double bandwidthGbps = 0;
};

/// GPUs of one node given to one job, and what the job uses there.
struct GpuSlice
{
    int node = 0;
    std::vector<int> gpus;
    int milli = 1000; ///< per GPU; < 1000 for a fractional job
    double gpuMemoryMiB = 0; ///< per GPU
    double cpuCores = 0;
    double memoryGiB = 0;
    double bandwidthGbps = 0;
};

/// One step of a node's usage curve: from timeS on, the node's utilisation of GPU, memory, CPU, bandwidth.
struct UsageSample
{
    double timeS = 0;
    std::array<float, 4> u {};
};

/// Whether `gpus` GPUs fit on at most maxNodes (0 = any number of) nodes, given [k] = nodes with k free GPUs.
bool fitsInFreeHistogram(const std::vector<int>& histogram, int gpus, int maxNodes);

class ClusterState
{
public:
    /// Throws std::invalid_argument for an unknown node type or GPU id.
    ClusterState(const ClusterModel& model, const GpuCatalog& catalog, bool recordTimeline);

    const std::vector<NodeInfo>& nodes() const { return m_nodes; }
    const NodeUse& use(int node) const { return m_use[static_cast<std::size_t>(node)]; }
    const GpuUse& gpu(int node, int index) const { return m_gpus[gpuIndex(node, index)]; }
    /// Cluster-wide GPU number, 0..totalGpus()-1, nodes in order.
    int globalGpu(int node, int index) const { return static_cast<int>(gpuIndex(node, index)); }
    int freeGpusOn(int node) const { return m_nodes[static_cast<std::size_t>(node)].gpus - use(node).busyGpus; }
    const std::vector<std::string>& gpuTypeIds() const { return m_typeIds; }
    /// Index of a catalog id among the cluster's GPU types, -1 if the cluster has none of it.
    int gpuTypeIndex(const std::string& gpuId) const;
    int totalGpus() const { return m_totalGpus; }
    int totalGpus(int type) const { return m_typeGpus[static_cast<std::size_t>(type)]; }
    int freeGpus(int type) const { return m_typeFree[static_cast<std::size_t>(type)]; }
    int freeGpus() const;
    /// Nodes of a GPU type with at least one free GPU, in no particular order.
    const std::vector<int>& nodesWithFreeGpus(int type) const { return m_freeNodes[static_cast<std::size_t>(type)]; }
    /// Whether `gpus` free whole GPUs of the type exist on at most maxNodes nodes (counts only, O(GPUs per node)).
    bool fitsByCount(int type, int gpus, int maxNodes) const;
    /// As fitsByCount, on an empty cluster.
    bool fitsWhenEmpty(int type, int gpus, int maxNodes) const;
    /// Free GPUs on nodes whose free count is below minRequest (docs/methods-scheduling.md §7 I_frag numerator).
    int strandedFreeGpus(int minRequest) const;
    /// Free GPUs that a request of `gpus` cannot use on any node: on nodes with fewer free GPUs than
    /// min(gpus, the node type's GPUs) — a job larger than a node needs whole free nodes.
    int strandedFreeGpusFor(int gpus) const;
    /// [k] = nodes of the GPU type with k free GPUs.
    const std::vector<int>& freeHistogram(int type) const { return m_freeHistogram[static_cast<std::size_t>(type)]; }
    /// The most free GPUs on one node of the type.
    int maxFreeOnOneNode(int type) const;

    /// Keeps, per (node type, free GPUs), the nodes ordered by host load wMemory·mem/cap + wCpu·cpu/cap
    /// (descending when `descending`), ties by node id, so that PACK and SPREAD find the best node of a bucket
    /// without scanning every node.
    void enableLoadIndex(double wMemory, double wCpu, bool descending);
    bool hasLoadIndex() const { return m_loadIndex; }
    int nodeTypeCount() const { return static_cast<int>(m_nodeTypeGpus.size()); }
    int nodeTypeGpus(int nodeType) const { return m_nodeTypeGpus[static_cast<std::size_t>(nodeType)]; }
    int nodeTypeGpuType(int nodeType) const { return m_nodeTypeGpuType[static_cast<std::size_t>(nodeType)]; }
    const std::set<std::pair<double, int>>& bucket(int nodeType, int freeGpus) const
    {
        return m_buckets[static_cast<std::size_t>(nodeType * (m_maxNodeGpus + 1) + freeGpus)];
    }

    void allocate(const GpuSlice& slice, double nowS) { apply(slice, +1, nowS); }
    void release(const GpuSlice& slice, double nowS) { apply(slice, -1, nowS); }

    std::array<double, 4> utilization(int node) const;
    /// Cluster-wide used/capacity of {GPU, MEM, CPU, BW} (capacity-weighted mean of U's rows).
    std::array<double, 4> clusterUtilization() const;
    /// Closes the integrals at endS; afterwards averageUtilization and idle-gap sums are final.
    void finish(double endS);
    /// Time-averaged U row of a node over [startS, endS].
    std::array<double, 4> averageUtilization(int node, double startS, double endS) const;
    /// Σ over GPUs of idle gaps between consecutive busy periods (docs/methods-scheduling.md §7 F_time numerator).
    const std::vector<std::vector<UsageSample>>& timeline() const { return m_timeline; }

private:
    std::size_t gpuIndex(int node, int index) const
    {
        return static_cast<std::size_t>(m_gpuOffset[static_cast<std::size_t>(node)] + index);
    }
    void addNodes(
        const NodeType& type, int count, int gpuType, int nodeType, const GpuCatalog& catalog, int nodesPerRack);
    void apply(const GpuSlice& slice, int sign, double nowS);
    void integrate(int node, double nowS);
    void setFree(int node, int oldFree, int newFree);
    double loadKey(int node) const;

    std::vector<NodeInfo> m_nodes;
    std::vector<NodeUse> m_use;
    std::vector<int> m_gpuOffset;
    std::vector<GpuUse> m_gpus;
    std::vector<std::string> m_typeIds;
    std::vector<int> m_typeGpus, m_typeFree, m_typeMaxNodeGpus;
    std::vector<std::vector<int>> m_freeHistogram; ///< [type][k] = nodes with k free GPUs
    std::vector<std::vector<int>> m_emptyHistogram; ///< the same for the empty cluster
    std::vector<std::vector<int>> m_freeNodes;
    std::vector<int> m_freeNodePos;
    std::vector<double> m_lastChangeS;
    std::vector<std::array<double, 4>> m_integral;
    std::vector<std::vector<UsageSample>> m_timeline;
    std::vector<int> m_nodeTypeGpus, m_nodeTypeGpuType;
    int m_maxNodeGpus = 0;
    bool m_loadIndex = false;
    double m_loadWeights[2] = {0, 0};
    double m_loadSign = 1;
    std::vector<std::set<std::pair<double, int>>> m_buckets;
    std::vector<double> m_nodeKey;
    NodeUse m_sumUse;
    std::array<double, 4> m_sumCapacity {};
    bool m_recordTimeline = true;
    int m_totalGpus = 0;
};

} // namespace clusterplanner::core::sched
