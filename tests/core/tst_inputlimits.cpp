// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 17's reproducers: every bad input is refused with a located, short message before any large allocation,
// in well under a second.
#include "tests/cli/clitesthelpers.h"
#include "tests/sanitizerscale.h"

#include "core/io/inputlimits.h"
#include "core/io/jsontext.h"
#include "core/io/scenariojson.h"
#include "core/io/validationcase.h"
#include "core/model/gpucatalog.h"
#include "core/perf/efficiencyparams.h"
#include "core/queue/resourcerequest.h"
#include "core/sched/clusterfile.h"
#include "core/sched/clustermodeljson.h"
#include "core/sched/traces.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <functional>
#include <sstream>

using namespace clusterplanner::core;
using namespace clusterplanner::core::sched;
using nlohmann::json;

namespace {

/// What a reproducer must meet: refused within this time (scaled under sanitizers) with a short message.
constexpr qint64 kMaxMilliseconds = 1000;
constexpr std::size_t kMaxMessageChars = 400;

/// The message of whatever `read` throws, checked for time and length; "" when nothing was thrown.
std::string refusal(const std::function<void()>& read)
{
    QElapsedTimer timer;
    timer.start();
    std::string message;
    try {
        read();
    } catch (const std::exception& error) {
        message = error.what();
    }
    const qint64 elapsedMs = timer.elapsed();
    if (elapsedMs > kMaxMilliseconds * clusterplanner::test::kTimingScale)
        qWarning("took %lld ms: %s", elapsedMs, message.c_str());
    [&] { QVERIFY(elapsedMs <= kMaxMilliseconds * clusterplanner::test::kTimingScale); }();
    [&] { QVERIFY2(message.size() <= kMaxMessageChars, message.substr(0, 600).c_str()); }();
    [&] { QVERIFY(message.find("[json.exception") == std::string::npos); }();
    return message;
}

bool contains(const std::string& text, const std::string& part)
{
    if (text.find(part) != std::string::npos)
        return true;
    qWarning("\"%s\" does not contain \"%s\"", text.c_str(), part.c_str());
    return false;
}

std::string sampleScenarioText()
{
    return clitest::readFile(CLUSTERPLANNER_DATA_DIR "/scenarios/llama3-70b-256-h100.cplan.json");
}

/// The sample scenario with one field replaced by raw JSON text (e.g. a number the library cannot hold).
std::string scenarioWith(const std::string& field, const std::string& rawValue)
{
    std::string text = sampleScenarioText();
    const auto at = text.find("\"" + field + "\": ");
    const auto valueStart = at + field.size() + 4;
    const auto valueEnd = text.find_first_of(",\n}", valueStart);
    return text.replace(valueStart, valueEnd - valueStart, rawValue);
}

json sampleCluster()
{
    ClusterConfig config;
    config.gpuId = "H100-SXM-80GB";
    config.gpuCount = 64;
    return json::parse(writeClusterFile(homogeneousCluster(config, GpuCatalog::builtin())));
}

std::string nested(std::size_t levels)
{
    return std::string(levels, '[') + std::string(levels, ']');
}

Workload readTrace(TraceFormat format, const std::string& text)
{
    std::istringstream in(text);
    TraceOptions options;
    options.source = "trace.csv";
    if (format == TraceFormat::Tiresias)
        return readTiresiasTrace(in, options);
    if (format == TraceFormat::Helios)
        return readHeliosTrace(in, options);
    return readPhillyTrace(in, options);
}

} // namespace

