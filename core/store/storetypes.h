// SPDX-License-Identifier: GPL-3.0-or-later
// Plain values the scenario library hands out: rows, records, versions, cached results, recovery entries.
#pragma once

#include "core/model/scenario.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clusterplanner::core {

using ScenarioId = std::int64_t;

/// The key figures of a computed plan, kept as sortable columns.
struct ResultFigures
{
    int gpuCount = 0; ///< GPUs the chosen layout uses
    double tokensPerS = 0; ///< training throughput of the whole job, tokens/s
    double costUsd = 0; ///< cost of the whole run, US dollars
    double mfu = 0; ///< model FLOPs utilisation, 0..1
    double stepTimeS = 0; ///< one optimizer step, seconds
    bool operator==(const ResultFigures&) const = default;
};

/// A result cached for a scenario's current inputs; dropped automatically when the scenario changes.
struct CachedResult
{
    ResultFigures figures;
    nlohmann::json detail = nlohmann::json::object(); ///< chosen layout and further key figures
    std::string computed; ///< ISO 8601 UTC; set by the store
};

/// One scenario as the library holds it.
struct ScenarioRecord
{
    ScenarioId id = 0;
    Scenario scenario;
    std::vector<std::string> tags;
    std::string created; ///< ISO 8601 UTC, e.g. "2025-01-31T12:00:00.000Z"
    std::string modified;
    int versionCount = 0; ///< earlier versions kept (the current one not counted)
    bool inTrash = false;
    std::optional<CachedResult> result;
};

/// One line of the library list: enough to show, filter and sort without decoding the scenario JSON.
struct ListRow
{
    ScenarioId id = 0;
    std::string name;
    std::vector<std::string> tags;
    std::string notes;
    std::string gpuId;
    int gpuCount = 0; ///< GPUs in the scenario's cluster
    std::string created;
    std::string modified;
    std::optional<ResultFigures> figures; ///< cached result, when one is current
};

enum class SortColumn { Name, Created, Modified, GpuCount, TokensPerS, CostUsd, Mfu, StepTimeS };

struct ListQuery
{
    std::string search; ///< case-insensitive (ASCII) substring of name, tags or notes; empty = everything
    SortColumn sort = SortColumn::Modified;
    bool descending = true; ///< rows without a value in the sort column come last either way
    int limit = 0; ///< 0 = no limit
    bool trash = false; ///< list the trash instead of the library
};

/// An earlier state of a scenario; version numbers start at 1 and grow with every save.
struct VersionInfo
{
    int version = 0;
    std::string saved; ///< when this state was replaced, ISO 8601 UTC
    std::string name;
};

/// Unsaved edits found in an autosave slot, e.g. after a crash.
struct RecoveryEntry
{
    std::string slot;
    std::optional<ScenarioId> scenarioId; ///< the library scenario the edits belong to, if any
    std::string saved;
    Scenario scenario;
};

/// Input fields that differ between scenarios, and their results side by side.
struct Comparison
{
    struct Difference
    {
        std::string path; ///< dotted JSON path, e.g. "training.layout.tp"
        std::vector<nlohmann::json>
            values; ///< per scenario: the value there (an object where another has a leaf), null if absent
    };
    std::vector<ScenarioId> ids;
    std::vector<std::string> names;
    std::vector<Difference> differences; ///< sorted by path
    std::vector<std::optional<ResultFigures>> figures; ///< one per compared scenario
};

/// A scenario to add, with its tags.
struct NewScenario
{
    Scenario scenario;
    std::vector<std::string> tags;
};

} // namespace clusterplanner::core
