// SPDX-License-Identifier: GPL-3.0-or-later
// Cluster model totals, the homogeneous-cluster helper and NVLink index lists.
#include "core/sched/clustermodel.h"

#include "core/io/jsontext.h"
#include "core/model/gpucatalog.h"

#include <algorithm>
#include <charconv>
#include <stdexcept>

namespace clusterplanner::core::sched {

namespace {

int parseIndex(const std::string& part, const std::string& whole, int indexCount)
{
    int value = 0;
    const auto* end = part.data() + part.size();
    auto [ptr, ec] = std::from_chars(part.data(), end, value);
    if (part.empty() || ec != std::errc() || ptr != end || value < 0)
        throw std::invalid_argument("\"" + excerpt(whole) + "\": \"" + excerpt(part) + "\" is not a GPU index");
    // Checked here, before a range is expanded: "0-300000000" would otherwise allocate gigabytes first.
    if (value >= indexCount)
        throw std::invalid_argument(
            "GPU " + std::to_string(value) + " is outside 0.." + std::to_string(indexCount - 1));
    return value;
}

std::vector<std::vector<int>> domainsOfSize(int gpus, int domainSize)
{
    if (domainSize <= 0 || domainSize >= gpus)
        return {};
    std::vector<std::vector<int>> domains;
    for (int first = 0; first < gpus; first += domainSize) {
        std::vector<int> domain;
        for (int g = first; g < std::min(gpus, first + domainSize); ++g)
            domain.push_back(g);
        domains.push_back(std::move(domain));
    }
    return domains;
}

} // namespace

const NodeType* ClusterModel::findType(const std::string& typeName) const
{
    for (const auto& type : nodeTypes)
        if (type.name == typeName)
            return &type;
    return nullptr;
}

int ClusterModel::nodeCount() const
{
    int nodes = 0;
    for (const auto& group : groups)
        nodes += group.count;
    return nodes;
}

int ClusterModel::gpuCount() const
{
    int gpus = 0;
    for (const auto& group : groups)
        if (const auto* type = findType(group.nodeType))
            gpus += group.count * type->gpuCount;
    return gpus;
}

ClusterTotals clusterTotals(const ClusterModel& model, const GpuCatalog& catalog)
{
    ClusterTotals totals;
    for (const auto& group : model.groups) {
        const NodeType* type = model.findType(group.nodeType);
        if (!type)
            throw std::invalid_argument("node group: unknown node type \"" + group.nodeType + "\"");
        const GpuSpec* gpu = catalog.find(type->gpuId);
        if (!gpu)
            throw std::invalid_argument("node type " + type->name + ": " + catalog.unknownIdText(type->gpuId));
        const int gpus = group.count * type->gpuCount;
        totals.nodes += group.count;
        totals.gpus += gpus;
        totals.gpuMemoryGB += gpus * gpu->memoryGB;
        totals.peakPflopsFp32 += gpus * gpu->peakFlops(Precision::Fp32) / 1e15;
        totals.peakPflopsBf16 += gpus * gpu->peakFlops(Precision::AmpBf16) / 1e15;
        totals.peakPflopsFp16 += gpus * gpu->peakFlops(Precision::AmpFp16) / 1e15;
        totals.peakPflopsFp8 += gpus * (gpu->hasFp8TensorCores() ? gpu->peakFlops(Precision::Fp8) : 0.0) / 1e15;
        totals.powerKw += gpus * gpu->tdpW / 1000.0 + group.count * type->overheadKw;
        if (auto price = gpu->purchaseUsd.midUsd())
            totals.purchaseUsd += gpus * *price;
        else
            totals.unpricedGpus += gpus;
    }
    const int perRack = std::max(1, model.nodesPerRack);
    totals.racks = (totals.nodes + perRack - 1) / perRack;
    return totals;
}

void checkClusterSize(long long nodes, long long gpus)
{
    if (nodes > limits::kMaxClusterNodes)
        throw std::invalid_argument("the cluster has " + std::to_string(nodes) + " nodes, more than the limit of "
            + std::to_string(limits::kMaxClusterNodes));
    if (gpus > limits::kMaxClusterGpus)
        throw std::invalid_argument("the cluster has " + std::to_string(gpus) + " GPUs, more than the limit of "
            + std::to_string(limits::kMaxClusterGpus));
}

ClusterModel homogeneousCluster(const ClusterConfig& config, const GpuCatalog& catalog)
{
    const long long perNodeGpus = std::max(1, config.gpusPerNode);
    checkClusterSize((config.gpuCount + perNodeGpus - 1) / perNodeGpus, config.gpuCount);
    const GpuSpec* gpu = catalog.find(config.gpuId);
    const int domainSize = gpu ? gpu->scaleupDomainGpus : config.gpusPerNode;
    ClusterModel model;
    model.name = std::to_string(config.gpuCount) + " × " + config.gpuId;
    model.oversubscription = config.oversubscription;
    auto addType = [&](int gpus) {
        NodeType type;
        type.name = config.gpuId + "-x" + std::to_string(gpus);
        type.gpuId = config.gpuId;
        type.gpuCount = gpus;
        type.nvlinkDomains = domainsOfSize(gpus, domainSize);
        type.nicCount = gpus;
        type.nicGbps = config.nicGbps;
        // Host resources scale with the GPU count, the DGX H100 ratios (14 cores and 256 GiB per GPU).
        type.cpuCores = 14 * gpus;
        type.memoryGiB = 256.0 * gpus;
        type.overheadKw = costDefaults().nodeOverheadKw() * gpus / costDefaults().gpusPerNode;
        model.nodeTypes.push_back(type);
        return type.name;
    };
    const int perNode = std::max(1, config.gpusPerNode);
    const int fullNodes = config.gpuCount / perNode;
    const int rest = config.gpuCount % perNode;
    if (fullNodes > 0)
        model.groups.push_back({addType(perNode), fullNodes});
    if (rest > 0)
        model.groups.push_back({addType(rest), 1});
    return model;
}

std::vector<int> parseIndexList(const std::string& text, int indexCount)
{
    std::vector<int> indices;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        const std::string part = text.substr(start, comma - start);
        const std::size_t dash = part.find('-');
        if (dash == std::string::npos) {
            indices.push_back(parseIndex(part, text, indexCount));
        } else {
            const int first = parseIndex(part.substr(0, dash), text, indexCount);
            const int last = parseIndex(part.substr(dash + 1), text, indexCount);
            if (last < first)
                throw std::invalid_argument(
                    "\"" + excerpt(text) + "\": range \"" + excerpt(part) + "\" runs backwards");
            for (long long i = first; i <= last; ++i) // 64-bit: last may be INT_MAX when indexCount is
                indices.push_back(static_cast<int>(i));
        }
        start = comma + 1;
    }
    return indices;
}

std::string formatIndexList(const std::vector<int>& indices)
{
    std::string text;
    for (std::size_t i = 0; i < indices.size();) {
        std::size_t j = i;
        while (j + 1 < indices.size() && indices[j + 1] == indices[j] + 1)
            ++j;
        text += (text.empty() ? "" : ",") + std::to_string(indices[i]);
        if (j > i)
            text += "-" + std::to_string(indices[j]);
        i = j + 1;
    }
    return text;
}

} // namespace clusterplanner::core::sched
