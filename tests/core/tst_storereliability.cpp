// SPDX-License-Identifier: GPL-3.0-or-later
// Scenario library on bad ground: damaged or foreign files, newer schemas, read-only folders, full disks, busy locks.
#include "core/io/scenariojson.h"
#include "core/store/database.h"
#include "core/store/scenariostore.h"
#include "tests/core/storetesthelpers.h"

#include <QElapsedTimer>
#include <QTest>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <functional>

using namespace clusterplanner::core;
using namespace storetest;

namespace {

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

/// A library with `count` scenarios, closed again (so its WAL is checkpointed into the file).
void createLibrary(const std::string& path, int count)
{
    auto store = openStore(path);
    std::vector<NewScenario> batch;
    for (int i = 0; i < count; ++i)
        batch.push_back({variant("scenario " + std::to_string(i)), {"t"}});
    store.saveAll(batch);
}

/// Runs check as an unprivileged user when the test runs as root (root ignores file permissions), in a child
/// process; returns the check's failure text, empty when it passed.
std::string runUnprivileged(const std::function<std::string()>& check)
{
    int channel[2];
    if (::pipe(channel) != 0)
        return "pipe() failed";
    const pid_t child = ::fork();
    if (child == 0) {
        ::close(channel[0]);
        std::string failure;
        if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0))
            failure = "cannot drop root privileges";
        if (failure.empty())
            failure = check();
        const ssize_t written = ::write(channel[1], failure.data(), failure.size());
        ::_exit(written == ssize_t(failure.size()) ? 0 : 1);
    }
    ::close(channel[1]);
    std::string failure;
    char buffer[512];
    for (ssize_t n; (n = ::read(channel[0], buffer, sizeof buffer)) > 0;)
        failure.append(buffer, std::size_t(n));
    ::close(channel[0]);
    int status = 0;
    ::waitpid(child, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        failure += " (child process failed)";
    return failure;
}

} // namespace

