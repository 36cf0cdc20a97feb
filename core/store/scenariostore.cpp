// SPDX-License-Identifier: GPL-3.0-or-later
// ScenarioStore: saving, loading, listing and versions. Opening lives in storeopener.cpp, the smaller operations
// (trash, results, autosave, compare) in scenariostoreextras.cpp.
#include "core/store/scenariostore.h"

#include "core/io/scenariojson.h"
#include "core/store/libraryfile.h"
#include "core/store/listsort.h"
#include "core/store/schema.h"
#include "core/store/storeaccess.h"
#include "core/store/storeopener.h"
#include "core/store/storesql.h"
#include "core/store/timestamp.h"

namespace clusterplanner::core {

using namespace storesql;

OpenResult ScenarioStore::open(const std::string& path, const StoreOptions& options)
{
    return StoreOpener(path, options).open();
}

OpenResult ScenarioStore::openOrRecover(const std::string& path, const StoreOptions& options)
{
    return StoreOpener(path, options).openOrRecover();
}

ScenarioStore::ScenarioStore(Database database, std::string readOnlyReason)
    : m_database(std::move(database))
    , m_readOnlyReason(std::move(readOnlyReason))
{ }

int ScenarioStore::schemaVersion()
{
    return static_cast<int>(m_database.pragmaInteger("user_version"));
}

std::vector<std::string> ScenarioStore::createOrMigrate(const std::string& seedDirectory)
{
    std::vector<std::string> warnings;
    Transaction transaction(m_database);
    // Read inside the transaction: another process may have migrated while this one waited for the lock.
    const int version = schemaVersion();
    if (version < kSchemaVersion)
        migrateSchema(m_database, version);
    if (version == 0 && !seedDirectory.empty())
        warnings = seed(seedDirectory);
    transaction.commit();
    return warnings;
}

std::vector<std::string> ScenarioStore::seed(const std::string& directory)
{
    std::vector<std::string> skipped;
    const std::string now = isoTimestampUtc();
    for (const auto& path : scenarioFilesIn(directory)) {
        try {
            auto file = loadLibraryFile(path);
            file.tags.push_back("sample");
            insert(file.scenario, file.tags, now);
        } catch (const std::runtime_error& error) {
            // A broken sample must not keep the user from their library; report it and go on.
            skipped.push_back("sample skipped: " + std::string(error.what()));
        }
    }
    return skipped;
}

ScenarioId ScenarioStore::insert(const Scenario& scenario, const std::vector<std::string>& tags, const std::string& now)
{
    auto statement = m_database.prepare(kInsertScenario);
    statement.bind(1, scenario.name).bind(2, scenario.notes).bind(3, scenario.cluster.gpuId);
    statement.bind(4, scenario.cluster.gpuCount).bind(5, now).bind(6, now);
    statement.bind(7, scenarioToText(scenario)).bind(8, tagsToText(tags));
    statement.run();
    return m_database.lastInsertId();
}

void ScenarioStore::replace(ScenarioId id, const Scenario& scenario, const std::string& now)
{
    const std::string json = scenarioToText(scenario);
    if (json == currentJson(id))
        return; // saving an unchanged scenario must not pile up identical versions
    m_database.prepare(kKeepVersion).bind(1, id).bind(2, now).run();
    auto update = m_database.prepare(kUpdateScenario);
    update.bind(1, id).bind(2, scenario.name).bind(3, scenario.notes).bind(4, scenario.cluster.gpuId);
    update.bind(5, scenario.cluster.gpuCount).bind(6, now).bind(7, json).run();
    m_database.prepare(kDeleteResult).bind(1, id).run();
}

std::string ScenarioStore::currentJson(ScenarioId id)
{
    auto statement = m_database.prepare("SELECT scenario_json FROM scenarios WHERE id = ?1");
    if (!statement.bind(1, id).step())
        throw notFound(id);
    return statement.text(0);
}

void ScenarioStore::requireExists(ScenarioId id)
{
    currentJson(id);
}

ScenarioId ScenarioStore::save(const Scenario& scenario, const std::vector<std::string>& tags)
{
    return write("save the scenario", [&] { return insert(scenario, normalizedTags(tags), isoTimestampUtc()); });
}

std::vector<ScenarioId> ScenarioStore::saveAll(const std::vector<NewScenario>& scenarios)
{
    return write("add the scenarios", [&] {
        std::vector<ScenarioId> ids;
        const std::string now = isoTimestampUtc();
        for (const auto& item : scenarios)
            ids.push_back(insert(item.scenario, normalizedTags(item.tags), now));
        return ids;
    });
}

void ScenarioStore::update(ScenarioId id, const Scenario& scenario)
{
    write("save the scenario", [&] { replace(id, scenario, isoTimestampUtc()); });
}

ScenarioRecord ScenarioStore::load(ScenarioId id)
{
    return read("load the scenario", [&] {
        auto statement = m_database.prepare(kLoadScenario);
        if (!statement.bind(1, id).step())
            throw notFound(id);
        ScenarioRecord record;
        record.id = id;
        record.scenario = scenarioFromText(statement.text(0), id);
        record.tags = tagsFromText(statement.text(1));
        record.created = statement.text(2);
        record.modified = statement.text(3);
        record.versionCount = static_cast<int>(statement.integer(4));
        record.inTrash = statement.integer(5) != 0;
        if (!statement.isNull(6))
            record.result
                = CachedResult {figuresAt(statement, 8), detailFromText(statement.text(7)), statement.text(6)};
        return record;
    });
}

std::vector<ListRow> ScenarioStore::list(const ListQuery& query)
{
    return read("list the library", [&] {
        auto statement = m_database.prepare(listSql());
        statement.bind(1, query.trash ? 1 : 0).bind(2, likePattern(query.search));
        std::vector<ListRow> rows;
        while (statement.step()) {
            ListRow row {statement.integer(0), statement.text(1), tagsFromText(statement.text(2)), statement.text(3),
                statement.text(4), static_cast<int>(statement.integer(5)), statement.text(6), statement.text(7), {}};
            if (!statement.isNull(8))
                row.figures = figuresAt(statement, 8);
            rows.push_back(std::move(row));
        }
        sortRows(rows, query.sort, query.descending);
        if (query.limit > 0 && rows.size() > std::size_t(query.limit))
            rows.resize(std::size_t(query.limit));
        return rows;
    });
}

std::vector<VersionInfo> ScenarioStore::versions(ScenarioId id)
{
    return read("list the versions", [&] {
        requireExists(id);
        auto statement = m_database.prepare(
            "SELECT version, saved, name FROM scenario_versions WHERE scenario_id = ?1 ORDER BY version DESC");
        statement.bind(1, id);
        std::vector<VersionInfo> versions;
        while (statement.step())
            versions.push_back({static_cast<int>(statement.integer(0)), statement.text(1), statement.text(2)});
        return versions;
    });
}

Scenario ScenarioStore::versionScenario(ScenarioId id, int version)
{
    requireExists(id);
    auto statement
        = m_database.prepare("SELECT scenario_json FROM scenario_versions WHERE scenario_id = ?1 AND version = ?2");
    if (!statement.bind(1, id).bind(2, version).step())
        throw StoreError(
            StoreProblem::NotFound, "scenario " + std::to_string(id) + " has no version " + std::to_string(version));
    return scenarioFromText(statement.text(0), id);
}

Scenario ScenarioStore::loadVersion(ScenarioId id, int version)
{
    return read("load the version", [&] { return versionScenario(id, version); });
}

void ScenarioStore::restoreVersion(ScenarioId id, int version)
{
    write("restore the version", [&] { replace(id, versionScenario(id, version), isoTimestampUtc()); });
}

void ScenarioStore::rename(ScenarioId id, const std::string& name)
{
    write("rename the scenario", [&] {
        Scenario scenario = scenarioFromText(currentJson(id), id);
        scenario.name = name;
        replace(id, scenario, isoTimestampUtc());
    });
}

ScenarioId ScenarioStore::duplicate(ScenarioId id, const std::string& name)
{
    return write("duplicate the scenario", [&] {
        Scenario scenario = scenarioFromText(currentJson(id), id);
        scenario.name = name.empty() ? scenario.name + " (copy)" : name;
        auto statement = m_database.prepare("SELECT tags FROM scenarios WHERE id = ?1");
        statement.bind(1, id).step();
        return insert(scenario, tagsFromText(statement.text(0)), isoTimestampUtc());
    });
}

void ScenarioStore::setTags(ScenarioId id, const std::vector<std::string>& tags)
{
    write("set the tags", [&] {
        requireExists(id);
        auto statement = m_database.prepare("UPDATE scenarios SET tags = ?2, modified = ?3 WHERE id = ?1");
        statement.bind(1, id).bind(2, tagsToText(normalizedTags(tags))).bind(3, isoTimestampUtc()).run();
    });
}

std::string ScenarioStore::integrityCheck()
{
    return read("check the library", [&] {
        auto statement = m_database.prepare("PRAGMA integrity_check");
        std::string findings;
        while (statement.step())
            findings += (findings.empty() ? "" : "\n") + statement.text(0);
        return findings;
    });
}

} // namespace clusterplanner::core
