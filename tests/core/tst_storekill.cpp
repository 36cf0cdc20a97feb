// SPDX-License-Identifier: GPL-3.0-or-later
// Crash safety: a writer process SIGKILLed at random moments never damages the library or loses a committed save.
#include "core/store/scenariostore.h"
#include "tests/core/storetesthelpers.h"
#include "tests/sanitizerscale.h"

#include <QElapsedTimer>
#include <QTest>

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <random>
#include <thread>

using namespace clusterplanner::core;
using namespace storetest;

namespace {

/// What the child reports after a commit returned: fixed size, so each pipe write is atomic (< PIPE_BUF).
struct Report
{
    char kind; ///< 'S' saved as new, 'U' updated
    ScenarioId id;
    int round;
    int serial;
};

std::string savedName(int round, int serial)
{
    return "round " + std::to_string(round) + " save " + std::to_string(serial);
}

std::string updatedName(int round, int serial)
{
    return savedName(round, serial) + " updated";
}

/// The child: saves and updates scenarios until it is killed; never returns.
[[noreturn]] void writeUntilKilled(const std::string& path, int round, int reportFd)
{
    auto opened = ScenarioStore::open(path);
    if (!opened)
        ::_exit(3);
    auto& store = *opened.store;
    ScenarioId previous = 0;
    for (int serial = 0;; ++serial) {
        Report report {'S', 0, round, serial};
        if (serial % 3 == 2) {
            store.update(previous, variant(updatedName(round, serial - 1), 32 * (1 + serial % 8)));
            report = {'U', previous, round, serial - 1};
        } else {
            previous = report.id = store.save(variant(savedName(round, serial), 32 * (1 + serial % 8)), {"kill"});
        }
        if (::write(reportFd, &report, sizeof report) != ssize_t(sizeof report))
            ::_exit(4);
    }
}

/// Waits until the child reports its first commit (it has opened the store and written), or `timeoutMs` passes.
/// On a loaded machine a fixed delay could kill a writer before it ever committed, and the test would prove nothing.
bool firstCommit(int reportFd, int timeoutMs, std::vector<Report>& reports)
{
    pollfd readable {reportFd, POLLIN, 0};
    if (::poll(&readable, 1, timeoutMs) != 1)
        return false;
    Report report;
    if (::read(reportFd, &report, sizeof report) != ssize_t(sizeof report))
        return false;
    reports.push_back(report);
    return true;
}

} // namespace

class TestStoreKill : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void killedWritersNeverLoseACommittedSave()
    {
        QTemporaryDir dir;
        const auto path = pathIn(dir, "library.sqlite");
        openStore(path); // created up front: the rounds test writes, not creation
        std::mt19937 random(20250611); // fixed seed: the same kill moments on every run
        // Each writer is killed a random moment after its first commit, so that every round interrupts real work
        // whatever the load; the moments stretch with the sanitizer slowdown.
        const int scale = clusterplanner::test::kTimingScale;
        std::uniform_int_distribution<int> delayUs(0, 25'000 * scale);
        const int rounds = 100;
        int kills = 0;
        std::vector<Report> reports;
        QElapsedTimer timer;
        timer.start();
        for (int round = 0; round < rounds; ++round) {
            int channel[2];
            QVERIFY(::pipe(channel) == 0);
            const pid_t child = ::fork();
            QVERIFY(child >= 0);
            if (child == 0) {
                ::close(channel[0]);
                writeUntilKilled(path, round, channel[1]);
            }
            ::close(channel[1]);
            const bool committed = firstCommit(channel[0], 30'000 * scale, reports);
            if (committed)
                std::this_thread::sleep_for(std::chrono::microseconds(delayUs(random)));
            ::kill(child, SIGKILL);
            int status = 0;
            ::waitpid(child, &status, 0);
            QVERIFY2(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
                qPrintable(QStringLiteral("round %1: the writer exited by itself (status %2)").arg(round).arg(status)));
            QVERIFY2(committed, qPrintable(QStringLiteral("round %1: the writer never committed").arg(round)));
            ++kills;
            Report report;
            while (::read(channel[0], &report, sizeof report) == ssize_t(sizeof report))
                reports.push_back(report);
            ::close(channel[0]);
        }
        qInfo("%d writers killed, %zu commits reported, %lld ms", kills, reports.size(), timer.elapsed());
        QCOMPARE(kills, rounds);
        QVERIFY(reports.size() >= std::size_t(rounds)); // at least the first commit of every round

        auto store = openStore(path);
        QCOMPARE(store.integrityCheck(), std::string("ok"));
        for (const auto& report : reports) {
            const auto record = store.load(report.id); // throws (fails the test) when a reported save is missing
            if (report.kind == 'U')
                QCOMPARE(record.scenario.name, updatedName(report.round, report.serial));
            else if (record.scenario.name != updatedName(report.round, report.serial))
                QCOMPARE(record.scenario.name, savedName(report.round, report.serial));
        }
        const auto rows = store.list({"kill"});
        QVERIFY(rows.size() >= reports.size() * 2 / 3);
        for (const auto& row : rows) // no half-written row: every stored scenario reads back in full
            QCOMPARE(store.load(row.id).scenario.name, row.name);
    }
};

QTEST_GUILESS_MAIN(TestStoreKill)
#include "tst_storekill.moc"