class TestStoreReliability : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void notADatabaseIsLeftUntouched()
    {
        QTemporaryDir dir;
        const auto path = pathIn(dir, "library.sqlite");
        std::string text;
        for (int i = 0; i < 200; ++i)
            text += "This is somebody's notes file, not a database.\n";
        writeBytes(path, text);
        const auto result = ScenarioStore::open(path, seeded());
        QVERIFY(!result);
        QCOMPARE(toString(result.problem), toString(StoreProblem::NotADatabase));
        QVERIFY2(contains(result.message, path) && contains(result.message, "not an SQLite database")
                && contains(result.message, "left untouched"),
            result.message.c_str());
        QCOMPARE(fileBytes(path), text);
        QVERIFY(!std::filesystem::exists(path + "-wal"));
    }

    void openOrRecoverMovesANonDatabaseAside()
    {
        QTemporaryDir dir;
        const auto path = pathIn(dir, "library.sqlite");
        writeBytes(path, "plain text\n");
        auto result = ScenarioStore::openOrRecover(path, seeded());
        QVERIFY2(result, result.message.c_str());
        QCOMPARE(toString(result.problem), toString(StoreProblem::NotADatabase));
        QVERIFY(contains(result.movedAsidePath, "library.sqlite.corrupt-"));
        QCOMPARE(fileBytes(result.movedAsidePath), std::string("plain text\n"));
        QVERIFY2(contains(result.message, result.movedAsidePath) && contains(result.message, "new library"),
            result.message.c_str());
        QCOMPARE(result.store->list().size(), scenarioFilesIn(kSampleDir).size());
    }

    void damagedDatabaseIsDetectedAndMovedAsideOnRequest()
    {
        QTemporaryDir dir;
        const auto path = pathIn(dir, "library.sqlite");
        createLibrary(path, 300);
        std::string bytes = fileBytes(path);
        const std::size_t pageSize = 4096; // SQLite's default page size
        QVERIFY(bytes.size() > 20 * pageSize);
        // Page 1 (header and schema) stays intact; every other page gets an invalid b-tree page header.
        for (std::size_t page = pageSize; page < bytes.size(); page += pageSize)
            bytes.replace(page, 8, std::string(8, '\xff'));
        writeBytes(path, bytes);

        const auto refused = ScenarioStore::open(path);
        QVERIFY(!refused);
        QCOMPARE(toString(refused.problem), toString(StoreProblem::Corrupt));
        QVERIFY2(contains(refused.message, "damaged"), refused.message.c_str());
        QCOMPARE(fileBytes(path), bytes);

        auto recovered = ScenarioStore::openOrRecover(path);
        QVERIFY2(recovered, recovered.message.c_str());
        QCOMPARE(toString(recovered.problem), toString(StoreProblem::Corrupt));
        QCOMPARE(fileBytes(recovered.movedAsidePath), bytes);
        QVERIFY(recovered.store->list().empty());
        QVERIFY(!recovered.store->isReadOnly());
        recovered.store->save(variant("fresh start"));
        QCOMPARE(recovered.store->integrityCheck(), std::string("ok"));
    }

    void newerSchemaIsRefusedThenOpenedReadOnly()
    {
        QTemporaryDir dir;
        const auto path = pathIn(dir, "library.sqlite");
        createLibrary(path, 3);
        Database::open(path, Database::Mode::ReadWrite).exec("PRAGMA user_version = 99");
        const auto bytes = fileBytes(path);

        const auto refused = ScenarioStore::open(path);
        QVERIFY(!refused);
        QCOMPARE(toString(refused.problem), toString(StoreProblem::NewerSchema));
        QVERIFY2(contains(refused.message, "newer ClusterPlanner") && contains(refused.message, "schema 99"),
            refused.message.c_str());

        auto readOnly = ScenarioStore::openOrRecover(path);
        QVERIFY2(readOnly, readOnly.message.c_str());
        QVERIFY(readOnly.store->isReadOnly());
        QVERIFY2(contains(readOnly.message, "read-only"), readOnly.message.c_str());
        QCOMPARE(readOnly.store->list().size(), std::size_t(3));
        try {
            readOnly.store->save(variant("must not be written"));
            QFAIL("a read-only library accepted a save");
        } catch (const StoreError& error) {
            QCOMPARE(toString(error.problem()), toString(StoreProblem::ReadOnly));
            QVERIFY2(contains(error.what(), "read-only") && contains(error.what(), "newer"), error.what());
        }
        readOnly.store.reset();
        QCOMPARE(fileBytes(path), bytes);
    }

    void foreignDatabaseIsNeverTaken()
    {
        QTemporaryDir dir;
        const auto path = pathIn(dir, "other.sqlite");
        Database::open(path, Database::Mode::ReadWriteCreate).exec("CREATE TABLE invoices (id INTEGER, total REAL)");
        const auto bytes = fileBytes(path);
        for (bool recover : {false, true}) {
            const auto result = recover ? ScenarioStore::openOrRecover(path) : ScenarioStore::open(path);
            QVERIFY(!result);
            QCOMPARE(toString(result.problem), toString(StoreProblem::ForeignDatabase));
            QVERIFY2(contains(result.message, "another program"), result.message.c_str());
        }
        QCOMPARE(fileBytes(path), bytes);
    }

    void folderInsteadOfAFileIsNamed()
    {
        QTemporaryDir dir;
        const auto result = ScenarioStore::openOrRecover(dir.path().toStdString());
        QVERIFY(!result);
        QCOMPARE(toString(result.problem), toString(StoreProblem::CannotOpen));
        QVERIFY2(contains(result.message, "folder"), result.message.c_str());
    }

    void missingFoldersAreCreated()
    {
        QTemporaryDir dir;
        const auto path = pathIn(dir, "a/b/library.sqlite");
        QCOMPARE(openStore(path).list().size(), std::size_t(0));
        QVERIFY(std::filesystem::exists(path));
    }

    void readOnlyFolder()
    {
        QTemporaryDir dir;
        const std::string folder = pathIn(dir, "ro");
        std::filesystem::create_directory(folder);
        createLibrary(folder + "/library.sqlite", 4);
        const auto bytes = fileBytes(folder + "/library.sqlite");
        ::chmod(dir.path().toLocal8Bit().constData(), 0755); // the unprivileged child must be able to enter
        ::chmod(folder.c_str(), 0555);
        const std::string failure = runUnprivileged([&]() -> std::string {
            const auto created = ScenarioStore::openOrRecover(folder + "/new.sqlite");
            if (created || created.problem != StoreProblem::ReadOnly || !contains(created.message, "read-only"))
                return "new library in a read-only folder: " + created.message;
            if (std::filesystem::exists(folder + "/new.sqlite"))
                return "a file was created in a read-only folder";
            const auto refused = ScenarioStore::open(folder + "/library.sqlite");
            if (refused || refused.problem != StoreProblem::ReadOnly)
                return "open() did not refuse: " + refused.message;
            auto opened = ScenarioStore::openOrRecover(folder + "/library.sqlite");
            if (!opened || !opened.store->isReadOnly())
                return "openOrRecover() did not open read-only: " + opened.message;
            if (opened.store->list().size() != 4)
                return "the read-only library does not list its 4 scenarios";
            try {
                opened.store->save(variant("x"));
                return "saving into a read-only library succeeded";
            } catch (const StoreError& error) {
                if (error.problem() != StoreProblem::ReadOnly || !contains(error.what(), "read-only"))
                    return std::string("unclear error: ") + error.what();
            }
            return {};
        });
        ::chmod(folder.c_str(), 0755);
        QVERIFY2(failure.empty(), failure.c_str());
        QCOMPARE(fileBytes(folder + "/library.sqlite"), bytes);
    }

    void fullDiskRefusesTheWriteAndKeepsTheLibrary()
    {
        QTemporaryDir dir;
        const auto path = pathIn(dir, "library.sqlite");
        createLibrary(path, 5);
        StoreOptions options;
        options.maxPageCount = Database::open(path, Database::Mode::ReadOnly).pragmaInteger("page_count") + 2;
        auto store = openStore(path, options);
        Scenario big = variant("big");
        big.notes = std::string(200'000, 'n'); // about 50 pages
        try {
            store.save(big);
            QFAIL("the save should not fit");
        } catch (const StoreError& error) {
            QCOMPARE(toString(error.problem()), toString(StoreProblem::DiskFull));
            QVERIFY2(
                contains(error.what(), "disk is full") && contains(error.what(), "Nothing was changed"), error.what());
        }
        std::vector<NewScenario> batch(20, NewScenario {big, {}});
        QVERIFY_THROWS_EXCEPTION(StoreError, store.saveAll(batch));
        QCOMPARE(store.list().size(), std::size_t(5));
        QCOMPARE(store.integrityCheck(), std::string("ok"));
        store = openStore(path);
        store.save(big);
        QCOMPARE(store.list().size(), std::size_t(6));
    }

    void fullDiskWhileCreatingLeavesNoHalfLibrary()
    {
        QTemporaryDir dir;
        const auto path = pathIn(dir, "library.sqlite");
        StoreOptions options = seeded();
        options.maxPageCount = 3;
        const auto result = ScenarioStore::openOrRecover(path, options);
        QVERIFY(!result);
        QCOMPARE(toString(result.problem), toString(StoreProblem::DiskFull));
        QVERIFY2(contains(result.message, "disk is full"), result.message.c_str());
        QVERIFY(!std::filesystem::exists(path + ".corrupt-"));
        // Next time there is room: the library is created and seeded as if for the first time.
        QCOMPARE(openStore(path, seeded()).list().size(), scenarioFilesIn(kSampleDir).size());
    }

    void busyWriterGivesAClearMessage()
    {
        QTemporaryDir dir;
        const auto path = pathIn(dir, "library.sqlite");
        createLibrary(path, 2);
        StoreOptions options;
        options.busyTimeoutMs = 300;
        auto store = openStore(path, options);
        auto other = Database::open(path, Database::Mode::ReadWrite); // a second process's connection
        other.exec("BEGIN IMMEDIATE");
        other.prepare("INSERT INTO scenarios (name, created, modified, scenario_json) VALUES ('other', 'x', 'x', ?1)")
            .bind(1, scenarioToJson(variant("other")).dump())
            .run();
        QElapsedTimer timer;
        timer.start();
        try {
            store.save(variant("refused"));
            QFAIL("a save went through while another connection held the write lock");
        } catch (const StoreError& error) {
            QCOMPARE(toString(error.problem()), toString(StoreProblem::Busy));
            QVERIFY2(contains(error.what(), "busy") && contains(error.what(), "300 ms")
                    && contains(error.what(), "Nothing was changed"),
                error.what());
        }
        QVERIFY(timer.elapsed() >= 250); // it waited for the busy timeout before giving up
        QCOMPARE(store.list().size(), std::size_t(2)); // readers are not blocked and see only committed data
        other.exec("COMMIT");
        store.save(variant("accepted"));
        QCOMPARE(store.list().size(), std::size_t(4));
    }
};

QTEST_GUILESS_MAIN(TestStoreReliability)
#include "tst_storereliability.moc"
