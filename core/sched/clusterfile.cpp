// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/sched/clusterfile.h"

#include "core/cluster/clusterjson.h"
#include "core/cluster/trainingview.h"
#include "core/io/jsonfields.h"
#include "core/io/jsontext.h"
#include "core/io/scenariojson.h"
#include "core/model/costdefaults.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace clusterplanner::core::sched {

namespace {

[[noreturn]] void throwClusterError(const std::string& message)
{
    throw ClusterFormatError(message);
}

std::vector<std::vector<int>> domainsInNode(int gpus, int domainGpus)
{
    if (domainGpus <= 0 || domainGpus >= gpus)
        return {};
    std::vector<std::vector<int>> domains;
    for (int first = 0; first < gpus; first += domainGpus) {
        std::vector<int> domain;
        for (int g = first; g < std::min(gpus, first + domainGpus); ++g)
            domain.push_back(g);
        domains.push_back(std::move(domain));
    }
    return domains;
}

ClusterModel fromSpecJson(const nlohmann::json& object, const std::string& path)
{
    try {
        return simulatorCluster(cluster::clusterSpecFromJson(object, path));
    } catch (const cluster::ClusterFormatError& error) {
        throwClusterError(error.what());
    }
}

} // namespace

ClusterModel simulatorCluster(const cluster::ClusterSpec& spec)
{
    try {
        checkClusterSize(spec.nodeCount(), spec.gpuCount());
    } catch (const std::invalid_argument& error) {
        throwClusterError(std::string("cluster.node_groups: ") + error.what() + " the simulator can hold");
    }
    ClusterModel model;
    model.name = spec.name.empty() ? "cluster" : spec.name;
    for (const auto& g : spec.groups) {
        NodeType type;
        type.name = g.name;
        type.gpuId = g.gpuId;
        type.gpuCount = g.gpusPerNode;
        type.nvlinkDomains = domainsInNode(g.gpusPerNode, g.scaleUpDomainGpus);
        type.cpuCores = g.cpuCores;
        type.memoryGiB = g.hostMemoryGiB;
        type.nicCount = g.nicsPerNode;
        type.nicGbps = g.nicGbps;
        type.overheadKw = g.nodeOverheadW
            ? *g.nodeOverheadW / 1000
            : costDefaults().nodeOverheadKw() * g.gpusPerNode / std::max(1, costDefaults().gpusPerNode);
        model.nodeTypes.push_back(type);
        model.groups.push_back({g.name, g.nodeCount});
    }
    if (!spec.groups.empty())
        model.nodesPerRack = spec.groups.front().nodesPerRack;
    model.fabric = spec.fabric.railOptimized ? FabricKind::RailOptimized : FabricKind::FatTree;
    model.oversubscription = cluster::fabricOversubscription(spec.fabric);
    return model;
}

ClusterModel readSimulatorClusterFile(const std::string& text)
{
    const nlohmann::json document = parseJsonText(text, "", &throwClusterError);
    if (!document.is_object())
        throwClusterError("file: must be an object (a cluster file, a scenario file or a cluster section)");
    // Read through JsonFields: a "format" of another type is then named, where json::value would throw the
    // library's type_error.
    const JsonFields root(document, "", &throwClusterError);
    constexpr std::size_t kMaxFormatChars = 64;
    const std::string format = root.has("format") ? root.text("format", kMaxFormatChars) : std::string();
    if (format == kScenarioFormatName) {
        try {
            return simulatorCluster(readScenarioFile(text).topology);
        } catch (const ScenarioFormatError& error) {
            throwClusterError(error.what());
        }
    }
    if (format.empty() && document.contains("node_groups"))
        return fromSpecJson(document, "cluster");
    const auto version = document.find("version");
    if (format == kClusterFormatName && version != document.end() && *version == 1)
        return readClusterFile(text); // the simulator's old format, read as before
    try {
        return simulatorCluster(cluster::readClusterSpecFile(text));
    } catch (const cluster::ClusterFormatError& error) {
        throwClusterError(error.what());
    }
}

} // namespace clusterplanner::core::sched
