// SPDX-License-Identifier: GPL-3.0-or-later
// Tests of the `queue` and `cost` subcommands through the command dispatcher.
#include "cli/commands.h"
#include "tests/cli/clitesthelpers.h"

#include <QRegularExpression>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <sstream>

using namespace clusterplanner::cli;
using clitest::closeRelative;
using clitest::run;
using clitest::Run;

class TestQueueCommand : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void queueJsonHasExactlyTheDocumentedKeys()
    {
        const Run r = run({"queue", "--servers", "10", "--arrival", "8", "--service", "1", "--json"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.err.empty());
        const auto doc = nlohmann::json::parse(r.out);
        QStringList keys;
        for (const auto& [key, value] : doc.items())
            keys << QString::fromStdString(key);
        keys.sort();
        QCOMPARE(keys, (QStringList {"l", "lq", "p_wait", "stable", "utilization", "w", "wq"}));
        // docs/methods-queueing.md §6 row c = 10, λ = 8, μ = 1.
        QCOMPARE(doc["utilization"].get<double>(), 0.8);
        QVERIFY(closeRelative(doc["p_wait"].get<double>(), 0.409180150796444, 1e-12));
        QVERIFY(closeRelative(doc["wq"].get<double>(), 0.204590075398222, 1e-12));
        QVERIFY(closeRelative(doc["lq"].get<double>(), 1.63672060319, 5e-11));
        QVERIFY(closeRelative(doc["w"].get<double>(), 1.2045900754, 5e-11));
        QVERIFY(closeRelative(doc["l"].get<double>(), 8 * 1.204590075398222, 1e-12));
        QCOMPARE(doc["stable"].get<bool>(), true);
    }

    void queueStaffingTarget()
    {
        // a = 90: P(wait) ≤ 0.2 needs 101 servers (docs/methods-queueing.md §6).
        Run r = run(
            {"queue", "--servers", "100", "--arrival", "90", "--service", "1", "--target-p-wait", "0.2", "--json"});
        QCOMPARE(r.code, 0);
        QCOMPARE(nlohmann::json::parse(r.out)["servers_for_target"].get<long long>(), 101LL);
        // Mean wait ≤ 0.025: c = 100 gives Wq = 0.0217, c = 99 more than that target.
        r = run({"queue", "--servers", "100", "--arrival=90", "--service=1", "--target-wait", "0.025", "--json"});
        QCOMPARE(r.code, 0);
        QCOMPARE(nlohmann::json::parse(r.out)["servers_for_target"].get<long long>(), 100LL);
    }

    void queueUnstableIsFlagged()
    {
        const Run r = run({"queue", "--servers", "4", "--arrival", "5", "--service", "1", "--json"});
        QCOMPARE(r.code, 0);
        const auto doc = nlohmann::json::parse(r.out);
        QCOMPARE(doc["stable"].get<bool>(), false);
        QCOMPARE(doc["p_wait"].get<double>(), 1.0);
        QVERIFY(doc["wq"].is_null()); // +infinity has no JSON number
        const Run text = run({"queue", "--servers", "4", "--arrival", "5", "--service", "1"});
        QVERIFY(QString::fromStdString(text.out).contains("UNSTABLE"));
    }

    void queueTextIsReadable()
    {
        const Run r = run({"queue", "--servers", "1", "--arrival", "0.5", "--service", "1"});
        QCOMPARE(r.code, 0);
        const QString text = QString::fromStdString(r.out);
        QVERIFY(text.contains("M/M/c approximation"));
        QVERIFY(text.contains(QRegularExpression("P\\(wait\\)\\s+0\\.5\\n")));
        QVERIFY(text.contains(QRegularExpression("Wq \\(mean wait, s\\)\\s+1\\n")));
    }

    void queueBadArguments_data()
    {
        QTest::addColumn<QStringList>("argv");
        QTest::addColumn<QString>("message");
        QTest::newRow("zero servers") << QStringList {"queue", "--servers", "0", "--arrival", "1", "--service", "1"}
                                      << "--servers: Value 0 not in range 1 to 10000000";
        QTest::newRow("missing arrival") << QStringList {"queue", "--servers", "2", "--service", "1"}
                                         << "--arrival-per-s is required";
        QTest::newRow("zero service") << QStringList {"queue", "--servers", "2", "--arrival", "1", "--service", "0"}
                                      << "--service-rate-per-s: must be greater than 0 (got 0)";
        QTest::newRow("text rate") << QStringList {"queue", "--servers", "2", "--arrival", "fast", "--service", "1"}
                                   << "--arrival-per-s: \"fast\" is not a number";
        QTest::newRow("both targets") << QStringList {"queue", "--servers", "2", "--arrival", "1", "--service", "1",
            "--target-wait", "1", "--target-p-wait", "0.1"}
                                      << "excludes";
        QTest::newRow("unknown") << QStringList {"queue", "--servers", "2", "--arrival", "1", "--service", "1", "--x"}
                                 << "not expected: --x";
        QTest::newRow("no service") << QStringList {"queue", "--servers", "2", "--arrival", "1"}
                                    << "give --service-rate-per-s RATE or --mean-service-s SECONDS";
        QTest::newRow("rate and duration") << QStringList {"queue", "--servers", "2", "--arrival", "1", "--service",
            "1", "--mean-service-s", "2"} << "excludes";
    }

    void queueBadArguments()
    {
        QFETCH(QStringList, argv);
        QFETCH(QString, message);
        std::vector<std::string> args;
        for (const auto& word : argv)
            args.push_back(word.toStdString());
        const Run r = run(args);
        QCOMPARE(r.code, 2);
        QVERIFY(r.out.empty());
        QVERIFY2(QString::fromStdString(r.err).startsWith("clusterplanner queue: "), r.err.c_str());
        QVERIFY2(QString::fromStdString(r.err).contains(message), r.err.c_str());
    }

    void meanDurationIsTheInverseRate()
    {
        // 4 servers, 5 jobs/s arriving, jobs of 0.5 s mean = a service rate of 2 jobs/s per server.
        const Run byRate
            = run({"queue", "--servers", "4", "--arrival-per-s", "5", "--service-rate-per-s", "2", "--json"});
        const Run byDuration
            = run({"queue", "--servers", "4", "--arrival-per-s", "5", "--mean-service-s", "0.5", "--json"});
        QCOMPARE(byRate.code, 0);
        QCOMPARE(byDuration.code, 0);
        const auto rate = nlohmann::json::parse(byRate.out);
        const auto duration = nlohmann::json::parse(byDuration.out);
        QCOMPARE(duration["utilization"].get<double>(), 5.0 / (4 * 2));
        QCOMPARE(duration["wq"].get<double>(), rate["wq"].get<double>());
        QVERIFY(duration["wq"].get<double>() > 0);
    }

    void costJson()
    {
        const Run r = run({"cost", "--gpus", "16", "--gpu", "H100-SXM-80GB", "--hours", "100", "--gpu-hour-usd", "2.5",
            "--utilization", "0.5", "--json"});
        QCOMPARE(r.code, 0);
        const auto doc = nlohmann::json::parse(r.out);
        QCOMPARE(doc["nodes"].get<int>(), 2);
        QCOMPARE(doc["capex_usd"].get<double>(), 688'000.0); // 16 × (27,500 + 4,250) + 2 × 90,000
        QCOMPARE(doc["cloud_cost_usd"].get<double>(), 4'000.0); // 16 × 100 h × $2.5
        // 16 × (70 + 0.5 × 630) W + 2 × 4.6 kW = 15.36 kW IT; × PUE 1.3 × 100 h.
        QVERIFY(std::abs(doc["energy_kwh"].get<double>() - 1'996.8) < 1e-9);
        QVERIFY(std::abs(doc["tco_usd"].get<double>() - (688'000 + 4 * 19.968 * 0.0806 * 8760)) < 1e-6);
        QCOMPARE(doc["assumptions"]["pue"].get<double>(), 1.3);
    }

    void costOverrides()
    {
        const Run r = run({"cost", "--gpus", "1024", "--gpu", "A100-SXM-80GB", "--hours", "240", "--gpu-hour-usd", "1",
            "--pue", "1.58", "--usd-per-kwh", "0.1", "--years", "5", "--json"});
        QCOMPARE(r.code, 0);
        const auto doc = nlohmann::json::parse(r.out);
        QCOMPARE(doc["cloud_cost_usd"].get<double>(), 245'760.0); // docs/methods-test-values.md §11 item 30
        QCOMPARE(doc["years"].get<double>(), 5.0);
        QCOMPARE(doc["assumptions"]["usd_per_kwh"].get<double>(), 0.1);
        const Run text = run({"cost", "--gpus", "8", "--gpu", "A100-SXM-80GB", "--hours", "10"});
        QCOMPARE(text.code, 0);
        QVERIFY(QString::fromStdString(text.out).contains("TCO (USD)"));
    }

    void costBadArguments()
    {
        Run r = run({"cost", "--gpus", "8", "--gpu", "Z80", "--hours", "1"});
        QCOMPARE(r.code, 2);
        QVERIFY2(QString::fromStdString(r.err).contains("--gpu: unknown value \"Z80\" (one of "), r.err.c_str());
        r = run({"cost", "--gpus", "8", "--gpu", "V100-SXM-32GB", "--hours", "1"});
        QCOMPARE(r.code, 2);
        QVERIFY(QString::fromStdString(r.err).contains("no purchase price for V100-SXM-32GB; pass --gpu-price-usd"));
        r = run({"cost", "--gpus", "8", "--gpu", "H100-SXM-80GB", "--hours", "1", "--pue", "0.5"});
        QCOMPARE(r.code, 2);
        QVERIFY(QString::fromStdString(r.err).contains("--pue"));
        r = run({"cost", "--gpu", "H100-SXM-80GB", "--hours", "1"});
        QCOMPARE(r.code, 2);
        QCOMPARE(QString::fromStdString(r.err),
            QStringLiteral("clusterplanner cost: give --scenario FILE, or --gpus N --gpu ID --hours H\n"));
    }
};

QTEST_GUILESS_MAIN(TestQueueCommand)
#include "tst_queuecommand.moc"
