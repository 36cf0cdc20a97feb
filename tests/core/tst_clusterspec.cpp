// SPDX-License-Identifier: GPL-3.0-or-later
// The one cluster schema: JSON round trip, version-1 scenario migration, the training view and bad-input messages.
#include "core/cluster/clusterjson.h"
#include "core/cluster/trainingview.h"
#include "core/evaluation/evaluationerror.h"
#include "core/io/scenariojson.h"
#include "core/model/gpucatalog.h"

#include <QTest>

#include <nlohmann/json.hpp>

using namespace clusterplanner::core;
using namespace clusterplanner::core::cluster;
using nlohmann::json;

namespace {

/// H100 and H200 groups; the second with every optional field set.
ClusterSpec mixedSpec()
{
    ClusterSpec spec;
    spec.name = "mixed";
    NodeGroup h100;
    h100.name = "h100";
    h100.nodeCount = 16;
    NodeGroup h200;
    h200.name = "h200";
    h200.gpuId = "H200-SXM-141GB";
    h200.nodeCount = 4;
    h200.nicsPerNode = 4;
    h200.nicGbps = 800;
    h200.gpuPowerLimitW = 500;
    h200.nodeOverheadW = 4000;
    h200.nodePriceUsd = 350'000;
    h200.nodesPerRack = 2;
    spec.groups = {h100, h200};
    spec.fabric.railOptimized = false;
    spec.fabric.tiers[0].oversubscription = 2;
    spec.fabric.tiers[1].switchPriceUsd = 40'000;
    spec.fabric.tiers[1].switchPowerW = 1'500;
    spec.fabric.opticsUsdPerLink = 900;
    spec.facility.rackPowerLimitKw = 30;
    spec.facility.pue = 1.2;
    return spec;
}

std::string fileWith(const std::string& pointer, const json& value)
{
    auto document = json::parse(writeClusterSpecFile(mixedSpec()));
    document[json::json_pointer(pointer)] = value;
    return document.dump();
}

/// A version-1 scenario file as ClusterPlanner wrote it before the topology existed.
std::string versionOneFile(const std::string& gpu, int gpus, int perNode, double nicGbps, double oversubscription)
{
    json scenario = scenarioToJson(defaultScenario());
    scenario["cluster"] = {{"gpu", gpu}, {"gpu_count", gpus}, {"gpus_per_node", perNode}, {"nic_gbps", nicGbps},
        {"oversubscription", oversubscription}};
    scenario["training"].erase("node_group");
    scenario["training"].erase("gpu_count");
    for (const char* key :
        {"lifetime_years", "maintenance_fraction_per_year", "storage_usd_per_gpu", "facility_usd_per_kw"})
        scenario["economics"].erase(key);
    scenario["training"]["layout"] = {{"dp", gpus / 8}, {"tp", 8}, {"pp", 1}, {"cp", 1}, {"ep", 1},
        {"virtual_stages", 1}, {"sequence_parallel", true}};
    return json {{"format", "clusterplanner-scenario"}, {"version", 1}, {"scenario", scenario}}.dump();
}

} // namespace

