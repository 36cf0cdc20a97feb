// SPDX-License-Identifier: GPL-3.0-or-later
// Schema DDL per version. Never edit a released step: add a new one and bump kSchemaVersion.
#include "core/store/schema.h"

#include "core/store/database.h"
#include "core/store/storeerror.h"

#include <array>
#include <string>

namespace clusterplanner::core {

namespace {

// Timestamps are ISO 8601 UTC text with milliseconds ("2025-01-31T12:00:00.000Z"), which sorts chronologically.
constexpr const char* kVersion1 = R"sql(
CREATE TABLE scenarios (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    notes TEXT NOT NULL DEFAULT '',
    gpu_id TEXT NOT NULL DEFAULT '',
    gpu_count INTEGER NOT NULL DEFAULT 0,
    created TEXT NOT NULL,
    modified TEXT NOT NULL,
    scenario_json TEXT NOT NULL
);
CREATE TABLE scenario_versions (
    scenario_id INTEGER NOT NULL REFERENCES scenarios(id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    saved TEXT NOT NULL,
    name TEXT NOT NULL,
    scenario_json TEXT NOT NULL,
    PRIMARY KEY (scenario_id, version)
) WITHOUT ROWID;
CREATE TABLE trash (
    scenario_id INTEGER PRIMARY KEY REFERENCES scenarios(id) ON DELETE CASCADE,
    deleted TEXT NOT NULL
);
CREATE TABLE autosave (
    slot TEXT PRIMARY KEY,
    scenario_id INTEGER REFERENCES scenarios(id) ON DELETE SET NULL,
    saved TEXT NOT NULL,
    scenario_json TEXT NOT NULL
);
)sql";

// Results are a cache: a row describes the scenario's current JSON and is deleted whenever that changes.
// scenarios_listing covers every column the library list reads, so listing scans the small index instead of the
// table with its kilobyte-sized JSON (measured: about 2x faster for 10,000 scenarios).
constexpr const char* kVersion2 = R"sql(
ALTER TABLE scenarios ADD COLUMN tags TEXT NOT NULL DEFAULT '[]';
CREATE TABLE results (
    scenario_id INTEGER PRIMARY KEY REFERENCES scenarios(id) ON DELETE CASCADE,
    computed TEXT NOT NULL,
    result_json TEXT NOT NULL,
    gpu_count INTEGER,
    tokens_per_s REAL,
    cost_usd REAL,
    mfu REAL,
    step_time_s REAL
);
CREATE INDEX scenarios_listing ON scenarios (name, tags, notes, gpu_id, gpu_count, created, modified);
)sql";

constexpr std::array<const char*, kSchemaVersion> kSteps = {kVersion1, kVersion2};

} // namespace

void migrateSchema(Database& database, int fromVersion, int toVersion)
{
    if (fromVersion < 0 || toVersion > kSchemaVersion || fromVersion > toVersion)
        throw StoreError(StoreProblem::Other,
            "cannot migrate the library from schema " + std::to_string(fromVersion) + " to "
                + std::to_string(toVersion));
    for (int version = fromVersion + 1; version <= toVersion; ++version)
        database.exec(kSteps[static_cast<std::size_t>(version - 1)]);
    database.exec("PRAGMA application_id = " + std::to_string(kLibraryApplicationId));
    database.exec("PRAGMA user_version = " + std::to_string(toVersion));
}

} // namespace clusterplanner::core
