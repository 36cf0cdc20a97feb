// SPDX-License-Identifier: GPL-3.0-or-later
// Reading and writing the cluster schema with field-naming messages (same style as core/io/scenariojson.cpp).
#include "core/cluster/clusterjson.h"

#include "core/io/inputlimits.h"
#include "core/io/jsonfields.h"
#include "core/io/jsontext.h"
#include "core/model/gpucatalog.h"

#include <nlohmann/json.hpp>

#include <limits>
#include <optional>
#include <set>

namespace clusterplanner::core::cluster {

namespace {

using nlohmann::json;

/// Longest name or id accepted.
constexpr std::size_t kMaxText = 200;
/// Prices and powers beyond these are unit mistakes (a node at $1e12, a switch at 1 MW).
constexpr double kMaxUsd = 1e12;
constexpr double kMaxWatts = 1e7;

[[noreturn]] void throwClusterError(const std::string& message)
{
    throw ClusterFormatError(message);
}

/// Missing or null = unset (files and scenarios leave the data/costs.json default in place that way).
std::optional<double> optionalNumber(const JsonFields& r, const char* key, double min, double max)
{
    if (!r.has(key) || r.isNull(key))
        return std::nullopt;
    return r.number(key, min, max);
}

json optionalToJson(const std::optional<double>& value)
{
    return value ? json(*value) : json(nullptr);
}

NodeGroup readGroup(const JsonFields& r)
{
    NodeGroup g;
    g.name = r.nonEmptyText("name", kMaxText);
    g.gpuId = GpuCatalog::builtin().currentId(r.nonEmptyText("gpu", kMaxText)); // a renamed entry keeps opening
    g.nodeCount = r.integer("nodes", 1, limits::kMaxPlannedNodes);
    g.gpusPerNode = r.integer("gpus_per_node", 1, limits::kMaxGpusPerNode);
    g.scaleUpDomainGpus = r.integer("scale_up_domain_gpus", 1, limits::kMaxClusterGpus);
    g.nicsPerNode = r.integer("nics_per_node", 0, 1024);
    g.nicGbps = r.number("nic_gbps", 0, 1e6);
    g.cpuCores = r.integer("cpu_cores", 0, 1'000'000);
    g.hostMemoryGiB = r.number("host_memory_gib", 0, 1e9);
    g.nodesPerRack = r.integer("nodes_per_rack", 1, 100'000);
    g.gpuPowerLimitW = optionalNumber(r, "gpu_power_limit_w", 1, 1e5);
    g.nodeOverheadW = optionalNumber(r, "node_overhead_w", 0, kMaxWatts);
    g.nodePriceUsd = optionalNumber(r, "node_price_usd", 0, kMaxUsd);
    return g;
}

FabricTier readTier(const JsonFields& r)
{
    FabricTier t;
    t.name = r.nonEmptyText("name", kMaxText);
    t.oversubscription = r.number("oversubscription", 1.0, 64.0);
    t.switchRadix = r.integer("switch_radix", 2, 100'000);
    t.portGbps = r.number("port_gbps", 0.1, 1e6);
    t.switchPriceUsd = optionalNumber(r, "switch_price_usd", 0, kMaxUsd);
    t.switchPowerW = optionalNumber(r, "switch_power_w", 0, kMaxWatts);
    return t;
}

/// Reads an array of objects, refusing an oversized one before anything is allocated for it.
template <typename Read>
auto readList(const JsonFields& r, const char* key, std::size_t maxItems, Read read)
{
    const json& list = r.array(key);
    if (list.size() > maxItems)
        r.fail(
            key, "has " + std::to_string(list.size()) + " entries, more than the limit of " + std::to_string(maxItems));
    std::vector<decltype(read(r))> items;
    items.reserve(list.size());
    for (std::size_t i = 0; i < list.size(); ++i)
        items.push_back(read(r.nested(list[i], r.path(key) + "[" + std::to_string(i) + "]")));
    return items;
}

/// Unique names, at least one group, and the whole cluster within the planning limits (summed in 64 bits; the
/// simulator checks its own, smaller ones).
void checkGroups(const JsonFields& r, const std::vector<NodeGroup>& groups)
{
    if (groups.empty())
        r.fail("node_groups", "must hold at least one group");
    std::set<std::string> names;
    long long nodes = 0;
    long long gpus = 0;
    for (std::size_t i = 0; i < groups.size(); ++i) {
        if (!names.insert(groups[i].name).second)
            r.fail("node_groups[" + std::to_string(i) + "].name",
                "\"" + excerpt(groups[i].name) + "\" names an earlier group too; group names must be unique");
        nodes += groups[i].nodeCount;
        gpus += groups[i].gpuCount();
    }
    if (nodes > limits::kMaxPlannedNodes)
        r.fail("node_groups",
            "the cluster has " + std::to_string(nodes) + " nodes, more than the limit of "
                + std::to_string(limits::kMaxPlannedNodes));
    if (gpus > limits::kMaxPlannedGpus)
        r.fail("node_groups",
            "the cluster has " + std::to_string(gpus) + " GPUs, more than the limit of "
                + std::to_string(limits::kMaxPlannedGpus));
}

Fabric readFabric(const JsonFields& r)
{
    Fabric fabric;
    fabric.railOptimized = r.boolean("rail_optimized");
    fabric.tiers = readList(r, "tiers", limits::kMaxFabricTiers, readTier);
    fabric.opticsUsdPerLink = optionalNumber(r, "optics_usd_per_link", 0, kMaxUsd);
    return fabric;
}

Facility readFacility(const JsonFields& r)
{
    Facility facility;
    facility.rackPowerLimitKw = r.number("rack_power_limit_kw", 0.1, 10'000);
    facility.pue = optionalNumber(r, "pue", 1.0, 10.0);
    return facility;
}

json groupToJson(const NodeGroup& g)
{
    return {{"name", g.name}, {"gpu", g.gpuId}, {"nodes", g.nodeCount}, {"gpus_per_node", g.gpusPerNode},
        {"scale_up_domain_gpus", g.scaleUpDomainGpus}, {"nics_per_node", g.nicsPerNode}, {"nic_gbps", g.nicGbps},
        {"cpu_cores", g.cpuCores}, {"host_memory_gib", g.hostMemoryGiB}, {"nodes_per_rack", g.nodesPerRack},
        {"gpu_power_limit_w", optionalToJson(g.gpuPowerLimitW)}, {"node_overhead_w", optionalToJson(g.nodeOverheadW)},
        {"node_price_usd", optionalToJson(g.nodePriceUsd)}};
}

json tierToJson(const FabricTier& t)
{
    return {{"name", t.name}, {"oversubscription", t.oversubscription}, {"switch_radix", t.switchRadix},
        {"port_gbps", t.portGbps}, {"switch_price_usd", optionalToJson(t.switchPriceUsd)},
        {"switch_power_w", optionalToJson(t.switchPowerW)}};
}

} // namespace

json clusterSpecToJson(const ClusterSpec& spec)
{
    json groups = json::array();
    for (const auto& group : spec.groups)
        groups.push_back(groupToJson(group));
    json tiers = json::array();
    for (const auto& tier : spec.fabric.tiers)
        tiers.push_back(tierToJson(tier));
    return {{"name", spec.name}, {"node_groups", groups},
        {"fabric",
            {{"rail_optimized", spec.fabric.railOptimized}, {"tiers", tiers},
                {"optics_usd_per_link", optionalToJson(spec.fabric.opticsUsdPerLink)}}},
        {"facility",
            {{"rack_power_limit_kw", spec.facility.rackPowerLimitKw}, {"pue", optionalToJson(spec.facility.pue)}}}};
}

ClusterSpec clusterSpecFromJson(const json& object, const std::string& path)
{
    const JsonFields r(object, path, &throwClusterError);
    ClusterSpec spec;
    spec.name = r.text("name", kMaxText);
    spec.groups = readList(r, "node_groups", limits::kMaxNodeGroups, readGroup);
    checkGroups(r, spec.groups);
    spec.fabric = readFabric(r.object("fabric"));
    spec.facility = readFacility(r.object("facility"));
    return spec;
}

std::string writeClusterSpecFile(const ClusterSpec& spec)
{
    const json file = {{"format", kClusterFileFormatName}, {"version", kClusterFileFormatVersion},
        {"cluster", clusterSpecToJson(spec)}};
    return file.dump(2) + "\n";
}

ClusterSpec readClusterSpecFile(const std::string& text)
{
    // The caller prefixes the file name.
    const json document = parseJsonText(text, "", &throwClusterError);
    const JsonFields header(document, "file", &throwClusterError);
    if (header.nonEmptyText("format", kMaxText) != kClusterFileFormatName)
        header.fail("format", "is not \"" + std::string(kClusterFileFormatName) + "\": this is not a cluster file");
    const int version = header.integer("version", 1, std::numeric_limits<int>::max());
    if (version > kClusterFileFormatVersion)
        header.fail("version",
            "written by a newer ClusterPlanner (version " + std::to_string(version) + "; this one reads up to "
                + std::to_string(kClusterFileFormatVersion) + ")");
    if (version < kClusterFileFormatVersion)
        header.fail("version",
            "version 1 is the simulator's old node_types format; `clusterplanner simulate --cluster` still reads it, "
            "or save the cluster again in version 2 (docs/methods-cluster.md §1)");
    return clusterSpecFromJson(header.field("cluster"));
}

} // namespace clusterplanner::core::cluster
