// SPDX-License-Identifier: GPL-3.0-or-later
// The *.cplan.json file format: {"format": "clusterplanner-scenario", "version": 2, "scenario": {...}}. Version 1
// (the cluster as five numbers) still opens: its topology is migrated (docs/scenario-format.md).
#pragma once

#include "core/model/scenario.h"

#include <nlohmann/json_fwd.hpp>

#include <stdexcept>
#include <string>

namespace clusterplanner::core {

inline constexpr const char* kScenarioFormatName = "clusterplanner-scenario";
inline constexpr int kScenarioFormatVersion = 2;

/// A file or document that cannot be read as a scenario. what() names the field and the problem,
/// e.g. "model.layers: must be at least 1 (got -3)".
class ScenarioFormatError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

/// Serialises the scenario alone (no header), e.g. for embedding in the store.
nlohmann::json scenarioToJson(const Scenario& scenario);
/// Reads a scenario object; every field is required, checked for type and range. Throws ScenarioFormatError.
Scenario scenarioFromJson(const nlohmann::json& object);

/// The whole file, with header, pretty-printed.
std::string writeScenarioFile(const Scenario& scenario);
/// Parses the whole file text. Throws ScenarioFormatError for bad JSON, a wrong header, a newer version or a bad
/// field.
Scenario readScenarioFile(const std::string& text);
/// Whether the text is a JSON document with the scenario file's format name (whatever else it holds): lets a reader of
/// another format say "this is a scenario file" instead of naming a missing field. Never throws.
bool isScenarioDocument(const std::string& text);

} // namespace clusterplanner::core