class TestInputLimits : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void deepNestingIsRefusedAtItsByte_data()
    {
        QTest::addColumn<int>("levels");
        QTest::newRow("100k levels") << 100'000;
        QTest::newRow("one past the limit") << limits::kMaxJsonDepth + 1;
    }

    void deepNestingIsRefusedAtItsByte()
    {
        QFETCH(int, levels);
        const std::string deep = nested(std::size_t(levels));
        const std::string where = "at byte " + std::to_string(limits::kMaxJsonDepth);
        QVERIFY(contains(refusal([&] { readScenarioFile(deep); }), where));
        QVERIFY(contains(refusal([&] { readClusterFile(deep); }), where));
        QVERIFY(contains(refusal([&] { readValidationCases(deep); }), "cases: not valid JSON " + where));
        QVERIFY(contains(refusal([&] { perf::EfficiencyTable::fromJson(deep); }), where));
        QVERIFY(contains(refusal([&] { readTrace(TraceFormat::Philly, deep); }), "trace.csv: not valid JSON"));
    }

    void nestingAtTheLimitStillParses()
    {
        QVERIFY(parseJsonText(nested(std::size_t(limits::kMaxJsonDepth)), "x", [](const std::string& m) {
            throw std::runtime_error(m);
        }).is_array());
    }

    void deepValueInsideAFieldIsRefusedBeforeItIsPrinted()
    {
        const std::string text = scenarioWith("name", nested(20'000));
        QVERIFY(contains(refusal([&] { readScenarioFile(text); }), "nesting deeper than 64 levels"));
    }

    void hugeValuesAreSummarisedNotEchoed()
    {
        std::string bigArray = "[1";
        for (int i = 0; i < 50'000; ++i)
            bigArray += ",1";
        QVERIFY(contains(refusal([&] { readScenarioFile(scenarioWith("name", bigArray + "]")); }),
            "name: must be a string, got array of 50001 elements"));
        const std::string bigString = "\"" + std::string(100'000, 'x') + "\"";
        QVERIFY(contains(refusal([&] { readScenarioFile(scenarioWith("layers", bigString)); }),
            "model.layers: must be a whole number, got string \"xxx"));
        json cluster = sampleCluster();
        cluster["cluster"]["node_types"][0]["nvlink_domains"][0] = std::string(100'000, '7');
        QVERIFY(contains(refusal([&] { readClusterFile(cluster.dump()); }), "nvlink_domains[0]"));
    }

    void numberBeyondDoubleIsLocated()
    {
        const std::string text = scenarioWith("nic_gbps", "1e400");
        const auto byte = text.find("1e400");
        const std::string message = refusal([&] { readScenarioFile(text); });
        QVERIFY(contains(message, "at byte " + std::to_string(byte)));
        QVERIFY(contains(message, "1e400 is out of range"));
        QVERIFY(
            contains(refusal([&] { readValidationCases("[{\"id\": 1e400}]"); }), "cases: not valid JSON at byte 8"));
        QVERIFY(contains(refusal([&] { perf::EfficiencyTable::fromJson("{\"x\": -1e999}"); }), "at byte 6"));
    }

    void hugeIntegersAreRangeErrorsNotWrapped()
    {
        const std::string text = scenarioWith("gpu_count", "18446744073709551615");
        QVERIFY(contains(refusal([&] { readScenarioFile(text); }), "training.gpu_count: must be at most"));
        const std::string cases = R"([{"id": "c", "cluster": {"gpu": "H100-SXM-80GB", "num_gpus": 10000000000}}])";
        QVERIFY(contains(refusal([&] { readValidationCases(cases); }), "c.cluster.num_gpus: must be in 1..10000000"));
    }

    void syntaxErrorsNameByteLineAndColumn()
    {
        const std::string message = refusal([&] { readScenarioFile("{\n  \"format\": tru }"); });
        QVERIFY(contains(message, "not valid JSON at byte"));
        QVERIFY(contains(message, "(line 2, column"));
    }

    void nvlinkRangeIsCheckedBeforeItIsExpanded_data()
    {
        QTest::addColumn<QString>("range");
        QTest::addColumn<QString>("expected");
        QTest::newRow("300M") << "0-300000000"
                              << "GPU 300000000 is outside 0..7";
        QTest::newRow("INT_MAX") << "0-2147483647"
                                 << "GPU 2147483647 is outside 0..7";
        QTest::newRow("past int") << "0-2147483648"
                                  << "is not a GPU index";
    }

    void nvlinkRangeIsCheckedBeforeItIsExpanded()
    {
        QFETCH(QString, range);
        QFETCH(QString, expected);
        json cluster = sampleCluster();
        cluster["cluster"]["node_types"][0]["nvlink_domains"] = json::array({range.toStdString()});
        const std::string message = refusal([&] { readClusterFile(cluster.dump()); });
        QVERIFY(contains(message, "cluster.node_types[0].nvlink_domains[0]: "));
        QVERIFY(contains(message, expected.toStdString()));
    }

    void oversizedClustersAreRefusedWithTheLimit()
    {
        json cluster = sampleCluster();
        cluster["cluster"]["node_types"][0]["gpus"] = 1024;
        cluster["cluster"]["node_types"][0]["nvlink_domains"] = json::array();
        cluster["cluster"]["node_groups"][0]["count"] = 10'000'000;
        QVERIFY(contains(refusal([&] { readClusterFile(cluster.dump()); }),
            "node_groups[0].count: must be at most " + std::to_string(limits::kMaxClusterNodes)));
        cluster["cluster"]["node_groups"][0]["count"] = 200'000;
        QVERIFY(contains(refusal([&] { readClusterFile(cluster.dump()); }),
            "cluster.node_groups: the cluster has 204800000 GPUs, more than the limit of 1048576"));
        ClusterConfig config;
        config.gpuCount = 10'000'000;
        config.gpusPerNode = 1;
        QVERIFY(contains(refusal([&] { homogeneousCluster(config, GpuCatalog::builtin()); }),
            "10000000 nodes, more than the limit of 262144"));
    }

    void simulateRefusesTenMillionNodes()
    {
        QElapsedTimer timer;
        timer.start();
        const auto result = clitest::run(
            {"simulate", "--gpus", "10000000", "--gpus-per-node", "1", "--synthetic", "10", "--policy", "fifo"});
        QVERIFY(timer.elapsed() <= kMaxMilliseconds * clusterplanner::test::kTimingScale);
        QVERIFY(result.code != 0);
        QVERIFY(contains(result.err, "more than the limit of 262144"));
    }

    void traceGpuCountsAreRangeChecked_data()
    {
        QTest::addColumn<int>("format");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        const auto row = [](const char* name, TraceFormat format, const QString& text, const char* expected) {
            QTest::newRow(name) << int(format) << text << QString::fromUtf8(expected);
        };
        const QString tiresias = QStringLiteral("job_id,num_gpu,submit_time,duration\n");
        const QString helios = QStringLiteral("job_id,user,gpu_num,cpu_num,submit_time,duration\n");
        row("tiresias 1e10", TraceFormat::Tiresias, tiresias + "1,1e10,0,5\n",
            "trace.csv: row 2, column num_gpu: is more than the limit of 1048576 (got 1e10)");
        row("tiresias 0", TraceFormat::Tiresias, tiresias + "1,0,0,5\n",
            "row 2, column num_gpu: must be at least 1 (got 0)");
        row("tiresias id 1e20", TraceFormat::Tiresias, tiresias + "1e20,1,0,5\n",
            "row 2, column job_id: is more than the limit");
        // fuzz_trace_tiresias: a priority of 2.9e22 was converted to int (undefined behaviour under UBSan).
        row("tiresias priority 2.9e22", TraceFormat::Tiresias,
            QStringLiteral("job_id,num_gpu,submit_time,duration,priority\n1,1,0,5,2.91845e22\n"),
            "row 2, column priority: is more than the limit");
        row("helios 2^31", TraceFormat::Helios, helios + "1,u,2147483648,1,0,5\n",
            "row 2, column gpu_num: is more than the limit of 1048576 (got 2147483648)");
        row("helios 100 KB cell", TraceFormat::Helios, helios + "1,u," + QString(100'000, 'x') + ",1,0,5\n",
            "row 2, column gpu_num: \"xxxxxxxx");
        row("row without newline", TraceFormat::Tiresias, tiresias + QString(2'000'000, '1'),
            "row 2 is longer than 1048576 bytes");
        row("philly jobid not a string", TraceFormat::Philly,
            QStringLiteral(R"([{"jobid": 7, "submitted_time": "x", "attempts": []}])"),
            "job 1 (no jobid), field submitted_time: string \"x\" is not a date-time");
    }

    void traceGpuCountsAreRangeChecked()
    {
        QFETCH(int, format);
        QFETCH(QString, text);
        QFETCH(QString, expected);
        const std::string message = refusal([&] { readTrace(TraceFormat(format), text.toStdString()); });
        QVERIFY(contains(message, expected.toStdString()));
    }

    void paiGpuSumBeyondTheLimitIsRefused()
    {
        std::istringstream jobs("j1,i1,u1,Terminated,100,200\n");
        std::istringstream tasks("j1,worker,1e300,Terminated,100,200,100,8,100,V100\n");
        TraceOptions options;
        options.source = "pai_job_table.csv";
        QVERIFY(contains(refusal([&] { readPaiTrace(jobs, tasks, options); }),
            "pai_job_table.csv (pai_job_table): row 1, column job_name: its tasks ask for more than the limit"));
    }

    void resourceStringsShowAnExcerpt()
    {
        const std::string text = "1(" + std::string(100'000, 'V') + ")";
        QVERIFY(contains(refusal([&] { queue::parseResourceRequest(text); }), "name longer than 64 characters"));
    }

    /// fuzz_cluster (long run, UBSan build) found `{"format": 0}`: json::value<std::string> threw the library's
    /// type_error, which escaped as an uncaught exception instead of ClusterFormatError.
    void clusterFileFormatOfTheWrongTypeIsNamed()
    {
        QVERIFY_THROWS_EXCEPTION(ClusterFormatError, readSimulatorClusterFile(R"({"format": 0})"));
        QVERIFY(contains(refusal([] { readSimulatorClusterFile(R"({"format": 0})"); }), "format: must be a string"));
        QVERIFY(contains(refusal([] { readSimulatorClusterFile(R"({"format": ["x"]})"); }), "got array of 1 elements"));
    }

    void efficiencyErrorsShowNoLibraryInternals()
    {
        QVERIFY(contains(refusal([&] { perf::EfficiencyTable::fromJson("{\"families\": 5}"); }), ""));
        const std::string wrongType = R"({"defaults": {"gemm_peak_fraction": "high"}, "families": []})";
        QVERIFY(contains(refusal([&] { perf::EfficiencyTable::fromJson(wrongType); }),
            "efficiency defaults: \"gemm_peak_fraction\" must be a non-negative number"));
        QVERIFY(contains(refusal([&] { perf::EfficiencyTable::fromJson(R"({"families": [{}]})"); }), "'name'"));
        // A kernel's speed ratio divides a time: zero is refused by name, not turned into an infinite step.
        const std::string zeroRatio = R"({"defaults": {"triton_backward_ratio": 0}, "families": []})";
        QVERIFY(contains(refusal([&] { perf::EfficiencyTable::fromJson(zeroRatio); }),
            "efficiency defaults: \"triton_backward_ratio\" must be above zero (a speed ratio)"));
    }

    void sweepNamesTheByteOfInvalidJson()
    {
        QTemporaryDir folder;
        const std::string path = folder.filePath("case.json").toStdString();
        std::ofstream(path) << "[{\"id\": \"a\",]";
        const auto result = clitest::run({"sweep", "--case", path});
        QVERIFY(result.code != 0);
        QVERIFY(contains(result.err, path + ": not valid JSON at byte 12 (line 1, column 13)"));
    }

    void excerptsStayValidUtf8()
    {
        const std::string text = std::string(39, 'a') + "é" + "bbb";
        QCOMPARE(excerpt(text), std::string(39, 'a') + "…");
        QCOMPARE(excerpt("short"), std::string("short"));
    }
};

QTEST_GUILESS_MAIN(TestInputLimits)
#include "tst_inputlimits.moc"
