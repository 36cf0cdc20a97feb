// SPDX-License-Identifier: GPL-3.0-or-later
// Tests of `clusterplanner export-config`: the command's files, launch line and refusals (the writers themselves are
// tested in tests/core/tst_launchconfig.cpp).
#include "core/cluster/trainingview.h"
#include "core/io/scenariojson.h"
#include "core/model/gpucatalog.h"
#include "tests/cli/clitesthelpers.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <yaml-cpp/yaml.h>

#include <fstream>

using namespace clusterplanner::core;

namespace {

const std::string kLlama70b = CLUSTERPLANNER_DATA_DIR "/scenarios/llama3-70b-256-h100.cplan.json";

} // namespace

class TestExportConfigCommand : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void commandWritesFileAndLaunchLine()
    {
        const QString out = QDir::temp().filePath(QStringLiteral("cp-launch-test.yaml"));
        const std::string scenario = kLlama70b;
        const auto result = clitest::run(
            {"export-config", "--scenario", scenario, "--framework", "nemo", "--out", out.toStdString()});
        QVERIFY2(result.code == 0, result.err.c_str());
        QVERIFY(result.out.find("--nnodes=32 --nproc-per-node=8") != std::string::npos);
        const YAML::Node y = YAML::LoadFile(out.toStdString());
        QCOMPARE(y["model"]["tensor_model_parallel_size"].as<int>(), 8);
        QCOMPARE(y["model"]["virtual_pipeline_model_parallel_size"].as<int>(), 5); // interleaved, 5 chunks
        QFile::remove(out);
    }

    void commandRefusesWhatTheFrameworkCannotRun()
    {
        // The sample runs ZeRO-1 (Megatron's distributed optimizer), which torchtitan does not offer.
        const std::string scenario = kLlama70b;
        const auto result = clitest::run({"export-config", "--scenario", scenario, "--framework", "torchtitan"});
        QCOMPARE(result.code, 1);
        QVERIFY2(result.err.find("ZeRO stage 1") != std::string::npos, result.err.c_str());
    }

    /// A scenario on a GPU the catalog does not know gets no config: the estimate behind its notes cannot run.
    void commandRefusesAnUnknownGpu()
    {
        QTemporaryDir folder;
        const std::string path = folder.filePath(QStringLiteral("h100.cplan.json")).toStdString();
        Scenario s = readScenarioFile(clitest::readFile(kLlama70b));
        s.cluster.gpuId = "H100";
        std::ofstream(path) << writeScenarioFile(s);
        const auto result = clitest::run({"export-config", "--scenario", path, "--framework", "megatron"});
        QCOMPARE(result.code, 1);
        // Named where the file states it: the training group's GPU.
        QVERIFY2(result.err.find("cluster.node_groups[0].gpu: unknown GPU \"H100\"; the catalog has H100-SXM-80GB")
                != std::string::npos,
            result.err.c_str());
        QVERIFY(result.out.empty());
    }

    /// FP8 on a GPU without FP8 tensor cores gets no launch flags: the estimate refuses it, and so does the config.
    void commandRefusesFp8WithoutFp8TensorCores()
    {
        QTemporaryDir folder;
        const std::string path = folder.filePath(QStringLiteral("a100-fp8.cplan.json")).toStdString();
        Scenario s = readScenarioFile(clitest::readFile(kLlama70b));
        s.cluster.gpuId = "A100-SXM-80GB";
        cluster::writeViewIntoTopology(s, GpuCatalog::builtin());
        s.training.precision = Precision::Fp8;
        std::ofstream(path) << writeScenarioFile(s);
        for (const char* framework : {"megatron", "nemo", "torchtitan"}) {
            const auto result = clitest::run({"export-config", "--scenario", path, "--framework", framework});
            QCOMPARE(result.code, 1);
            QVERIFY2(result.err.find("training.precision: fp8 needs FP8 tensor cores") != std::string::npos,
                result.err.c_str());
            QVERIFY(result.out.empty());
        }
    }

    void commandNamesBadFramework()
    {
        const std::string scenario = kLlama70b;
        const auto result = clitest::run({"export-config", "--scenario", scenario, "--framework", "jax"});
        QCOMPARE(result.code, 2);
        QVERIFY(result.err.find("--framework: unknown value \"jax\" (one of megatron, nemo, torchtitan, deepspeed)")
            != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestExportConfigCommand)
#include "tst_exportconfigcommand.moc"
