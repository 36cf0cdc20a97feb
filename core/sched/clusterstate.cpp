// SPDX-License-Identifier: GPL-3.0-or-later
// Per-node counters of the simulated cluster, kept incrementally so that a scheduling decision never scans all jobs.
#include "core/sched/clusterstate.h"

#include "core/model/gpucatalog.h"

#include <algorithm>
#include <stdexcept>

namespace clusterplanner::core::sched {

ClusterState::ClusterState(const ClusterModel& model, const GpuCatalog& catalog, bool recordTimeline)
    : m_recordTimeline(recordTimeline)
{
    for (const auto& group : model.groups) {
        const NodeType* type = model.findType(group.nodeType);
        if (!type)
            throw std::invalid_argument("node group: unknown node type \"" + group.nodeType + "\"");
        int typeIndex = gpuTypeIndex(type->gpuId);
        if (typeIndex < 0) {
            typeIndex = static_cast<int>(m_typeIds.size());
            m_typeIds.push_back(type->gpuId);
            m_typeGpus.push_back(0);
            m_typeFree.push_back(0);
            m_typeMaxNodeGpus.push_back(0);
            m_freeNodes.emplace_back();
        }
        const int nodeType = static_cast<int>(type - model.nodeTypes.data());
        if (nodeType >= static_cast<int>(m_nodeTypeGpus.size())) {
            m_nodeTypeGpus.resize(std::size_t(nodeType) + 1, 0);
            m_nodeTypeGpuType.resize(std::size_t(nodeType) + 1, 0);
        }
        m_nodeTypeGpus[std::size_t(nodeType)] = type->gpuCount;
        m_nodeTypeGpuType[std::size_t(nodeType)] = typeIndex;
        m_maxNodeGpus = std::max(m_maxNodeGpus, type->gpuCount);
        addNodes(*type, group.count, typeIndex, nodeType, catalog, std::max(1, model.nodesPerRack));
    }
    m_freeHistogram.resize(m_typeIds.size());
    for (std::size_t t = 0; t < m_typeIds.size(); ++t)
        m_freeHistogram[t].assign(static_cast<std::size_t>(m_typeMaxNodeGpus[t] + 1), 0);
    for (const auto& node : m_nodes)
        ++m_freeHistogram[static_cast<std::size_t>(node.gpuType)][static_cast<std::size_t>(node.gpus)];
    m_emptyHistogram = m_freeHistogram;
    m_use.resize(m_nodes.size());
    m_lastChangeS.assign(m_nodes.size(), 0.0);
    m_integral.assign(m_nodes.size(), {});
    m_timeline.resize(recordTimeline ? m_nodes.size() : 0);
}

void ClusterState::addNodes(
    const NodeType& type, int count, int gpuType, int nodeType, const GpuCatalog& catalog, int nodesPerRack)
{
    const GpuSpec* spec = catalog.find(type.gpuId);
    if (!spec)
        throw std::invalid_argument("node type " + type.name + ": " + catalog.unknownIdText(type.gpuId));
    NodeInfo info;
    info.gpuType = gpuType;
    info.nodeType = nodeType;
    info.gpus = type.gpuCount;
    info.gpuMemoryMiB = spec->memoryBytes() / (1024.0 * 1024.0);
    info.tdpW = spec->tdpW;
    info.cpuCores = type.cpuCores;
    info.memoryGiB = type.memoryGiB;
    info.bandwidthGbps = type.bandwidthGbps();
    info.domainOf.assign(static_cast<std::size_t>(type.gpuCount), 0);
    info.domains = std::max<int>(1, static_cast<int>(type.nvlinkDomains.size()));
    for (std::size_t d = 0; d < type.nvlinkDomains.size(); ++d)
        for (int gpu : type.nvlinkDomains[d])
            if (gpu >= 0 && gpu < type.gpuCount)
                info.domainOf[static_cast<std::size_t>(gpu)] = static_cast<int>(d);
    auto& typeMax = m_typeMaxNodeGpus[static_cast<std::size_t>(gpuType)];
    typeMax = std::max(typeMax, type.gpuCount);
    for (int i = 0; i < count; ++i) {
        info.id = static_cast<int>(m_nodes.size());
        info.rack = info.id / nodesPerRack;
        m_gpuOffset.push_back(static_cast<int>(m_gpus.size()));
        m_gpus.resize(m_gpus.size() + static_cast<std::size_t>(type.gpuCount));
        m_freeNodePos.push_back(static_cast<int>(m_freeNodes[static_cast<std::size_t>(gpuType)].size()));
        m_freeNodes[static_cast<std::size_t>(gpuType)].push_back(info.id);
        m_nodes.push_back(info);
        m_sumCapacity[0] += info.gpus;
        m_sumCapacity[1] += info.memoryGiB;
        m_sumCapacity[2] += info.cpuCores;
        m_sumCapacity[3] += info.bandwidthGbps;
    }
    m_typeGpus[static_cast<std::size_t>(gpuType)] += count * type.gpuCount;
    m_typeFree[static_cast<std::size_t>(gpuType)] += count * type.gpuCount;
    m_totalGpus += count * type.gpuCount;
}

int ClusterState::gpuTypeIndex(const std::string& gpuId) const
{
    auto it = std::find(m_typeIds.begin(), m_typeIds.end(), gpuId);
    return it == m_typeIds.end() ? -1 : static_cast<int>(it - m_typeIds.begin());
}

int ClusterState::freeGpus() const
{
    int free = 0;
    for (int f : m_typeFree)
        free += f;
    return free;
}

bool fitsInFreeHistogram(const std::vector<int>& histogram, int gpus, int maxNodes)
{
    int remaining = gpus;
    int nodesLeft = maxNodes > 0 ? maxNodes : 1 << 30;
    for (int k = static_cast<int>(histogram.size()) - 1; k > 0 && nodesLeft > 0 && remaining > 0; --k) {
        const int use = std::min(nodesLeft, histogram[static_cast<std::size_t>(k)]);
        remaining -= use * k;
        nodesLeft -= use;
    }
    return remaining <= 0;
}

bool ClusterState::fitsByCount(int type, int gpus, int maxNodes) const
{
    if (m_typeFree[static_cast<std::size_t>(type)] < gpus)
        return false;
    return fitsInFreeHistogram(m_freeHistogram[static_cast<std::size_t>(type)], gpus, maxNodes);
}

bool ClusterState::fitsWhenEmpty(int type, int gpus, int maxNodes) const
{
    return fitsInFreeHistogram(m_emptyHistogram[static_cast<std::size_t>(type)], gpus, maxNodes);
}

int ClusterState::strandedFreeGpus(int minRequest) const
{
    int stranded = 0;
    for (const auto& histogram : m_freeHistogram)
        for (int k = 1; k < std::min<int>(minRequest, static_cast<int>(histogram.size())); ++k)
            stranded += k * histogram[static_cast<std::size_t>(k)];
    return stranded;
}

int ClusterState::strandedFreeGpusFor(int gpus) const
{
    int stranded = 0;
    for (std::size_t t = 0; t < m_freeHistogram.size(); ++t) {
        const int usable = std::min(gpus, m_typeMaxNodeGpus[t]);
        for (int k = 1; k < usable; ++k)
            stranded += k * m_freeHistogram[t][static_cast<std::size_t>(k)];
    }
    return stranded;
}

int ClusterState::maxFreeOnOneNode(int type) const
{
    const auto& histogram = m_freeHistogram[static_cast<std::size_t>(type)];
    for (int k = static_cast<int>(histogram.size()) - 1; k > 0; --k)
        if (histogram[static_cast<std::size_t>(k)] > 0)
            return k;
    return 0;
}

void ClusterState::enableLoadIndex(double wMemory, double wCpu, bool descending)
{
    m_loadIndex = true;
    m_loadWeights[0] = wMemory;
    m_loadWeights[1] = wCpu;
    m_loadSign = descending ? -1.0 : 1.0;
    m_buckets.assign(static_cast<std::size_t>(nodeTypeCount() * (m_maxNodeGpus + 1)), {});
    m_nodeKey.assign(m_nodes.size(), 0.0);
    for (const auto& node : m_nodes) {
        m_nodeKey[std::size_t(node.id)] = loadKey(node.id);
        m_buckets[std::size_t(node.nodeType * (m_maxNodeGpus + 1) + freeGpusOn(node.id))].insert(
            {m_nodeKey[std::size_t(node.id)], node.id});
    }
}

double ClusterState::loadKey(int node) const
{
    const NodeInfo& info = m_nodes[static_cast<std::size_t>(node)];
    const NodeUse& use = m_use[static_cast<std::size_t>(node)];
    const double memory = info.memoryGiB > 0 ? use.memoryGiB / info.memoryGiB : 0.0;
    const double cpu = info.cpuCores > 0 ? use.cpuCores / info.cpuCores : 0.0;
    return m_loadSign * (m_loadWeights[0] * memory + m_loadWeights[1] * cpu);
}

void ClusterState::setFree(int node, int oldFree, int newFree)
{
    const auto type = static_cast<std::size_t>(m_nodes[static_cast<std::size_t>(node)].gpuType);
    --m_freeHistogram[type][static_cast<std::size_t>(oldFree)];
    ++m_freeHistogram[type][static_cast<std::size_t>(newFree)];
    m_typeFree[type] += newFree - oldFree;
    auto& list = m_freeNodes[type];
    auto& pos = m_freeNodePos[static_cast<std::size_t>(node)];
    if (oldFree > 0 && newFree == 0) {
        // Swap-remove keeps removal O(1); placement breaks ties by node id, so list order does not matter.
        const int last = list.back();
        list[static_cast<std::size_t>(pos)] = last;
        m_freeNodePos[static_cast<std::size_t>(last)] = pos;
        list.pop_back();
        pos = -1;
    } else if (oldFree == 0 && newFree > 0) {
        pos = static_cast<int>(list.size());
        list.push_back(node);
    }
}

void ClusterState::apply(const GpuSlice& slice, int sign, double nowS)
{
    integrate(slice.node, nowS);
    const auto nodeIndex = static_cast<std::size_t>(slice.node);
    const std::size_t bucketBase = static_cast<std::size_t>(m_nodes[nodeIndex].nodeType * (m_maxNodeGpus + 1));
    if (m_loadIndex)
        m_buckets[bucketBase + std::size_t(freeGpusOn(slice.node))].erase({m_nodeKey[nodeIndex], slice.node});
    auto& use = m_use[static_cast<std::size_t>(slice.node)];
    const NodeInfo& info = m_nodes[static_cast<std::size_t>(slice.node)];
    const int oldFree = freeGpusOn(slice.node);
    for (int index : slice.gpus) {
        const std::size_t g = gpuIndex(slice.node, index);
        GpuUse& gpu = m_gpus[g];
        const bool wasFree = gpu.isFree();
        if (slice.milli >= 1000) {
            gpu.residents += sign;
            gpu.milli = gpu.residents > 0 ? 1000 : 0;
        } else {
            gpu.milli += sign * slice.milli;
        }
        gpu.memoryMiB = gpu.isFree() ? 0.0 : gpu.memoryMiB + sign * slice.gpuMemoryMiB;
        if (wasFree && !gpu.isFree())
            ++use.busyGpus;
        else if (!wasFree && gpu.isFree())
            --use.busyGpus;
    }
    m_sumUse.busyGpus += use.busyGpus - (info.gpus - oldFree);
    m_sumUse.cpuCores += sign * slice.cpuCores;
    m_sumUse.memoryGiB += sign * slice.memoryGiB;
    m_sumUse.bandwidthGbps += sign * slice.bandwidthGbps;
    use.cpuCores += sign * slice.cpuCores;
    use.memoryGiB += sign * slice.memoryGiB;
    use.bandwidthGbps += sign * slice.bandwidthGbps;
    const int newFree = freeGpusOn(slice.node);
    if (newFree != oldFree)
        setFree(slice.node, oldFree, newFree);
    if (m_loadIndex) {
        m_nodeKey[nodeIndex] = loadKey(slice.node);
        m_buckets[bucketBase + std::size_t(newFree)].insert({m_nodeKey[nodeIndex], slice.node});
    }
    if (m_recordTimeline) {
        auto& samples = m_timeline[static_cast<std::size_t>(slice.node)];
        const auto u = utilization(slice.node);
        if (!samples.empty() && samples.back().timeS == nowS)
            samples.pop_back();
        samples.push_back({nowS, {float(u[0]), float(u[1]), float(u[2]), float(u[3])}});
    }
}

std::array<double, 4> ClusterState::utilization(int node) const
{
    const NodeInfo& info = m_nodes[static_cast<std::size_t>(node)];
    const NodeUse& use = m_use[static_cast<std::size_t>(node)];
    double gpuMilli = 0;
    for (int i = 0; i < info.gpus; ++i)
        gpuMilli += std::min(1000, gpu(node, i).milli);
    auto ratio
        = [](double used, double capacity) { return capacity > 0 ? std::clamp(used / capacity, 0.0, 1.0) : 0.0; };
    return {gpuMilli / (1000.0 * std::max(1, info.gpus)), ratio(use.memoryGiB, info.memoryGiB),
        ratio(use.cpuCores, info.cpuCores), ratio(use.bandwidthGbps, info.bandwidthGbps)};
}

std::array<double, 4> ClusterState::clusterUtilization() const
{
    auto ratio = [](double used, double capacity) { return capacity > 0 ? used / capacity : 0.0; };
    return {ratio(m_sumUse.busyGpus, m_sumCapacity[0]), ratio(m_sumUse.memoryGiB, m_sumCapacity[1]),
        ratio(m_sumUse.cpuCores, m_sumCapacity[2]), ratio(m_sumUse.bandwidthGbps, m_sumCapacity[3])};
}

void ClusterState::integrate(int node, double nowS)
{
    auto& last = m_lastChangeS[static_cast<std::size_t>(node)];
    const double dt = nowS - last;
    if (dt > 0) {
        const auto u = utilization(node);
        for (std::size_t r = 0; r < 4; ++r)
            m_integral[static_cast<std::size_t>(node)][r] += u[r] * dt;
    }
    last = std::max(last, nowS);
}

void ClusterState::finish(double endS)
{
    for (int node = 0; node < static_cast<int>(m_nodes.size()); ++node)
        integrate(node, endS);
}

std::array<double, 4> ClusterState::averageUtilization(int node, double startS, double endS) const
{
    const double span = endS - startS;
    std::array<double, 4> average {};
    for (std::size_t r = 0; r < 4 && span > 0; ++r)
        average[r] = m_integral[static_cast<std::size_t>(node)][r] / span;
    return average;
}

} // namespace clusterplanner::core::sched
