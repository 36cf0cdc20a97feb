// SPDX-License-Identifier: GPL-3.0-or-later
// `clusterplanner simulate --json` on the 60-job Tiresias trace under every policy, and bad traces through the CLI.
#include "cli/commands.h"
#include "tests/cli/clitesthelpers.h"

#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <sstream>

using namespace clusterplanner::cli;
using clitest::run;
using clitest::Run;

namespace {

const std::string kTrace = CLUSTERPLANNER_DATA_DIR "/traces/tiresias_60_job.csv";

struct TraceRow
{
    int gpus = 0;
    double submitS = 0;
    double durationS = 0;
};

/// The trace read here by plain splitting (columns job_id,num_gpu,submit_time,iterations,model_name,duration,…),
/// independent of the importer under test.
std::vector<TraceRow> readTraceByHand()
{
    std::ifstream in(kTrace);
    std::string line;
    std::getline(in, line);
    std::vector<TraceRow> rows;
    while (std::getline(in, line)) {
        std::vector<std::string> cells;
        std::stringstream stream(line);
        for (std::string cell; std::getline(stream, cell, ',');)
            cells.push_back(cell);
        if (cells.size() >= 6)
            rows.push_back({std::stoi(cells[1]), std::stod(cells[2]), std::stod(cells[5])});
    }
    return rows;
}

Run simulateTrace(const std::string& path, const std::string& policy, bool asJson)
{
    std::vector<std::string> argv
        = {"simulate", "--gpus", "32", "--gpus-per-node", "8", "--trace", path, "--policy", policy};
    if (asJson)
        argv.push_back("--json");
    return run(argv);
}

} // namespace

