// SPDX-License-Identifier: GPL-3.0-or-later
// Internal to core/store: the store's SQL text and the conversions between rows and values.
#pragma once

#include "core/store/statement.h"
#include "core/store/storeerror.h"
#include "core/store/storetypes.h"

#include <string>
#include <vector>

namespace clusterplanner::core::storesql {

inline constexpr const char* kInsertScenario
    = "INSERT INTO scenarios (name, notes, gpu_id, gpu_count, created, modified, scenario_json, tags) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)";

// The state being replaced becomes the next version of the scenario.
inline constexpr const char* kKeepVersion
    = "INSERT INTO scenario_versions (scenario_id, version, saved, name, scenario_json) "
      "SELECT id, COALESCE((SELECT MAX(version) FROM scenario_versions WHERE scenario_id = ?1), 0) + 1, ?2, name, "
      "scenario_json FROM scenarios WHERE id = ?1";

inline constexpr const char* kUpdateScenario
    = "UPDATE scenarios SET name = ?2, notes = ?3, gpu_id = ?4, gpu_count = ?5, modified = ?6, scenario_json = ?7 "
      "WHERE id = ?1";

inline constexpr const char* kDeleteResult = "DELETE FROM results WHERE scenario_id = ?1";

inline constexpr const char* kLoadScenario
    = "SELECT s.scenario_json, s.tags, s.created, s.modified, "
      "(SELECT COUNT(*) FROM scenario_versions v WHERE v.scenario_id = s.id), "
      "EXISTS (SELECT 1 FROM trash t WHERE t.scenario_id = s.id), "
      "r.computed, r.result_json, r.gpu_count, r.tokens_per_s, r.cost_usd, r.mfu, r.step_time_s "
      "FROM scenarios s LEFT JOIN results r ON r.scenario_id = s.id WHERE s.id = ?1";

inline constexpr const char* kPutResult
    = "INSERT OR REPLACE INTO results (scenario_id, computed, result_json, gpu_count, tokens_per_s, cost_usd, mfu, "
      "step_time_s) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)";

/// The list query, unordered (see sortRows()); parameters ?1 trash (0/1), ?2 LIKE pattern ('' = all).
std::string listSql();
/// "%text%" with LIKE's wildcards escaped by '\'; "" for an empty search.
std::string likePattern(const std::string& search);

std::string tagsToText(const std::vector<std::string>& tags);
std::vector<std::string> tagsFromText(const std::string& text);
/// Decodes a stored scenario; a row that fails the format checks throws StoreProblem::Corrupt naming the id.
Scenario scenarioFromText(const std::string& text, ScenarioId id);
/// The scenario's stored JSON text, checked the way a load will check it (so the library never holds a scenario it
/// cannot read back); throws StoreProblem::InvalidScenario naming the field.
std::string scenarioToText(const Scenario& scenario);
nlohmann::json detailFromText(const std::string& text);
/// Reads gpu_count, tokens_per_s, cost_usd, mfu, step_time_s from five consecutive columns.
ResultFigures figuresAt(const Statement& statement, int firstColumn);

StoreError notFound(ScenarioId id);

} // namespace clusterplanner::core::storesql
