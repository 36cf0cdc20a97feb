// SPDX-License-Identifier: GPL-3.0-or-later
// ScenarioStore: trash, cached results, autosave slots and comparison.
#include "core/io/scenariojson.h"
#include "core/store/scenariocomparison.h"
#include "core/store/scenariostore.h"
#include "core/store/storeaccess.h"
#include "core/store/storesql.h"
#include "core/store/timestamp.h"

namespace clusterplanner::core {

using namespace storesql;

void ScenarioStore::remove(ScenarioId id)
{
    write("move the scenario to the trash", [&] {
        requireExists(id);
        auto statement = m_database.prepare("INSERT OR IGNORE INTO trash (scenario_id, deleted) VALUES (?1, ?2)");
        statement.bind(1, id).bind(2, isoTimestampUtc()).run();
    });
}

void ScenarioStore::restore(ScenarioId id)
{
    write("restore the scenario from the trash", [&] {
        m_database.prepare("DELETE FROM trash WHERE scenario_id = ?1").bind(1, id).run();
        if (m_database.changes() == 0)
            throw StoreError(StoreProblem::NotFound, "scenario " + std::to_string(id) + " is not in the trash");
    });
}

void ScenarioStore::purge(ScenarioId id)
{
    write("delete the scenario", [&] {
        // Versions, result and trash entry go with it (ON DELETE CASCADE); autosaves keep their edits, unlinked.
        m_database.prepare("DELETE FROM scenarios WHERE id = ?1").bind(1, id).run();
        if (m_database.changes() == 0)
            throw notFound(id);
    });
}

void ScenarioStore::putResult(ScenarioId id, const CachedResult& result)
{
    write("store the result", [&] {
        requireExists(id);
        const auto& f = result.figures;
        auto statement = m_database.prepare(kPutResult);
        statement.bind(1, id).bind(2, isoTimestampUtc()).bind(3, result.detail.dump()).bind(4, f.gpuCount);
        statement.bind(5, f.tokensPerS).bind(6, f.costUsd).bind(7, f.mfu).bind(8, f.stepTimeS).run();
    });
}

void ScenarioStore::autosave(const std::string& slot, const Scenario& scenario, std::optional<ScenarioId> id)
{
    write("autosave", [&] {
        if (id)
            requireExists(*id);
        auto statement = m_database.prepare(
            "INSERT OR REPLACE INTO autosave (slot, scenario_id, saved, scenario_json) VALUES (?1, ?2, ?3, ?4)");
        statement.bind(1, slot);
        if (id)
            statement.bind(2, *id);
        else
            statement.bindNull(2);
        statement.bind(3, isoTimestampUtc()).bind(4, scenarioToText(scenario)).run();
    });
}

std::vector<RecoveryEntry> ScenarioStore::pendingRecovery()
{
    return read("look for unsaved edits", [&] {
        auto statement
            = m_database.prepare("SELECT slot, scenario_id, saved, scenario_json FROM autosave ORDER BY saved DESC");
        std::vector<RecoveryEntry> entries;
        while (statement.step()) {
            RecoveryEntry entry {statement.text(0), std::nullopt, statement.text(2), {}};
            if (!statement.isNull(1))
                entry.scenarioId = statement.integer(1);
            try {
                entry.scenario = scenarioFromText(statement.text(3), entry.scenarioId.value_or(0));
            } catch (const StoreError&) {
                continue; // an unreadable autosave has nothing to recover
            }
            entries.push_back(std::move(entry));
        }
        return entries;
    });
}

void ScenarioStore::clearAutosave(const std::string& slot)
{
    write(
        "clear the autosave", [&] { m_database.prepare("DELETE FROM autosave WHERE slot = ?1").bind(1, slot).run(); });
}

Comparison ScenarioStore::compare(const std::vector<ScenarioId>& ids)
{
    std::vector<ScenarioRecord> records;
    for (ScenarioId id : ids)
        records.push_back(load(id));
    return compareRecords(records);
}

} // namespace clusterplanner::core