class TestSimulateCommand : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void tiresiasTraceJsonUnderEachPolicy_data()
    {
        QTest::addColumn<QString>("policy");
        for (const char* policy :
            {"fifo", "sjf", "sjf-estimate", "fair", "backfill", "tiresias", "gandiva", "priority"})
            QTest::newRow(policy) << QString(policy);
    }

    void tiresiasTraceJsonUnderEachPolicy()
    {
        QFETCH(QString, policy);
        const Run r = simulateTrace(kTrace, policy.toStdString(), true);
        QVERIFY2(r.code == 0, r.err.c_str());
        const auto doc = nlohmann::json::parse(r.out);
        QCOMPARE(QString::fromStdString(doc["policy"].get<std::string>()), policy);
        const auto trace = readTraceByHand();
        QCOMPARE(trace.size(), std::size_t(60));
        const auto& jobs = doc["jobs"];
        QCOMPARE(jobs.size(), trace.size());
        QCOMPARE(doc["metrics"]["finished"].get<int>(), 60);
        double jctSum = 0;
        for (std::size_t i = 0; i < trace.size(); ++i) {
            const auto& job = jobs[i];
            QCOMPARE(job["gpus"].get<int>(), trace[i].gpus);
            QCOMPARE(job["submit_s"].get<double>(), trace[i].submitS);
            const double startS = job["start_s"].get<double>();
            const double endS = job["end_s"].get<double>();
            QVERIFY(startS >= trace[i].submitS);
            // Preemption, restarts and time slicing only stretch a job; nothing makes it run faster.
            QVERIFY(endS - startS >= trace[i].durationS - 1e-6);
            if (policy == "fifo")
                QCOMPARE(endS - startS, trace[i].durationS);
            QVERIFY(!job["nodes"].empty());
            QVERIFY(job["nodes"].size() <= std::size_t(std::max(1, trace[i].gpus)));
            jctSum += endS - trace[i].submitS;
        }
        const double meanJct = doc["metrics"]["jct_s"]["mean"].get<double>();
        QVERIFY(std::abs(meanJct - jctSum / 60) <= 1e-9 * meanJct);
    }

    void textOutputOfEachPolicyReportsAllJobs()
    {
        for (const char* policy : {"fifo", "backfill", "tiresias", "gandiva"}) {
            const Run r = simulateTrace(kTrace, policy, false);
            QVERIFY2(r.code == 0, r.err.c_str());
            QVERIFY2(r.out.find("jobs 60 (finished 60, unfinished 0)") != std::string::npos, r.out.c_str());
        }
    }

    void badTracesNameTheRow_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        const QString header = "job_id,num_gpu,submit_time,iterations,model_name,duration,interval\n";
        QTest::newRow("missing column") << "job_id,num_gpu,submit_time\n0,1,0\n"
                                        << "bad.csv: row 1 (the header) has no column \"duration\"";
        QTest::newRow("negative time") << header + "0,1,0,5,vgg,10,1\n1,1,-5,5,vgg,10,1\n"
                                       << "row 3, column submit_time: must not be negative";
        QTest::newRow("negative duration") << header + "0,1,0,5,vgg,-10,1\n"
                                           << "row 2, column duration: must not be negative";
        QTest::newRow("too many GPUs") << header + "0,1,0,5,vgg,10,1\n1,64,5,5,vgg,10,1\n"
                                       << "row 3, column num_gpu: job asks for 64 GPUs, the cluster has 32";
    }

    void badTracesNameTheRow()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath("bad.csv").toStdString();
        std::ofstream(path) << text.toStdString();
        const Run r = simulateTrace(path, "fifo", true);
        QCOMPARE(r.code, 1);
        QVERIFY(r.out.empty());
        QVERIFY2(r.err.find(expected.toStdString()) != std::string::npos, r.err.c_str());
    }

    void simulateCommandPrintsParsableJson()
    {
        std::ostringstream out, err;
        const int code = runCommand({"simulate", "--gpus", "32", "--gpus-per-node", "8", "--trace",
                                        CLUSTERPLANNER_DATA_DIR "/traces/tiresias_60_job.csv", "--policy", "backfill",
                                        "--placement", "spread", "--json"},
            out, err);
        QVERIFY2(code == 0, err.str().c_str());
        const auto document = nlohmann::json::parse(out.str());
        QCOMPARE(document["jobs"].size(), std::size_t(60));
        QCOMPARE(document["metrics"]["finished"].get<int>(), 60);
        QCOMPARE(document["policy"].get<std::string>(), std::string("backfill"));
        const auto& job = document["jobs"][1];
        QCOMPARE(job["gpus"].get<int>(), 8);
        QVERIFY(job["start_s"].get<double>() >= job["submit_s"].get<double>());
        QVERIFY(job["end_s"].get<double>() > job["start_s"].get<double>());
        QVERIFY(!job["nodes"].empty());
    }

    void simulateCommandRejectsBadInput()
    {
        std::ostringstream out, err;
        QCOMPARE(runCommand({"simulate", "--gpus", "8", "--synthetic", "10", "--policy", "lottery"}, out, err), 2);
        QVERIFY(err.str().find("--policy") != std::string::npos);
        std::ostringstream out2, err2;
        QCOMPARE(runCommand({"simulate", "--gpus", "4", "--gpus-per-node", "4", "--trace",
                                CLUSTERPLANNER_DATA_DIR "/traces/tiresias_60_job.csv", "--policy", "fifo"},
                     out2, err2),
            1);
        QVERIFY2(err2.str().find("row 3, column num_gpu: job asks for 8 GPUs, the cluster has 4") != std::string::npos,
            err2.str().c_str());
        std::ostringstream out3, err3;
        QCOMPARE(runCommand({"simulate", "--gpus", "64", "--synthetic", "50", "--seed", "3", "--policy", "tiresias"},
                     out3, err3),
            0);
        QVERIFY(out3.str().find("finished 50") != std::string::npos);
    }

    void clusterFileIsTheScenarioClusterSchema()
    {
        // The mixed-cluster sample's `cluster` section, as a version-2 cluster file, as the bare section and as the
        // scenario file itself: the same cluster each time (simulate uses every group).
        const std::string scenarioPath = CLUSTERPLANNER_DATA_DIR "/scenarios/mixed-h100-h200-64-nodes.cplan.json";
        const auto scenario = nlohmann::json::parse(clitest::readFile(scenarioPath));
        const auto& section = scenario["scenario"]["cluster"];
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string filePath = dir.filePath("cluster.json").toStdString();
        std::ofstream(filePath) << nlohmann::json {{"format", "clusterplanner-cluster"}, {"version", 2},
            {"cluster", section}}.dump();
        const std::string barePath = dir.filePath("bare.json").toStdString();
        std::ofstream(barePath) << section.dump();
        int gpus = 0;
        for (const auto& group : section["node_groups"])
            gpus += group["nodes"].get<int>() * group["gpus_per_node"].get<int>();
        for (const std::string& path : {filePath, barePath, scenarioPath}) {
            const Run r = run(
                {"simulate", "--cluster", path, "--synthetic", "40", "--seed", "5", "--policy", "backfill", "--json"});
            QVERIFY2(r.code == 0, r.err.c_str());
            const auto document = nlohmann::json::parse(r.out);
            QCOMPARE(document["cluster"]["node_groups"].size(), section["node_groups"].size());
            int simulated = 0;
            for (std::size_t i = 0; i < document["cluster"]["node_groups"].size(); ++i)
                simulated += document["cluster"]["node_groups"][i]["count"].get<int>()
                    * document["cluster"]["node_types"][i]["gpus"].get<int>();
            QCOMPARE(simulated, gpus);
            QCOMPARE(document["metrics"]["finished"].get<int>(), 40);
        }
        // A bad field is named with its path in the schema.
        auto bad = section;
        bad["node_groups"][0]["gpus_per_node"] = 0;
        std::ofstream(barePath) << bad.dump();
        const Run r = run({"simulate", "--cluster", barePath, "--synthetic", "5", "--policy", "fifo"});
        QCOMPARE(r.code, 1);
        QVERIFY2(
            r.err.find("cluster.node_groups[0].gpus_per_node: must be at least 1") != std::string::npos, r.err.c_str());
    }
};

QTEST_GUILESS_MAIN(TestSimulateCommand)
#include "tst_simulatecommand.moc"
