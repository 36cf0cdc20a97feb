// SPDX-License-Identifier: GPL-3.0-or-later
// `clusterplanner COMMAND --help`: every option, its accepted values, units, defaults and examples.
#include "cli/commands.h"
#include "core/sched/simulation.h"
#include "tests/cli/clitesthelpers.h"

#include <QTest>

#include <string>
#include <vector>

using clitest::run;
using clitest::Run;

namespace {

using Words = std::vector<std::string>;

/// The help of one command; fails the test unless it exits 0 with nothing on stderr.
std::string helpOf(const std::string& command)
{
    const Run r = run({command, "--help"});
    if (r.code != 0 || !r.err.empty())
        return "exit " + std::to_string(r.code) + ": " + r.err;
    return r.out;
}

/// Every option each command accepts, as its parser reads them.
const std::vector<std::pair<std::string, Words>>& optionsByCommand()
{
    static const std::vector<std::pair<std::string, Words>> table = {
        {"catalog", {"--json"}},
        {"pipeline", {"--schedule", "--stages", "--microbatches", "--chunks", "--fwd", "--bwd", "--wgrad", "--json"}},
        {"queue",
            {"--servers", "--arrival-per-s", "--arrival", "--service-rate-per-s", "--service", "--mean-service-s",
                "--target-wait-s", "--target-p-wait", "--json"}},
        {"cost",
            {"--scenario", "--gpus", "--gpu", "--hours", "--price", "--years", "--gpu-price-usd", "--gpu-hour-usd",
                "--pue", "--usd-per-kwh", "--utilization", "--json"}},
        {"estimate", {"--case", "--efficiency"}},
        {"validate", {"--cases", "--truth", "--markdown", "--title", "--efficiency"}},
        {"sweep",
            {"--case", "--json", "--format", "--top", "--objective", "--threads", "--quiet", "--efficiency", "--tp",
                "--pp", "--cp", "--ep", "--dp", "--vpp", "--micro-batch", "--zero", "--recompute", "--schedule",
                "--rank-order"}},
        {"simulate",
            {"--cluster", "--gpus", "--gpus-per-node", "--gpu", "--trace", "--trace-format", "--synthetic", "--seed",
                "--arrival-rate", "--runtimes", "--policy", "--placement", "--max-nodes", "--json"}},
        {"library",
            {"--db", "--json", "--out", "--search", "--sort", "--ascending", "--limit", "--trash", "list", "show",
                "export", "import", "delete", "restore"}},
    };
    return table;
}

} // namespace

class TestCommandHelp : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyCommandListsItsOptionsAndExamples_data()
    {
        QTest::addColumn<QString>("command");
        for (const auto& [command, options] : optionsByCommand())
            QTest::newRow(command.c_str()) << QString::fromStdString(command);
    }

    void everyCommandListsItsOptionsAndExamples()
    {
        QFETCH(QString, command);
        const std::string help = helpOf(command.toStdString());
        QVERIFY2(help.find("Usage: clusterplanner " + command.toStdString()) != std::string::npos, help.c_str());
        QVERIFY2(help.find("Examples:\n  clusterplanner " + command.toStdString()) != std::string::npos, help.c_str());
        for (const auto& [name, options] : optionsByCommand())
            if (name == command.toStdString())
                for (const auto& option : options)
                    QVERIFY2(help.find(option) != std::string::npos, (command.toStdString() + ": " + option).c_str());
    }

    void everyCommandIsCovered()
    {
        const std::string list = clusterplanner::cli::commandsHelp();
        for (const auto& [command, options] : optionsByCommand())
            QVERIFY2(list.find("  " + command + " ") != std::string::npos, command.c_str());
        QCOMPARE(optionsByCommand().size(), std::size_t(9)); // a new command needs its row above
    }

    void simulateListsEveryPolicyAndPlacement()
    {
        using namespace clusterplanner::core::sched;
        const std::string help = helpOf("simulate");
        for (int i = 0; i <= int(Policy::Priority); ++i)
            QVERIFY2(help.find(std::string(toString(Policy(i)))) != std::string::npos,
                std::string(toString(Policy(i))).c_str());
        for (int i = 0; i <= int(PlacementStrategy::Balanced); ++i)
            QVERIFY(help.find(std::string(toString(PlacementStrategy(i)))) != std::string::npos);
        for (const char* format : {"tiresias", "philly", "pai", "helios"})
            QVERIFY2(help.find(format) != std::string::npos, format);
        QVERIFY(help.find("=pack") != std::string::npos); // the default placement
    }

    void queueStatesUnits()
    {
        const std::string help = helpOf("queue");
        for (const char* unit : {"jobs per second", "mean job duration", "seconds"})
            QVERIFY2(help.find(unit) != std::string::npos, unit);
    }

    void valuesAndDefaultsAreShown()
    {
        const std::string sweep = helpOf("sweep");
        QVERIFY2(sweep.find("{text,csv,json}") != std::string::npos, sweep.c_str());
        QVERIFY(sweep.find("=20") != std::string::npos); // --top default
        const std::string pipeline = helpOf("pipeline");
        QVERIFY2(pipeline.find("gpipe") != std::string::npos && pipeline.find("zb-h1") != std::string::npos,
            pipeline.c_str());
    }

    void usageErrorsExitTwoNamingTheOption()
    {
        const Run r = run({"simulate", "--gpus", "8", "--synthetic", "10", "--policy", "lottery"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.find("--policy: unknown value \"lottery\" (one of fifo,") != std::string::npos, r.err.c_str());
        const Run missing = run({"sweep"});
        QCOMPARE(missing.code, 2);
        QVERIFY2(missing.err.find("--case is required") != std::string::npos, missing.err.c_str());
    }
};

QTEST_GUILESS_MAIN(TestCommandHelp)
#include "tst_commandhelp.moc"
