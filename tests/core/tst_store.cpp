// SPDX-License-Identifier: GPL-3.0-or-later
// Scenario library behaviour: seeding, save/load, versions, search, sort, trash, results, autosave, compare.
#include "core/store/scenariocomparison.h"
#include "core/store/scenariostore.h"
#include "tests/core/storetesthelpers.h"

#include <QTest>

#include <algorithm>
#include <functional>
#include <map>
#include <regex>

using namespace clusterplanner::core;
using namespace storetest;

class TestStore : public QObject
{
    Q_OBJECT

private:
    static std::vector<ScenarioId> idsOf(const std::vector<ListRow>& rows)
    {
        std::vector<ScenarioId> ids;
        for (const auto& row : rows)
            ids.push_back(row.id);
        return ids;
    }

    static void expectProblem(StoreProblem expected, const std::function<void()>& operation)
    {
        try {
            operation();
            QFAIL("expected a StoreError");
        } catch (const StoreError& error) {
            QCOMPARE(toString(error.problem()), toString(expected));
        }
    }

private Q_SLOTS:
    void newLibraryIsSeededWithTheSamples()
    {
        QTemporaryDir dir;
        const auto path = pathIn(dir, "library.sqlite");
        auto store = openStore(path, seeded());
        const auto rows = store.list();
        QCOMPARE(rows.size(), scenarioFilesIn(kSampleDir).size());
        QCOMPARE(rows.size(), std::size_t(9));
        QCOMPARE(store.schemaVersion(), 2);
        for (const auto& row : rows)
            QVERIFY(std::count(row.tags.begin(), row.tags.end(), "sample") == 1);
        const auto defaults = store.list({"default"});
        QCOMPARE(defaults.size(), std::size_t(1));
        QVERIFY(store.load(defaults.front().id).scenario == defaultScenario());
    }

    void reopeningDoesNotSeedAgain()
    {
        QTemporaryDir dir;
        const auto path = pathIn(dir, "library.sqlite");
        {
            auto store = openStore(path, seeded());
            store.purge(store.list().front().id);
        }
        auto store = openStore(path, seeded());
        QCOMPARE(store.list().size(), std::size_t(8));
    }

