// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/gpucatalog.h"
#include "core/sched/clustermodeljson.h"

#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>

using namespace clusterplanner::core;
using namespace clusterplanner::core::sched;

namespace {

ClusterModel twoTypeCluster()
{
    ClusterModel model;
    model.name = "lab";
    NodeType h100;
    h100.name = "hgx-h100";
    h100.nvlinkDomains = {{0, 1, 2, 3}, {4, 5, 6, 7}};
    NodeType l40s;
    l40s.name = "l40s";
    l40s.gpuId = "L40S";
    l40s.gpuCount = 4;
    l40s.cpuCores = 64;
    l40s.memoryGiB = 512;
    l40s.nicCount = 2;
    l40s.nicGbps = 200;
    l40s.overheadKw = 1.5;
    model.nodeTypes = {h100, l40s};
    model.groups = {{"hgx-h100", 4}, {"l40s", 2}};
    model.nodesPerRack = 4;
    model.fabric = FabricKind::RailOptimized;
    model.oversubscription = 2.0;
    return model;
}

std::string fileWith(const std::string& pointer, const nlohmann::json& value)
{
    auto document = nlohmann::json::parse(writeClusterFile(twoTypeCluster()));
    document[nlohmann::json::json_pointer(pointer)] = value;
    return document.dump();
}

} // namespace

class TestClusterModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void roundTripKeepsEveryField()
    {
        const ClusterModel model = twoTypeCluster();
        const ClusterModel copy = readClusterFile(writeClusterFile(model));
        QVERIFY(copy == model);
        const auto document = nlohmann::json::parse(writeClusterFile(model));
        QVERIFY(document["cluster"]["node_types"][0]["nvlink_domains"] == nlohmann::json({"0-3", "4-7"}));
    }

    void totalsFollowTheCatalog()
    {
        // 32 H100 (80 GB, 989.4 TF bf16, 700 W, $25k-30k) + 8 L40S (48 GB, 362.05 TF, 350 W, ≈ $9k) — §9.
        const auto totals = clusterTotals(twoTypeCluster(), GpuCatalog::builtin());
        const GpuSpec* h100 = GpuCatalog::builtin().find("H100-SXM-80GB");
        const GpuSpec* l40s = GpuCatalog::builtin().find("L40S");
        QCOMPARE(totals.nodes, 6);
        QCOMPARE(totals.racks, 2);
        QCOMPARE(totals.gpus, 40);
        QCOMPARE(totals.gpuMemoryGB, 32 * h100->memoryGB + 8 * l40s->memoryGB);
        QVERIFY(std::abs(totals.peakPflopsBf16 - (32 * 989.4 + 8 * 362.05) / 1000) < 1e-9);
        QVERIFY(std::abs(totals.powerKw - (32 * 0.7 + 4 * 4.6 + 8 * 0.35 + 2 * 1.5)) < 1e-9);
        const double expectedPrice
            = 32 * h100->purchaseUsd.midUsd().value_or(0) + 8 * l40s->purchaseUsd.midUsd().value_or(0);
        QCOMPARE(totals.purchaseUsd, expectedPrice);
        QVERIFY(totals.purchaseUsd > 32 * 25000);
    }

    void homogeneousClusterFromScenarioConfig()
    {
        ClusterConfig config;
        config.gpuId = "H100-PCIe-80GB";
        config.gpuCount = 20;
        config.gpusPerNode = 8;
        const ClusterModel model = homogeneousCluster(config, GpuCatalog::builtin());
        QCOMPARE(model.nodeCount(), 3);
        QCOMPARE(model.gpuCount(), 20);
        // H100 PCIe bridges pairs of GPUs (scale-up domain 2 in the catalog).
        QCOMPARE(model.nodeTypes[0].nvlinkDomains.size(), std::size_t(4));
        QCOMPARE(model.nodeTypes[1].gpuCount, 4);
    }

    void badFieldsAreNamed_data()
    {
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("expected");
        QTest::newRow("gpus") << "/cluster/node_types/0/gpus"
                              << "0"
                              << "cluster.node_types[0].gpus: must be at least 1 (got 0)";
        QTest::newRow("domain overlap") << "/cluster/node_types/0/nvlink_domains"
                                        << R"(["0-4","4-7"])"
                                        << "nvlink_domains[1]: GPU 4 is in more than one domain";
        QTest::newRow("domain range") << "/cluster/node_types/1/nvlink_domains"
                                      << R"(["0-9"])"
                                      << "cluster.node_types[1].nvlink_domains[0]: GPU 9 is outside 0..3";
        QTest::newRow("domain text") << "/cluster/node_types/0/nvlink_domains"
                                     << R"(["0-3","four"])"
                                     << "\"four\" is not a GPU index";
        QTest::newRow("unknown type") << "/cluster/node_groups/1/node_type"
                                      << "\"dgx\""
                                      << "cluster.node_groups[1].node_type: names no entry";
        QTest::newRow("fabric") << "/cluster/fabric/kind"
                                << "\"torus\""
                                << "cluster.fabric.kind: unknown value";
        QTest::newRow("memory") << "/cluster/node_types/0/memory_gib"
                                << "\"lots\""
                                << "cluster.node_types[0].memory_gib: must be a number";
        QTest::newRow("version") << "/version"
                                 << "7"
                                 << "newer ClusterPlanner";
    }

    void badFieldsAreNamed()
    {
        QFETCH(QString, pointer);
        QFETCH(QString, value);
        QFETCH(QString, expected);
        try {
            readClusterFile(fileWith(pointer.toStdString(), nlohmann::json::parse(value.toStdString())));
            QFAIL("no error");
        } catch (const ClusterFormatError& error) {
            QVERIFY2(std::string(error.what()).find(expected.toStdString()) != std::string::npos, error.what());
        }
    }

    void missingFieldIsNamed()
    {
        auto document = nlohmann::json::parse(writeClusterFile(twoTypeCluster()));
        document["cluster"]["node_types"][1].erase("cpu_cores");
        QVERIFY_THROWS_EXCEPTION(ClusterFormatError, readClusterFile(document.dump()));
        try {
            readClusterFile(document.dump());
        } catch (const ClusterFormatError& error) {
            QCOMPARE(std::string(error.what()), std::string("cluster.node_types[1].cpu_cores: is missing"));
        }
        QVERIFY_THROWS_EXCEPTION(ClusterFormatError, readClusterFile("{\"format\": "));
    }

    void indexListsParseAndFormat()
    {
        QCOMPARE(parseIndexList("0-3,5,7-8"), std::vector<int>({0, 1, 2, 3, 5, 7, 8}));
        QCOMPARE(formatIndexList({0, 1, 2, 3, 5, 7, 8}), std::string("0-3,5,7-8"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseIndexList("3-1"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseIndexList("1,,2"));
    }
};

QTEST_GUILESS_MAIN(TestClusterModel)
#include "tst_clustermodel.moc"
