// SPDX-License-Identifier: GPL-3.0-or-later
// Reading and writing cluster files with field-naming error messages (same style as core/io/scenariojson.cpp).
#include "core/sched/clustermodeljson.h"

#include "core/io/jsonfields.h"
#include "core/io/jsontext.h"
#include "core/model/gpucatalog.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace clusterplanner::core::sched {

namespace {

using nlohmann::json;

/// Longest name or id accepted in a cluster file.
constexpr std::size_t kMaxText = 200;

[[noreturn]] void throwClusterError(const std::string& message)
{
    throw ClusterFormatError(message);
}

std::vector<std::vector<int>> readDomains(const JsonFields& r, int gpus)
{
    std::vector<std::vector<int>> domains;
    std::vector<int> seen(static_cast<std::size_t>(gpus), 0);
    const json& list = r.array("nvlink_domains");
    if (list.size() > static_cast<std::size_t>(gpus))
        r.fail(
            "nvlink_domains", "has " + std::to_string(list.size()) + " domains for " + std::to_string(gpus) + " GPUs");
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string key = "nvlink_domains[" + std::to_string(i) + "]";
        if (!list[i].is_string())
            r.fail(key, "must be a string such as \"0-3\", got " + JsonFields::describe(list[i]));
        std::vector<int> domain;
        try {
            domain = parseIndexList(list[i].get<std::string>(), gpus);
        } catch (const std::invalid_argument& error) {
            r.fail(key, error.what());
        }
        for (int gpu : domain) {
            if (seen[static_cast<std::size_t>(gpu)]++)
                r.fail(key, "GPU " + std::to_string(gpu) + " is in more than one domain");
        }
        domains.push_back(std::move(domain));
    }
    if (!domains.empty() && std::count(seen.begin(), seen.end(), 0) > 0)
        r.fail("nvlink_domains", "does not cover every GPU of the node");
    return domains;
}

NodeType readNodeType(const JsonFields& r)
{
    NodeType type;
    type.name = r.nonEmptyText("name", kMaxText);
    type.gpuId = GpuCatalog::builtin().currentId(r.nonEmptyText("gpu", kMaxText)); // a renamed entry keeps opening
    type.gpuCount = r.integer("gpus", 1, limits::kMaxGpusPerNode);
    type.nvlinkDomains = readDomains(r, type.gpuCount);
    type.cpuCores = r.integer("cpu_cores", 0, 1'000'000);
    type.memoryGiB = r.number("memory_gib", 0, 1e9);
    type.nicCount = r.integer("nics", 0, 1024);
    type.nicGbps = r.number("nic_gbps", 0, 1e6);
    type.overheadKw = r.number("overhead_kw", 0, 1e4);
    return type;
}

FabricKind readFabricKind(const JsonFields& r)
{
    const std::string kind = r.nonEmptyText("kind", kMaxText);
    if (kind == "fat-tree")
        return FabricKind::FatTree;
    if (kind == "rail-optimized")
        return FabricKind::RailOptimized;
    r.fail("kind", "unknown value \"" + kind + "\" (expected fat-tree or rail-optimized)");
}

template <typename Read>
auto readList(const JsonFields& r, const char* key, std::size_t maxItems, Read read)
{
    std::vector<decltype(read(r))> items;
    const json& list = r.array(key);
    if (list.size() > maxItems)
        r.fail(
            key, "has " + std::to_string(list.size()) + " entries, more than the limit of " + std::to_string(maxItems));
    for (std::size_t i = 0; i < list.size(); ++i)
        items.push_back(read(r.nested(list[i], r.path(key) + "[" + std::to_string(i) + "]")));
    return items;
}

/// Every group names a declared type, and the whole cluster stays within the simulator's limits (summed in 64 bits
/// before any node exists).
void checkGroups(const JsonFields& r, const ClusterModel& model)
{
    if (model.groups.empty())
        r.fail("node_groups", "must hold at least one group");
    long long nodes = 0;
    long long gpus = 0;
    for (std::size_t i = 0; i < model.groups.size(); ++i) {
        const NodeType* type = model.findType(model.groups[i].nodeType);
        if (!type)
            r.fail("node_groups[" + std::to_string(i) + "].node_type",
                "names no entry of node_types (\"" + excerpt(model.groups[i].nodeType) + "\")");
        nodes += model.groups[i].count;
        gpus += static_cast<long long>(model.groups[i].count) * type->gpuCount;
    }
    try {
        checkClusterSize(nodes, gpus);
    } catch (const std::invalid_argument& error) {
        r.fail("node_groups", error.what());
    }
}

json nodeTypeToJson(const NodeType& t)
{
    json domains = json::array();
    for (const auto& domain : t.nvlinkDomains)
        domains.push_back(formatIndexList(domain));
    return {{"name", t.name}, {"gpu", t.gpuId}, {"gpus", t.gpuCount}, {"nvlink_domains", domains},
        {"cpu_cores", t.cpuCores}, {"memory_gib", t.memoryGiB}, {"nics", t.nicCount}, {"nic_gbps", t.nicGbps},
        {"overhead_kw", t.overheadKw}};
}

} // namespace

json clusterModelToJson(const ClusterModel& model)
{
    json types = json::array();
    for (const auto& type : model.nodeTypes)
        types.push_back(nodeTypeToJson(type));
    json groups = json::array();
    for (const auto& group : model.groups)
        groups.push_back({{"node_type", group.nodeType}, {"count", group.count}});
    const char* kind = model.fabric == FabricKind::FatTree ? "fat-tree" : "rail-optimized";
    return {{"name", model.name}, {"node_types", types}, {"node_groups", groups},
        {"nodes_per_rack", model.nodesPerRack},
        {"fabric", {{"kind", kind}, {"oversubscription", model.oversubscription}}}};
}

ClusterModel clusterModelFromJson(const json& object)
{
    const JsonFields r(object, "cluster", &throwClusterError);
    ClusterModel model;
    model.name = r.nonEmptyText("name", kMaxText);
    model.nodeTypes = readList(r, "node_types", limits::kMaxNodeTypes, readNodeType);
    model.groups = readList(r, "node_groups", limits::kMaxNodeGroups, [](const JsonFields& g) {
        return NodeGroup {g.nonEmptyText("node_type", kMaxText), g.integer("count", 1, limits::kMaxClusterNodes)};
    });
    checkGroups(r, model);
    model.nodesPerRack = r.integer("nodes_per_rack", 1, 100'000);
    const JsonFields fabric = r.object("fabric");
    model.fabric = readFabricKind(fabric);
    model.oversubscription = fabric.number("oversubscription", 1.0, 64.0);
    return model;
}

std::string writeClusterFile(const ClusterModel& model)
{
    const json file
        = {{"format", kClusterFormatName}, {"version", kClusterFormatVersion}, {"cluster", clusterModelToJson(model)}};
    return file.dump(2) + "\n";
}

ClusterModel readClusterFile(const std::string& text)
{
    // The caller prefixes the file name.
    const json document = parseJsonText(text, "", &throwClusterError);
    const JsonFields header(document, "file", &throwClusterError);
    if (header.nonEmptyText("format", kMaxText) != kClusterFormatName)
        header.fail("format", "is not \"" + std::string(kClusterFormatName) + "\": this is not a cluster file");
    const int version = header.integer("version", 1, std::numeric_limits<int>::max());
    if (version > kClusterFormatVersion)
        header.fail("version", "written by a newer ClusterPlanner (version " + std::to_string(version) + ")");
    return clusterModelFromJson(header.field("cluster"));
}

} // namespace clusterplanner::core::sched
