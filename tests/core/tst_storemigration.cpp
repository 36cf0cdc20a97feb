// SPDX-License-Identifier: GPL-3.0-or-later
// Scenario library schema: forward migration from every older version keeps the data and ends at the current schema.
#include "core/io/scenariojson.h"
#include "core/store/database.h"
#include "core/store/scenariostore.h"
#include "core/store/schema.h"
#include "tests/core/storetesthelpers.h"

#include <QTest>

#include <functional>
#include <map>

using namespace clusterplanner::core;
using namespace storetest;

namespace {

/// Writes a library as ClusterPlanner with schema `version` left it, with a little data in every table.
using Fixture = std::function<void(const std::string& path)>;

void writeVersion0(const std::string& path)
{
    writeBytes(path, ""); // a zero-length file: what an interrupted first start leaves behind
}

void writeVersion1(const std::string& path)
{
    auto database = Database::open(path, Database::Mode::ReadWriteCreate);
    migrateSchema(database, 0, 1);
    // Hand-written rows in the version 1 layout (no tags column, no results table).
    auto insert = database.prepare("INSERT INTO scenarios (id, name, notes, gpu_id, gpu_count, created, modified, "
                                   "scenario_json) VALUES (?1, ?2, '', 'H100-SXM-80GB', ?3, ?4, ?4, ?5)");
    insert.bind(1, 7).bind(2, "old v1").bind(3, 64).bind(4, "2024-05-01T10:00:00.000Z");
    insert.bind(5, scenarioToJson(variant("old v1", 64)).dump()).run();
    auto version = database.prepare("INSERT INTO scenario_versions (scenario_id, version, saved, name, scenario_json) "
                                    "VALUES (7, 1, '2024-04-30T09:00:00.000Z', 'older', ?1)");
    version.bind(1, scenarioToJson(variant("older", 32)).dump()).run();
    database.exec("INSERT INTO trash (scenario_id, deleted) VALUES (7, '2024-05-02T00:00:00.000Z')");
    auto autosave = database.prepare("INSERT INTO autosave (slot, scenario_id, saved, scenario_json) VALUES "
                                     "('main', 7, '2024-05-03T00:00:00.000Z', ?1)");
    autosave.bind(1, scenarioToJson(variant("edits", 128)).dump()).run();
}

const std::map<int, Fixture>& fixtures()
{
    static const std::map<int, Fixture> table = {{0, writeVersion0}, {1, writeVersion1}};
    return table;
}

/// Column layout of every table: name, type, not-null, default, primary-key position.
std::string describeSchema(const std::string& path)
{
    auto database = Database::open(path, Database::Mode::ReadOnly);
    auto tables = database.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
    std::string description;
    while (tables.step()) {
        auto columns = database.prepare("SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?1) "
                                        "ORDER BY name");
        columns.bind(1, tables.text(0));
        description += tables.text(0) + ":";
        while (columns.step())
            description += " " + columns.text(0) + "/" + columns.text(1) + "/" + columns.text(2) + "/" + columns.text(3)
                + "/" + columns.text(4);
        description += "\n";
    }
    auto indexes = database.prepare("SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' ORDER BY name");
    while (indexes.step())
        description += "index " + indexes.text(0) + " on " + indexes.text(1) + ": " + indexes.text(2) + "\n";
    return description;
}

} // namespace

class TestStoreMigration : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyOlderVersionHasAFixture()
    {
        // Bumping kSchemaVersion without a fixture of the version it replaces must fail here.
        QCOMPARE(int(fixtures().size()), kSchemaVersion);
        for (int version = 0; version < kSchemaVersion; ++version)
            QVERIFY2(fixtures().count(version), qPrintable(QString::number(version)));
    }

    void migratesFromEveryOlderVersion_data()
    {
        QTest::addColumn<int>("version");
        for (const auto& entry : fixtures())
            QTest::newRow(qPrintable(QStringLiteral("from v%1").arg(entry.first))) << entry.first;
    }

    void migratesFromEveryOlderVersion()
    {
        QFETCH(int, version);
        QTemporaryDir dir;
        const auto path = pathIn(dir, "library.sqlite");
        fixtures().at(version)(path);
        auto store = openStore(path);
        QCOMPARE(store.schemaVersion(), kSchemaVersion);
        QCOMPARE(store.integrityCheck(), std::string("ok"));
        // The current schema works in full on the migrated file.
        const ScenarioId id = store.save(variant("after migration"), {"new"});
        store.putResult(id, {{64, 1.0, 2.0, 0.3, 4.0}, {}, {}});
        QVERIFY(store.load(id).result);
        QCOMPARE(store.list({"new"}).size(), std::size_t(1));
    }

    void version1DataSurvivesMigration()
    {
        QTemporaryDir dir;
        const auto path = pathIn(dir, "library.sqlite");
        writeVersion1(path);
        auto store = openStore(path);
        const auto record = store.load(7);
        QVERIFY(record.scenario == variant("old v1", 64));
        QVERIFY(record.tags.empty());
        QVERIFY(record.inTrash);
        QCOMPARE(record.created, std::string("2024-05-01T10:00:00.000Z"));
        QCOMPARE(record.versionCount, 1);
        QVERIFY(store.loadVersion(7, 1) == variant("older", 32));
        const auto recovery = store.pendingRecovery();
        QCOMPARE(recovery.size(), std::size_t(1));
        QVERIFY(recovery.front().scenario == variant("edits", 128));
        QCOMPARE(recovery.front().scenarioId.value_or(0), ScenarioId(7));
        store.restore(7);
        store.update(7, variant("new state", 256));
        QCOMPARE(store.versions(7).front().version, 2);
    }

    void migratedSchemaEqualsAFreshOne_data() { migratesFromEveryOlderVersion_data(); }

    void migratedSchemaEqualsAFreshOne()
    {
        QFETCH(int, version);
        QTemporaryDir dir;
        const auto fresh = pathIn(dir, "fresh.sqlite");
        const auto migrated = pathIn(dir, "migrated.sqlite");
        openStore(fresh);
        fixtures().at(version)(migrated);
        openStore(migrated);
        const auto expected = describeSchema(fresh);
        QVERIFY(expected.find("results:") != std::string::npos);
        QVERIFY(expected.find("index scenarios_listing") != std::string::npos);
        QCOMPARE(describeSchema(migrated), expected);
    }

    void failedMigrationLeavesTheOldVersion()
    {
        QTemporaryDir dir;
        const auto path = pathIn(dir, "library.sqlite");
        writeVersion1(path);
        long long pages = 0;
        {
            auto database = Database::open(path, Database::Mode::ReadOnly);
            pages = database.pragmaInteger("page_count");
        }
        StoreOptions options;
        options.maxPageCount = pages; // no room for the results table
        const auto result = ScenarioStore::open(path, options);
        QVERIFY(!result);
        QCOMPARE(toString(result.problem), toString(StoreProblem::DiskFull));
        QVERIFY2(result.message.find("disk is full") != std::string::npos, result.message.c_str());
        auto database = Database::open(path, Database::Mode::ReadOnly);
        QCOMPARE(database.pragmaInteger("user_version"), 1LL);
        QCOMPARE(openStore(path).load(7).scenario.name, std::string("old v1"));
    }
};

QTEST_GUILESS_MAIN(TestStoreMigration)
#include "tst_storemigration.moc"
