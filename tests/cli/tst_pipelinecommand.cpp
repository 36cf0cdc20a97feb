// SPDX-License-Identifier: GPL-3.0-or-later
// "clusterplanner pipeline": output and errors of the subcommand.
#include "cli/commands.h"
#include "tests/cli/clitesthelpers.h"

#include <QTest>

#include <nlohmann/json.hpp>

#include <sstream>

using clitest::run;

class TestPipelineCommand : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void jsonHasMakespanPeaksAndOps()
    {
        const auto r = run({"pipeline", "--schedule", "interleaved", "--stages", "4", "--microbatches", "8", "--chunks",
            "2", "--json"});
        QCOMPARE(r.code, 0);
        const auto json = nlohmann::json::parse(r.out);
        QCOMPARE(json["makespan"].get<double>(), 28.5); // docs/methods-time.md §4.4
        QCOMPARE(json["peak_in_flight"][0].get<double>(), 5.5);
        QCOMPARE(int(json["ops"].size()), 4 * 8 * 2 * 2);
        QCOMPARE(json["ops"][0]["kind"].get<std::string>(), std::string("F"));
    }

    void textForZeroBubble()
    {
        const auto r = run({"pipeline", "--schedule", "zb-h1", "--stages", "4", "--microbatches", "8"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.find("makespan 27") != std::string::npos);
        QVERIFY(r.out.find("   W ") != std::string::npos);
    }

    /// Where W is not split, --bwd is the whole backward: F 1, B 2 on 4 stages and 8 micro-batches of 1F1B take
    /// (p − 1 + m)(F + B) = 33 against an ideal m(F + B) = 24; the defaults keep B + W = 2.
    void bwdIsTheWholeBackwardWhereWIsNotSplit()
    {
        auto r
            = run({"pipeline", "--schedule", "1f1b", "--stages", "4", "--microbatches", "8", "--bwd", "2", "--json"});
        QCOMPARE(r.code, 0);
        auto json = nlohmann::json::parse(r.out);
        QCOMPARE(json["makespan"].get<double>(), 33.0);
        QCOMPARE(json["ideal"].get<double>(), 24.0);
        QCOMPARE(json["wgrad"].get<double>(), 0.0);
        r = run({"pipeline", "--schedule", "1f1b", "--stages", "4", "--microbatches", "8", "--json"});
        QCOMPARE(nlohmann::json::parse(r.out)["makespan"].get<double>(), 33.0);
    }

    void badCombinationsExitTwo_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("m % p") << QStringList {"--schedule", "interleaved", "--stages", "4", "--microbatches", "6"}
                               << "divisible";
        QTest::newRow("chunks on 1f1b") << QStringList {"--schedule", "1f1b", "--stages", "4", "--microbatches", "8",
            "--chunks", "2"} << "interleaved";
        QTest::newRow("unknown schedule")
            << QStringList {"--schedule", "zb-v", "--stages", "4", "--microbatches", "8"} << "zb-v";
        QTest::newRow("missing stages") << QStringList {"--schedule", "1f1b", "--microbatches", "8"} << "--stages";
        QTest::newRow("zero stages") << QStringList {"--schedule", "1f1b", "--stages", "0", "--microbatches", "8"}
                                     << "--stages";
        QTest::newRow("wgrad on 1f1b") << QStringList {"--schedule", "1f1b", "--stages", "4", "--microbatches", "8",
            "--wgrad", "1"} << "does not split the weight gradient";
    }

    void badCombinationsExitTwo()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        std::vector<std::string> argv {"pipeline"};
        for (const auto& a : args)
            argv.push_back(a.toStdString());
        const auto r = run(argv);
        QCOMPARE(r.code, 2);
        QVERIFY2(QString::fromStdString(r.err).contains(message), r.err.c_str());
    }
};

QTEST_GUILESS_MAIN(TestPipelineCommand)
#include "tst_pipelinecommand.moc"