class TestClusterSpec : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void roundTripKeepsEveryField()
    {
        const ClusterSpec spec = mixedSpec();
        QVERIFY(readClusterSpecFile(writeClusterSpecFile(spec)) == spec);
        const auto document = json::parse(writeClusterSpecFile(spec));
        QCOMPARE(document["version"].get<int>(), 2);
        QVERIFY(document["cluster"]["node_groups"][0]["gpu_power_limit_w"].is_null()); // unset = TDP
        QCOMPARE(document["cluster"]["node_groups"][1]["gpu_power_limit_w"].get<double>(), 500.0);
        // Optional fields may also be left out.
        auto trimmed = document;
        trimmed["cluster"]["node_groups"][0].erase("node_price_usd");
        trimmed["cluster"]["facility"].erase("pue");
        const ClusterSpec read = readClusterSpecFile(trimmed.dump());
        QVERIFY(!read.groups[0].nodePriceUsd && !read.facility.pue);
    }

    void badFieldsAreNamed_data()
    {
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("expected");
        QTest::newRow("gpus per node") << "/cluster/node_groups/0/gpus_per_node"
                                       << "0"
                                       << "cluster.node_groups[0].gpus_per_node: must be at least 1 (got 0)";
        QTest::newRow("duplicate name") << "/cluster/node_groups/1/name"
                                        << R"("h100")"
                                        << "cluster.node_groups[1].name: \"h100\" names an earlier group too";
        QTest::newRow("no groups") << "/cluster/node_groups"
                                   << "[]"
                                   << "cluster.node_groups: must hold at least one group";
        QTest::newRow("oversubscription") << "/cluster/fabric/tiers/0/oversubscription"
                                          << "0.5"
                                          << "cluster.fabric.tiers[0].oversubscription: must be at least 1";
        QTest::newRow("radix text") << "/cluster/fabric/tiers/1/switch_radix"
                                    << R"("64")"
                                    << "cluster.fabric.tiers[1].switch_radix: must be a whole number";
        QTest::newRow("too many tiers") << "/cluster/fabric/tiers"
                                        << "[{},{},{},{},{},{},{},{},{}]"
                                        << "cluster.fabric.tiers: has 9 entries, more than the limit of 8";
        QTest::newRow("huge") << "/cluster/node_groups/0/nodes"
                              << "10000000"
                              << "cluster.node_groups: the cluster has 10000004 nodes, more than the limit";
        QTest::newRow("negative price") << "/cluster/node_groups/1/node_price_usd"
                                        << "-1"
                                        << "cluster.node_groups[1].node_price_usd: must be at least 0";
        QTest::newRow("pue") << "/cluster/facility/pue"
                             << "0.9"
                             << "cluster.facility.pue: must be at least 1";
        QTest::newRow("newer") << "/version"
                               << "3"
                               << "newer ClusterPlanner";
        QTest::newRow("old simulator file") << "/version"
                                            << "1"
                                            << "simulate --cluster` still reads it";
    }

    void badFieldsAreNamed()
    {
        QFETCH(QString, pointer);
        QFETCH(QString, value);
        QFETCH(QString, expected);
        try {
            readClusterSpecFile(fileWith(pointer.toStdString(), json::parse(value.toStdString())));
            QFAIL("no error");
        } catch (const ClusterFormatError& error) {
            QVERIFY2(std::string(error.what()).find(expected.toStdString()) != std::string::npos, error.what());
        }
    }

    void missingFieldIsNamed()
    {
        auto document = json::parse(writeClusterSpecFile(mixedSpec()));
        document["cluster"]["node_groups"][1].erase("nodes");
        try {
            readClusterSpecFile(document.dump());
            QFAIL("no error");
        } catch (const ClusterFormatError& error) {
            QCOMPARE(std::string(error.what()), std::string("cluster.node_groups[1].nodes: is missing"));
        }
        QVERIFY_THROWS_EXCEPTION(ClusterFormatError, readClusterSpecFile("{\"format\": "));
    }

    void versionOneScenarioMigrates()
    {
        // 20 H100 PCIe, 8 per node: ⌈20/8⌉ = 3 nodes; the catalog bridges PCIe H100s in pairs (scale-up domain 2).
        const Scenario s = readScenarioFile(versionOneFile("H100-PCIe-80GB", 16, 8, 200, 2.0));
        QCOMPARE(s.topology.groups.size(), std::size_t(1));
        const NodeGroup& g = s.topology.groups[0];
        QCOMPARE(s.trainingGroup, g.name);
        QCOMPARE(g.gpuId, std::string("H100-PCIe-80GB"));
        QCOMPARE(g.nodeCount, 2);
        QCOMPARE(g.scaleUpDomainGpus, 2);
        QCOMPARE(g.nicsPerNode, 8);
        QCOMPARE(g.nicGbps, 200.0);
        QCOMPARE(s.topology.fabric.tiers[0].oversubscription, 2.0);
        // The engine's view is the file's five numbers again.
        QCOMPARE(s.cluster.gpuId, std::string("H100-PCIe-80GB"));
        QCOMPARE(s.cluster.gpuCount, 16);
        QCOMPARE(s.cluster.gpusPerNode, 8);
        QCOMPARE(s.cluster.nicGbps, 200.0);
        QCOMPARE(s.cluster.oversubscription, 2.0);
        // Written back as version 2 and read again: the same scenario.
        const std::string text = writeScenarioFile(s);
        QCOMPARE(json::parse(text)["version"].get<int>(), 2);
        QVERIFY(readScenarioFile(text) == s);
    }

    void versionOneNodeCountRoundsUp()
    {
        ClusterConfig view;
        view.gpuCount = 20;
        view.gpusPerNode = 8;
        const ClusterSpec spec = clusterFromView(view, GpuCatalog::builtin());
        QCOMPARE(spec.groups[0].nodeCount, 3);
        // 24 NIC ports fit one 64-port switch: a non-blocking fabric of one tier.
        QCOMPARE(spec.fabric.tiers.size(), std::size_t(1));
        view.gpuCount = 16'384;
        QCOMPARE(clusterFromView(view, GpuCatalog::builtin()).fabric.tiers.size(), std::size_t(3)); // > 64 × 32
        view.gpuId = "GB200";
        view.gpusPerNode = 4;
        view.gpuCount = 576;
        const ClusterSpec nvl = clusterFromView(view, GpuCatalog::builtin());
        QCOMPARE(nvl.groups[0].scaleUpDomainGpus, 72);
        QCOMPARE(nvl.groups[0].nodesPerRack, 18); // one NVL72 rack of 18 four-GPU trays
        QCOMPARE(nvl.facility.rackPowerLimitKw, 132.0);
    }

    void trainingViewFollowsTheGroup()
    {
        Scenario s = defaultScenario();
        s.topology = mixedSpec();
        s.trainingGroup = "h200";
        s.cluster.gpuCount = 32;
        QVERIFY(syncTrainingView(s));
        QCOMPARE(s.cluster.gpuId, std::string("H200-SXM-141GB"));
        QCOMPARE(s.cluster.nicGbps, 4 * 800.0 / 8); // 4 NICs of 800 Gb/s shared by 8 GPUs
        QCOMPARE(s.cluster.oversubscription, 2.0); // leaf 2:1, spine on top
        QCOMPARE(s.cluster.gpuPowerLimitW, std::optional<double>(500));
        QCOMPARE(s.cluster.gpuCount, 32);
        s.trainingGroup = "nonexistent";
        QVERIFY(!syncTrainingView(s));
    }

    void formEditsWriteIntoTheTrainingGroup()
    {
        Scenario s = defaultScenario();
        const std::string before = s.trainingGroup;
        s.cluster.gpuCount = 512; // more than the group's 256 GPUs: it grows
        s.cluster.nicGbps = 200;
        s.cluster.oversubscription = 3;
        writeViewIntoTopology(s, GpuCatalog::builtin());
        const NodeGroup* g = s.topology.findGroup(s.trainingGroup);
        QVERIFY(g);
        QCOMPARE(g->nodeCount, 64);
        QCOMPARE(g->nicGbps, 200.0);
        QCOMPARE(fabricOversubscription(s.topology.fabric), 3.0);
        s.cluster.gpuId = "B200";
        writeViewIntoTopology(s, GpuCatalog::builtin());
        QCOMPARE(s.topology.findGroup(s.trainingGroup)->gpuId, std::string("B200"));
        QVERIFY(s.trainingGroup != before); // an automatic name follows the GPU
        QCOMPARE(s.cluster.gpuId, std::string("B200"));
    }

    void viewFieldErrorsKeepTheirNames()
    {
        Scenario s = defaultScenario();
        s.cluster.gpusPerNode = 0;
        const auto error = checkScenarioFields(s);
        QVERIFY(error);
        QCOMPARE(error->field, std::string("cluster.gpus_per_node"));
    }

    void trainingGroupMustExist()
    {
        auto document = json::parse(writeScenarioFile(defaultScenario()));
        document["scenario"]["training"]["node_group"] = "gb200";
        try {
            readScenarioFile(document.dump());
            QFAIL("no error");
        } catch (const ScenarioFormatError& error) {
            QVERIFY2(QString::fromUtf8(error.what()).startsWith("training.node_group: \"gb200\" names no group"),
                error.what());
        }
        document = json::parse(writeScenarioFile(defaultScenario()));
        document["scenario"]["training"]["gpu_count"] = 257; // the group holds 256
        try {
            readScenarioFile(document.dump());
            QFAIL("no error");
        } catch (const ScenarioFormatError& error) {
            QVERIFY2(
                QString::fromUtf8(error.what()).startsWith("training.gpu_count: must be at most 256"), error.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestClusterSpec)
#include "tst_clusterspec.moc"
