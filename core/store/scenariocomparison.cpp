// SPDX-License-Identifier: GPL-3.0-or-later
// Flattening scenario JSON to dotted paths and listing the paths that differ.
#include "core/store/scenariocomparison.h"

#include "core/io/scenariojson.h"

#include <algorithm>
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

// The value at a dotted path, or null when the path does not exist. Looking values up in the whole document (not
// only among the leaves) makes "model.moe" compare null against the object {experts: 8, ...}.
nlohmann::json valueAt(const nlohmann::json& document, const std::string& path)
{
    const nlohmann::json* node = &document;
    std::size_t start = 0;
    while (start <= path.size()) {
        const std::size_t end = std::min(path.find_first_of(".[", start), path.size());
        const std::string key = path.substr(start, end - start);
        if (!key.empty()) {
            if (node->is_object() && node->contains(key))
                node = &(*node)[key];
            else if (node->is_array() && key.back() == ']' && std::stoul(key) < node->size())
                node = &(*node)[std::stoul(key)];
            else
                return nullptr;
        }
        start = end + 1;
    }
    return *node;
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
    std::vector<nlohmann::json> documents;
    std::set<std::string> paths;
    for (const auto& record : records) {
        comparison.ids.push_back(record.id);
        comparison.names.push_back(record.scenario.name);
        comparison.figures.push_back(record.result ? std::optional(record.result->figures) : std::nullopt);
        documents.push_back(scenarioToJson(record.scenario));
        for (const auto& entry : flattenJson(documents.back()))
            paths.insert(entry.first);
    }
    for (const auto& path : paths) {
        Comparison::Difference difference {path, {}};
        for (const auto& document : documents)
            difference.values.push_back(valueAt(document, path));
        bool allEqual = true;
        for (const auto& value : difference.values)
            allEqual = allEqual && value == difference.values.front();
        if (!allEqual)
            comparison.differences.push_back(std::move(difference));
    }
    return comparison;
}

} // namespace clusterplanner::core
