// SPDX-License-Identifier: GPL-3.0-or-later
// Reading and writing cluster files with field-naming error messages (same style as core/io/scenariojson.cpp).
#include "core/sched/clustermodeljson.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace clusterplanner::core::sched {

namespace {

using nlohmann::json;

/// Reads the fields of one JSON object; every message starts with the dotted path of the field.
class Fields
{
public:
    Fields(const json& object, std::string path)
        : m_object(object)
        , m_path(std::move(path))
    {
        if (!m_object.is_object())
            throw ClusterFormatError(m_path + ": must be an object, got " + std::string(m_object.type_name()));
    }

    const json& field(const char* key) const
    {
        auto it = m_object.find(key);
        if (it == m_object.end())
            fail(key, "is missing");
        return *it;
    }

    int integer(const char* key, long long min, long long max) const
    {
        const json& value = field(key);
        if (!value.is_number_integer())
            fail(key, "must be a whole number, got " + value.dump());
        const auto number = value.get<long long>();
        if (number < min || number > max)
            fail(key, "must be in " + std::to_string(min) + ".." + std::to_string(max) + " (got " + value.dump() + ")");
        return static_cast<int>(number);
    }

    double number(const char* key, double min, double max) const
    {
        const json& value = field(key);
        if (!value.is_number() || !std::isfinite(value.get<double>()))
            fail(key, "must be a number, got " + value.dump());
        const double number = value.get<double>();
        if (number < min || number > max)
            fail(key, "must be in " + json(min).dump() + ".." + json(max).dump() + " (got " + value.dump() + ")");
        return number;
    }

    std::string text(const char* key) const
    {
        const json& value = field(key);
        if (!value.is_string() || value.get<std::string>().empty())
            fail(key, "must be a non-empty string, got " + value.dump());
        return value.get<std::string>();
    }

    const json& array(const char* key) const
    {
        const json& value = field(key);
        if (!value.is_array())
            fail(key, "must be an array, got " + std::string(value.type_name()));
        return value;
    }

    std::string path(const std::string& key) const { return m_path.empty() ? key : m_path + "." + key; }

    [[noreturn]] void fail(const std::string& key, const std::string& problem) const
    {
        throw ClusterFormatError(path(key) + ": " + problem);
    }

private:
    const json& m_object;
    std::string m_path;
};

std::vector<std::vector<int>> readDomains(const Fields& r, int gpus)
{
    std::vector<std::vector<int>> domains;
    std::vector<int> seen(static_cast<std::size_t>(gpus), 0);
    const json& list = r.array("nvlink_domains");
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string key = "nvlink_domains[" + std::to_string(i) + "]";
        if (!list[i].is_string())
            r.fail(key, "must be a string such as \"0-3\", got " + list[i].dump());
        std::vector<int> domain;
        try {
            domain = parseIndexList(list[i].get<std::string>());
        } catch (const std::invalid_argument& error) {
            r.fail(key, error.what());
        }
        for (int gpu : domain) {
            if (gpu >= gpus)
                r.fail(key, "GPU " + std::to_string(gpu) + " is outside 0.." + std::to_string(gpus - 1));
            if (seen[static_cast<std::size_t>(gpu)]++)
                r.fail(key, "GPU " + std::to_string(gpu) + " is in more than one domain");
        }
        domains.push_back(std::move(domain));
    }
    if (!domains.empty() && std::count(seen.begin(), seen.end(), 0) > 0)
        r.fail("nvlink_domains", "does not cover every GPU of the node");
    return domains;
}

NodeType readNodeType(const Fields& r)
{
    NodeType type;
    type.name = r.text("name");
    type.gpuId = r.text("gpu");
    type.gpuCount = r.integer("gpus", 1, 1024);
    type.nvlinkDomains = readDomains(r, type.gpuCount);
    type.cpuCores = r.integer("cpu_cores", 0, 1'000'000);
    type.memoryGiB = r.number("memory_gib", 0, 1e9);
    type.nicCount = r.integer("nics", 0, 1024);
    type.nicGbps = r.number("nic_gbps", 0, 1e6);
    type.overheadKw = r.number("overhead_kw", 0, 1e4);
    return type;
}

FabricKind readFabricKind(const Fields& r)
{
    const std::string kind = r.text("kind");
    if (kind == "fat-tree")
        return FabricKind::FatTree;
    if (kind == "rail-optimized")
        return FabricKind::RailOptimized;
    r.fail("kind", "unknown value \"" + kind + "\" (expected fat-tree or rail-optimized)");
}

template <typename Read>
auto readList(const Fields& r, const char* key, Read read)
{
    std::vector<decltype(read(r))> items;
    const json& list = r.array(key);
    for (std::size_t i = 0; i < list.size(); ++i)
        items.push_back(read(Fields(list[i], r.path(key) + "[" + std::to_string(i) + "]")));
    return items;
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
    const Fields r(object, "cluster");
    ClusterModel model;
    model.name = r.text("name");
    model.nodeTypes = readList(r, "node_types", readNodeType);
    model.groups = readList(r, "node_groups", [](const Fields& g) {
        return NodeGroup {g.text("node_type"), g.integer("count", 1, 10'000'000)};
    });
    for (std::size_t i = 0; i < model.groups.size(); ++i)
        if (!model.findType(model.groups[i].nodeType))
            r.fail("node_groups[" + std::to_string(i) + "].node_type",
                "names no entry of node_types (\"" + model.groups[i].nodeType + "\")");
    if (model.groups.empty())
        r.fail("node_groups", "must hold at least one group");
    model.nodesPerRack = r.integer("nodes_per_rack", 1, 100'000);
    const Fields fabric(r.field("fabric"), r.path("fabric"));
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
    json document;
    try {
        document = json::parse(text);
    } catch (const json::parse_error& error) {
        throw ClusterFormatError("not valid JSON at byte " + std::to_string(error.byte) + ": " + error.what());
    }
    const Fields header(document, "file");
    if (header.text("format") != kClusterFormatName)
        header.fail("format", "is not \"" + std::string(kClusterFormatName) + "\": this is not a cluster file");
    const int version = header.integer("version", 1, std::numeric_limits<int>::max());
    if (version > kClusterFormatVersion)
        header.fail("version", "written by a newer ClusterPlanner (version " + std::to_string(version) + ")");
    return clusterModelFromJson(header.field("cluster"));
}

} // namespace clusterplanner::core::sched
