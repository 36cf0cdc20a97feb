// SPDX-License-Identifier: GPL-3.0-or-later
// Flattening scenario JSON to dotted paths and listing the paths that differ.
#include "core/store/scenariocomparison.h"

#include "core/io/scenariojson.h"

#include <set>

namespace clusterplanner::core {

namespace {

void flattenInto(const nlohmann::json& value, const std::string& path, std::map<std::string, nlohmann::json>& leaves)
{
    if (value.is_object() && !value.empty()) {
        for (const auto& [key, child] : value.items())
            flattenInto(child, path.empty() ? key : path + "." + key, leaves);
    } else if (value.is_array() && !value.empty()) {
        for (std::size_t i = 0; i < value.size(); ++i)
            flattenInto(value[i], path + "[" + std::to_string(i) + "]", leaves);
    } else {
        leaves[path] = value;
    }
}

} // namespace

std::map<std::string, nlohmann::json> flattenJson(const nlohmann::json& value)
{
    std::map<std::string, nlohmann::json> leaves;
    flattenInto(value, "", leaves);
    return leaves;
}

Comparison compareRecords(const std::vector<ScenarioRecord>& records)
{
    Comparison comparison;
    std::vector<std::map<std::string, nlohmann::json>> flattened;
    std::set<std::string> paths;
    for (const auto& record : records) {
        comparison.ids.push_back(record.id);
        comparison.names.push_back(record.scenario.name);
        comparison.figures.push_back(record.result ? std::optional(record.result->figures) : std::nullopt);
        flattened.push_back(flattenJson(scenarioToJson(record.scenario)));
        for (const auto& entry : flattened.back())
            paths.insert(entry.first);
    }
    for (const auto& path : paths) {
        Comparison::Difference difference {path, {}};
        for (const auto& leaves : flattened) {
            const auto it = leaves.find(path);
            difference.values.push_back(it == leaves.end() ? nlohmann::json(nullptr) : it->second);
        }
        bool allEqual = true;
        for (const auto& value : difference.values)
            allEqual = allEqual && value == difference.values.front();
        if (!allEqual)
            comparison.differences.push_back(std::move(difference));
    }
    return comparison;
}

} // namespace clusterplanner::core