    void saveAndLoadRoundTrip()
    {
        QTemporaryDir dir;
        auto store = openStore(pathIn(dir, "library.sqlite"));
        const Scenario scenario = variant("Round trip ünïcode", 512);
        const ScenarioId id = store.save(scenario, {" zeta", "alpha", "alpha", "", "beta "});
        const auto record = store.load(id);
        QVERIFY(record.scenario == scenario);
        QCOMPARE(record.tags, (std::vector<std::string> {"alpha", "beta", "zeta"}));
        QCOMPARE(record.created, record.modified);
        QVERIFY(std::regex_match(record.created, std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)")));
        QCOMPARE(record.versionCount, 0);
        QVERIFY(!record.inTrash);
        QVERIFY(!record.result);
        const auto rows = store.list();
        QCOMPARE(rows.size(), std::size_t(1));
        QCOMPARE(rows.front().gpuCount, 512);
        QCOMPARE(rows.front().gpuId, std::string("H100-SXM-80GB"));
    }

    void updateKeepsEveryPreviousState()
    {
        QTemporaryDir dir;
        auto store = openStore(pathIn(dir, "library.sqlite"));
        const Scenario s0 = variant("v0", 64), s1 = variant("v1", 128), s2 = variant("v2", 256);
        const ScenarioId id = store.save(s0);
        store.update(id, s1);
        store.update(id, s2);
        store.update(id, s2); // unchanged: no new version
        const auto versions = store.versions(id);
        QCOMPARE(versions.size(), std::size_t(2));
        QCOMPARE(versions[0].version, 2);
        QCOMPARE(versions[0].name, std::string("v1"));
        QCOMPARE(versions[1].version, 1);
        QVERIFY(store.loadVersion(id, 1) == s0);
        QVERIFY(store.loadVersion(id, 2) == s1);
        QVERIFY(store.load(id).scenario == s2);
        QCOMPARE(store.load(id).versionCount, 2);
        QCOMPARE(store.list().front().name, std::string("v2"));
        expectProblem(StoreProblem::NotFound, [&] { store.loadVersion(id, 3); });
    }

    void restoringAVersionKeepsTheReplacedState()
    {
        QTemporaryDir dir;
        auto store = openStore(pathIn(dir, "library.sqlite"));
        const Scenario s0 = variant("v0", 64), s1 = variant("v1", 128);
        const ScenarioId id = store.save(s0);
        store.update(id, s1);
        store.restoreVersion(id, 1);
        QVERIFY(store.load(id).scenario == s0);
        QCOMPARE(store.versions(id).size(), std::size_t(2));
        QVERIFY(store.loadVersion(id, 2) == s1);
    }

    void renameAndDuplicate()
    {
        QTemporaryDir dir;
        auto store = openStore(pathIn(dir, "library.sqlite"));
        const ScenarioId id = store.save(variant("Original"), {"x"});
        store.rename(id, "Renamed");
        QCOMPARE(store.load(id).scenario.name, std::string("Renamed"));
        QCOMPARE(store.versions(id).front().name, std::string("Original"));
        const ScenarioId copy = store.duplicate(id);
        QVERIFY(copy != id);
        const auto record = store.load(copy);
        QCOMPARE(record.scenario.name, std::string("Renamed (copy)"));
        QCOMPARE(record.tags, std::vector<std::string> {"x"});
        QCOMPARE(record.versionCount, 0);
        QCOMPARE(store.load(store.duplicate(id, "Named")).scenario.name, std::string("Named"));
        store.setTags(copy, {"b", "a"});
        QCOMPARE(store.load(copy).tags, (std::vector<std::string> {"a", "b"}));
    }

    void searchMatchesNameTagsAndNotes_data()
    {
        QTest::addColumn<QString>("search");
        QTest::addColumn<QString>("expected"); // names, comma-separated, sorted
        QTest::newRow("name") << "alpha"
                              << "Alpha run";
        QTest::newRow("case-insensitive") << "ALPHA"
                                          << "Alpha run";
        QTest::newRow("tag") << "mi300"
                             << "Beta 50% run";
        QTest::newRow("notes") << "hero"
                               << "Gamma_run";
        QTest::newRow("several") << "run"
                                 << "Alpha run,Beta 50% run,Gamma_run";
        QTest::newRow("percent is literal") << "0%"
                                            << "Beta 50% run";
        QTest::newRow("underscore is literal") << "a_r"
                                               << "Gamma_run";
        QTest::newRow("quote is data, not SQL") << "' OR 1=1 --"
                                                << "";
        QTest::newRow("empty matches all") << ""
                                           << "Alpha run,Beta 50% run,Gamma_run";
    }

    void searchMatchesNameTagsAndNotes()
    {
        QFETCH(QString, search);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        auto store = openStore(pathIn(dir, "library.sqlite"));
        store.save(variant("Alpha run"), {"h100"});
        store.save(variant("Beta 50% run"), {"mi300x"});
        auto gamma = variant("Gamma_run");
        gamma.notes = "The hero run of the quarter.";
        store.save(gamma);
        QStringList names;
        for (const auto& row : store.list({search.toStdString(), SortColumn::Name, false}))
            names << QString::fromStdString(row.name);
        QCOMPARE(names.join(QLatin1Char(',')), expected);
    }

    void sortByEachColumn_data()
    {
        QTest::addColumn<int>("column");
        QTest::addColumn<bool>("descending");
        QTest::addColumn<QString>("expected"); // order of the names "a".."d"; "d" has no result
        QTest::newRow("name asc") << int(SortColumn::Name) << false << "a,b,c,d";
        QTest::newRow("name desc") << int(SortColumn::Name) << true << "d,c,b,a";
        QTest::newRow("created asc") << int(SortColumn::Created) << false << "c,a,d,b";
        QTest::newRow("gpus asc (result, else cluster)") << int(SortColumn::GpuCount) << false << "b,d,a,c";
        QTest::newRow("tokens/s desc") << int(SortColumn::TokensPerS) << true << "a,c,b,d";
        QTest::newRow("tokens/s asc, no result last") << int(SortColumn::TokensPerS) << false << "b,c,a,d";
        QTest::newRow("cost asc") << int(SortColumn::CostUsd) << false << "c,b,a,d";
        QTest::newRow("mfu desc") << int(SortColumn::Mfu) << true << "b,a,c,d";
        QTest::newRow("step time asc") << int(SortColumn::StepTimeS) << false << "a,b,c,d";
    }

    void sortByEachColumn()
    {
        QFETCH(int, column);
        QFETCH(bool, descending);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        auto store = openStore(pathIn(dir, "library.sqlite"));
        // Saved in the order c, a, d, b; d keeps no result and its cluster has 64 GPUs.
        const ScenarioId c = store.save(variant("c", 1024));
        const ScenarioId a = store.save(variant("a", 256));
        store.save(variant("d", 64));
        const ScenarioId b = store.save(variant("b", 32));
        store.putResult(a, {{200, 3.0e6, 900.0, 0.45, 1.0}, {}, {}});
        store.putResult(b, {{32, 1.0e6, 500.0, 0.50, 2.0}, {}, {}});
        store.putResult(c, {{1024, 2.0e6, 100.0, 0.40, 3.0}, {}, {}});
        QStringList names;
        for (const auto& row : store.list({"", SortColumn(column), descending}))
            names << QString::fromStdString(row.name);
        QCOMPARE(names.join(QLatin1Char(',')), expected);
    }

    void limitCutsTheSortedList()
    {
        QTemporaryDir dir;
        auto store = openStore(pathIn(dir, "library.sqlite"));
        for (const char* name : {"b", "d", "a", "c"})
            store.save(variant(name));
        const auto rows = store.list({"", SortColumn::Name, false, 2});
        QCOMPARE(rows.size(), std::size_t(2));
        QCOMPARE(rows[0].name, std::string("a"));
        QCOMPARE(rows[1].name, std::string("b"));
    }

    void trashIsRecoverableUntilPurged()
    {
        QTemporaryDir dir;
        auto store = openStore(pathIn(dir, "library.sqlite"));
        const ScenarioId keep = store.save(variant("keep"));
        const ScenarioId id = store.save(variant("doomed"));
        store.update(id, variant("doomed 2"));
        store.remove(id);
        QCOMPARE(idsOf(store.list()), std::vector<ScenarioId> {keep});
        ListQuery trash;
        trash.trash = true;
        QCOMPARE(idsOf(store.list(trash)), std::vector<ScenarioId> {id});
        QVERIFY(store.load(id).inTrash);
        store.restore(id);
        QCOMPARE(store.list().size(), std::size_t(2));
        QVERIFY(store.list(trash).empty());
        expectProblem(StoreProblem::NotFound, [&] { store.restore(id); });
        store.remove(id);
        store.purge(id);
        expectProblem(StoreProblem::NotFound, [&] { store.load(id); });
        expectProblem(StoreProblem::NotFound, [&] { store.versions(id); });
        expectProblem(StoreProblem::NotFound, [&] { store.purge(id); });
        QVERIFY(store.list(trash).empty());
        QCOMPARE(store.integrityCheck(), std::string("ok"));
    }

    void cachedResultIsDroppedWhenTheScenarioChanges()
    {
        QTemporaryDir dir;
        auto store = openStore(pathIn(dir, "library.sqlite"));
        const ScenarioId id = store.save(variant("with result"));
        const ResultFigures figures {256, 1.25e6, 4.2e6, 0.41, 12.5};
        store.putResult(id, {figures, {{"layout", {{"tp", 8}, {"pp", 4}}}}, {}});
        const auto record = store.load(id);
        QVERIFY(record.result);
        QVERIFY(record.result->figures == figures);
        QCOMPARE(record.result->detail.at("layout").at("tp").get<int>(), 8);
        QVERIFY(!record.result->computed.empty());
        QVERIFY(store.list().front().figures == figures);
        store.setTags(id, {"tags do not invalidate"});
        QVERIFY(store.load(id).result);
        store.update(id, variant("changed"));
        QVERIFY(!store.load(id).result);
        QVERIFY(!store.list().front().figures);
    }

    void autosaveSurvivesAReopenUntilCleared()
    {
        QTemporaryDir dir;
        const auto path = pathIn(dir, "library.sqlite");
        ScenarioId linked = 0;
        {
            auto store = openStore(path);
            linked = store.save(variant("saved"));
            store.autosave("window-1", variant("unsaved edits 1"), linked);
            store.autosave("window-2", variant("draft"));
            store.autosave("window-1", variant("unsaved edits 2"), linked); // replaces the slot
        } // the "crash": the store goes away without clearing its slots
        auto store = openStore(path);
        auto entries = store.pendingRecovery();
        QCOMPARE(entries.size(), std::size_t(2));
        std::sort(entries.begin(), entries.end(), [](auto& x, auto& y) { return x.slot < y.slot; });
        QCOMPARE(entries[0].slot, std::string("window-1"));
        QVERIFY(entries[0].scenario == variant("unsaved edits 2"));
        QCOMPARE(entries[0].scenarioId.value_or(-1), linked);
        QVERIFY(!entries[1].scenarioId);
        store.purge(linked);
        QVERIFY(!store.pendingRecovery().front().scenarioId.has_value()
            && !store.pendingRecovery().back().scenarioId.has_value());
        store.clearAutosave("window-1");
        store.clearAutosave("window-2");
        QVERIFY(store.pendingRecovery().empty());
        expectProblem(StoreProblem::NotFound, [&] { store.autosave("w", variant("x"), linked); });
    }

    void compareListsTheDifferingInputs()
    {
        QTemporaryDir dir;
        auto store = openStore(pathIn(dir, "library.sqlite"), seeded());
        std::vector<ScenarioId> ids;
        for (const auto& row : store.list({"purchase-512", SortColumn::Name, false}))
            ids.push_back(row.id);
        QCOMPARE(ids.size(), std::size_t(3));
        store.putResult(ids[1], {{512, 2.0e6, 1.0e6, 0.4, 8.0}, {}, {}});
        const auto comparison = store.compare(ids);
        std::vector<std::string> paths;
        for (const auto& difference : comparison.differences)
            paths.push_back(difference.path);
        // The three purchase samples share model, layout and cluster shape; only the GPU, node price, names (the
        // cluster's, its group's and so the training group's), the GPU-hour price, the name and notes differ.
        QCOMPARE(paths,
            (std::vector<std::string> {"cluster.name", "cluster.node_groups[0].gpu", "cluster.node_groups[0].name",
                "cluster.node_groups[0].node_price_usd", "economics.gpu_hour_usd", "name", "notes",
                "training.node_group"}));
        const auto& gpu = comparison.differences.at(1).values;
        // Sorted by name: "...: AMD MI300X", "...: H100 SXM 80GB", "...: H200 SXM 141GB".
        QCOMPARE(gpu.at(0).get<std::string>(), std::string("MI300X"));
        QCOMPARE(gpu.at(1).get<std::string>(), std::string("H100-SXM-80GB"));
        QCOMPARE(gpu.at(2).get<std::string>(), std::string("H200-SXM-141GB"));
        QCOMPARE(comparison.differences[4].values.at(1).get<double>(), (1.99 + 5.0) / 2); // catalog range middle
        QVERIFY(!comparison.figures[0] && comparison.figures[1] && !comparison.figures[2]);
        QCOMPARE(comparison.figures[1]->mfu, 0.4);
    }

    void compareShowsAnObjectAgainstNull()
    {
        QTemporaryDir dir;
        auto store = openStore(pathIn(dir, "library.sqlite"));
        Scenario dense = variant("dense");
        Scenario moe = dense;
        moe.model.moe = MoeConfig {};
        const auto comparison = store.compare({store.save(dense), store.save(moe)});
        std::map<std::string, std::vector<nlohmann::json>> byPath;
        for (const auto& difference : comparison.differences)
            byPath[difference.path] = difference.values;
        QVERIFY(byPath.count("model.moe"));
        QVERIFY(byPath["model.moe"][0].is_null());
        QCOMPARE(byPath["model.moe"][1].at("experts").get<int>(), 8);
        QVERIFY(byPath["model.moe.experts"][0].is_null());
        QCOMPARE(byPath["model.moe.experts"][1].get<int>(), 8);
        QCOMPARE(byPath.count("model.layers"), std::size_t(0));
    }

    void flattenJsonUsesDottedPaths()
    {
        const auto leaves = flattenJson(nlohmann::json::parse(R"({"a": {"b": 1, "c": null}, "d": [2, {"e": 3}]})"));
        QCOMPARE(leaves.size(), std::size_t(4));
        QCOMPARE(leaves.at("a.b").get<int>(), 1);
        QVERIFY(leaves.at("a.c").is_null());
        QCOMPARE(leaves.at("d[0]").get<int>(), 2);
        QCOMPARE(leaves.at("d[1].e").get<int>(), 3);
    }

    void invalidScenariosAreNeverStored()
    {
        QTemporaryDir dir;
        auto store = openStore(pathIn(dir, "library.sqlite"));
        Scenario bad = variant("bad");
        bad.training.layout.dp = 0;
        try {
            store.save(bad);
            QFAIL("an invalid scenario was stored");
        } catch (const StoreError& error) {
            QCOMPARE(toString(error.problem()), toString(StoreProblem::InvalidScenario));
            QVERIFY2(std::string(error.what()).find("training.layout.dp") != std::string::npos, error.what());
        }
        bad = variant("bad \xff\xfe bytes");
        QVERIFY_THROWS_EXCEPTION(StoreError, store.save(bad));
        QVERIFY_THROWS_EXCEPTION(StoreError, store.save(variant("good"), {"bad \xff"}));
        QVERIFY(store.list().empty());
    }

    void missingIdsAreNamed()
    {
        QTemporaryDir dir;
        auto store = openStore(pathIn(dir, "library.sqlite"));
        try {
            store.update(4711, defaultScenario());
            QFAIL("update of a missing id must throw");
        } catch (const StoreError& error) {
            QCOMPARE(toString(error.problem()), toString(StoreProblem::NotFound));
            const std::string message = error.what();
            QVERIFY2(message.find("4711") != std::string::npos, error.what());
            QVERIFY2(message.find("Nothing was changed") != std::string::npos, error.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestStore)
#include "tst_store.moc"
