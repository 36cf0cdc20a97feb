// SPDX-License-Identifier: GPL-3.0-or-later
// "clusterplanner library ..." on the command line: list, show, import/export round trip, trash, errors, paths.
#include "cli/commands.h"
#include "core/store/librarypaths.h"
#include "tests/cli/clitesthelpers.h"
#include "tests/core/storetesthelpers.h"

#include <QDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <sstream>

using namespace clusterplanner::core;
using namespace storetest;

namespace {

clitest::Run library(const std::string& db, std::vector<std::string> words)
{
    words.insert(words.begin(), "library");
    words.push_back("--db");
    words.push_back(db);
    return clitest::run(words);
}

std::vector<std::string> sampleFiles()
{
    return scenarioFilesIn(kSampleDir);
}

} // namespace

class TestLibraryCommand : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void listOfAMissingLibraryNamesThePathAndCreatesNothing()
    {
        QTemporaryDir dir;
        const auto db = pathIn(dir, "typo/lib.sqlite");
        const auto run = library(db, {"list"});
        QCOMPARE(run.code, 1);
        QVERIFY(run.out.empty());
        QVERIFY2(run.err.find("no scenario library at " + db) != std::string::npos, run.err.c_str());
        QVERIFY(!std::filesystem::exists(pathIn(dir, "typo")));
    }

    void importCreatesAMissingLibraryEmptyAndSaysSo()
    {
        QTemporaryDir dir;
        const auto db = pathIn(dir, "new/lib.sqlite");
        const auto run = library(db, {"import", sampleFiles().front()});
        QCOMPARE(run.code, 0);
        QVERIFY2(run.err.find("created a new, empty library at " + db) != std::string::npos, run.err.c_str());
        const auto listed = nlohmann::json::parse(library(db, {"list", "--json"}).out);
        QCOMPARE(listed.size(), std::size_t(1)); // exactly what was imported, no samples added
    }

    void emptyDbIsRefusedAndNothingIsWritten()
    {
        QTemporaryDir dir;
        const QString saved = QDir::currentPath();
        QDir::setCurrent(dir.path());
        const auto run = clitest::run({"library", "import", sampleFiles().front(), "--db", ""});
        QDir::setCurrent(saved);
        QCOMPARE(run.code, 2);
        QVERIFY(run.out.empty());
        QVERIFY2(run.err.find("--db: the path is empty") != std::string::npos, run.err.c_str());
        QVERIFY(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).isEmpty());
    }

    void importListShowExportRoundTrip()
    {
        QTemporaryDir dir;
        const auto db = pathIn(dir, "lib.sqlite");
        std::vector<std::string> words = {"import", "--json"};
        for (const auto& file : sampleFiles())
            words.push_back(file);
        const auto imported = library(db, words);
        QVERIFY2(imported.code == 0, imported.err.c_str());
        const auto importedJson = nlohmann::json::parse(imported.out);
        QCOMPARE(importedJson.size(), sampleFiles().size());

        const auto listed = nlohmann::json::parse(library(db, {"list", "--json", "--sort", "name", "--ascending"}).out);
        QCOMPARE(listed.size(), sampleFiles().size());
        QCOMPARE(listed.front().at("name").get<std::string>(), std::string("GPT-3 175B on 1,024 A100"));
        QCOMPARE(listed.front().at("gpu_count").get<int>(), 1024);

        const auto exportDir = pathIn(dir, "exported");
        words = {"export", "--out", exportDir};
        for (const auto& entry : importedJson)
            words.push_back(std::to_string(entry.at("id").get<long long>()));
        const auto exported = library(db, words);
        QVERIFY2(exported.code == 0, exported.err.c_str());
        for (const auto& entry : importedJson) {
            const auto original = loadLibraryFile(entry.at("file").get<std::string>());
            const auto id = entry.at("id").get<long long>();
            const auto name = std::to_string(id) + "-" + fileSlug(original.scenario.name) + ".cplan.json";
            const auto copy = loadLibraryFile(exportDir + "/" + name);
            QVERIFY(copy.scenario == original.scenario);
            QCOMPARE(copy.tags, original.tags);
            const auto shown = library(db, {"show", std::to_string(id)});
            QCOMPARE(shown.out, writeLibraryFile(original.scenario, original.tags));
        }
    }

    void exportOfOneIdWritesTheNamedFile()
    {
        QTemporaryDir dir;
        const auto db = pathIn(dir, "lib.sqlite");
        QCOMPARE(library(db, {"import", sampleFiles().front()}).code, 0);
        const auto file = pathIn(dir, "one.cplan.json");
        QCOMPARE(library(db, {"export", "1", "--out", file}).code, 0);
        QVERIFY(loadLibraryFile(file).scenario == loadLibraryFile(sampleFiles().front()).scenario);
        const auto shown = nlohmann::json::parse(library(db, {"show", "1", "--json"}).out);
        QCOMPARE(shown.at("id").get<int>(), 1);
        QVERIFY(shown.at("versions").empty());
        QVERIFY(shown.at("result").is_null());
    }

    void importIsAllOrNothing()
    {
        QTemporaryDir dir;
        const auto db = pathIn(dir, "lib.sqlite");
        const auto bad = pathIn(dir, "bad.cplan.json");
        auto text = fileBytes(sampleFiles().front());
        text.replace(text.find("\"layers\": 96"), 12, "\"layers\": -1");
        writeBytes(bad, text);
        const auto run = library(db, {"import", sampleFiles().back(), bad});
        QCOMPARE(run.code, 1);
        QVERIFY2(run.err.find(bad) != std::string::npos && run.err.find("model.layers") != std::string::npos,
            run.err.c_str());
        QVERIFY(!std::filesystem::exists(db) || library(db, {"list"}).out.find("0 scenarios") != std::string::npos);
    }

    void deleteMovesToTheTrashAndRestoreBringsBack()
    {
        QTemporaryDir dir;
        const auto db = pathIn(dir, "lib.sqlite");
        QCOMPARE(library(db, {"import", sampleFiles()[0], sampleFiles()[1]}).code, 0);
        const auto deleted = library(db, {"delete", "2"});
        QCOMPARE(deleted.code, 0);
        QVERIFY2(deleted.out.find("restore 2") != std::string::npos, deleted.out.c_str());
        QCOMPARE(nlohmann::json::parse(library(db, {"list", "--json"}).out).size(), std::size_t(1));
        const auto trash = nlohmann::json::parse(library(db, {"list", "--trash", "--json"}).out);
        QCOMPARE(trash.size(), std::size_t(1));
        QCOMPARE(trash.front().at("id").get<int>(), 2);
        QCOMPARE(library(db, {"restore", "2"}).code, 0);
        QCOMPARE(nlohmann::json::parse(library(db, {"list", "--json"}).out).size(), std::size_t(2));
    }

    void badCommandLinesAreExplained_data()
    {
        QTest::addColumn<QStringList>("words");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        QTest::newRow("no action") << QStringList {} << 2 << "action is required";
        QTest::newRow("unknown action") << QStringList {"frobnicate"} << 2 << "unknown value \"frobnicate\"";
        QTest::newRow("id not a number") << QStringList {"show", "abc"} << 2 << "\"abc\" is not a scenario id";
        QTest::newRow("show without id") << QStringList {"show"} << 2 << "show needs one scenario id";
        QTest::newRow("bad sort") << QStringList {"list", "--sort", "speed"} << 2 << "unknown value \"speed\"";
        QTest::newRow("export without --out") << QStringList {"export", "1"} << 2 << "export needs --out";
        QTest::newRow("missing id") << QStringList {"show", "99"} << 1 << "no scenario with id 99";
        QTest::newRow("delete missing id") << QStringList {"delete", "99"} << 1 << "no scenario with id 99";
    }

    void badCommandLinesAreExplained()
    {
        QFETCH(QStringList, words);
        QFETCH(int, code);
        QFETCH(QString, message);
        QTemporaryDir dir;
        std::vector<std::string> args;
        for (const auto& word : words)
            args.push_back(word.toStdString());
        const auto db = pathIn(dir, "lib.sqlite");
        QCOMPARE(library(db, {"import", sampleFiles().front()}).code, 0);
        const auto run = library(db, args);
        QCOMPARE(run.code, code);
        QVERIFY2(run.err.find(message.toStdString()) != std::string::npos, run.err.c_str());
    }

    void damagedLibraryIsReportedNotReplaced()
    {
        QTemporaryDir dir;
        const auto db = pathIn(dir, "lib.sqlite");
        writeBytes(db, "not a database");
        const auto run = library(db, {"list"});
        QCOMPARE(run.code, 1);
        QVERIFY2(run.err.find("not an SQLite database") != std::string::npos, run.err.c_str());
        QCOMPARE(fileBytes(db), std::string("not a database"));
    }

    void defaultPathFollowsXdgDataHome()
    {
        QTemporaryDir dir;
        const std::string home = dir.path().toStdString();
        const char* savedXdg = std::getenv("XDG_DATA_HOME");
        const std::string xdgBackup = savedXdg ? savedXdg : "";
        const std::string homeBackup = std::getenv("HOME") ? std::getenv("HOME") : "";
        ::setenv("HOME", home.c_str(), 1);
        ::setenv("XDG_DATA_HOME", (home + "/xdg").c_str(), 1);
        const auto xdgPath = defaultLibraryPath();
        ::setenv("XDG_DATA_HOME", "relative/is/ignored", 1);
        const auto relativePath = defaultLibraryPath();
        ::unsetenv("XDG_DATA_HOME");
        const auto homePath = defaultLibraryPath();
        std::ostringstream out, err;
        const int code = clusterplanner::cli::runCommand({"library", "list"}, out, err);
        ::setenv("HOME", homeBackup.c_str(), 1);
        if (savedXdg)
            ::setenv("XDG_DATA_HOME", xdgBackup.c_str(), 1);
        QCOMPARE(xdgPath, home + "/xdg/ClusterPlanner/library.sqlite");
        QCOMPARE(relativePath, home + "/.local/share/ClusterPlanner/library.sqlite");
        QCOMPARE(homePath, relativePath);
        QCOMPARE(code, 1); // the default library is missing: an error naming it, nothing created
        QVERIFY2(err.str().find(homePath) != std::string::npos, err.str().c_str());
        QVERIFY(!std::filesystem::exists(homePath));
    }
};

QTEST_GUILESS_MAIN(TestLibraryCommand)
#include "tst_librarycommand.moc"
