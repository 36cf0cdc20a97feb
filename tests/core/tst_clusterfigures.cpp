// SPDX-License-Identifier: GPL-3.0-or-later
// Derived figures of the one cluster model against values worked out by hand (docs/methods-cluster.md §3–§6).
#include "core/cluster/clusterfigures.h"
#include "core/cluster/fabriccount.h"
#include "core/model/gpucatalog.h"

#include <QTest>

#include <cmath>

using namespace clusterplanner::core;
using namespace clusterplanner::core::cluster;

namespace {

bool close(double a, double b, double relative = 1e-12)
{
    return std::abs(a - b) <= relative * std::max(std::abs(a), std::abs(b));
}

/// `nodes` HGX H100 nodes (8 GPUs, 8 × 400G NICs) on two tiers of 64-port 400G switches (NVIDIA QM9700).
ClusterSpec hgxH100(int nodes, double leafOversubscription, bool railOptimized)
{
    ClusterSpec spec;
    NodeGroup group;
    group.name = "hgx-h100";
    group.nodeCount = nodes;
    spec.groups = {group};
    spec.fabric.railOptimized = railOptimized;
    spec.fabric.tiers = {namedTier("leaf"), namedTier("spine")};
    spec.fabric.tiers[0].oversubscription = leafOversubscription;
    return spec;
}

/// `racks` GB200 NVL72 racks: 18 compute trays of 4 GPUs (each with 4 × 400G NICs) per 72-GPU NVLink domain.
ClusterSpec nvl72(int trays)
{
    ClusterSpec spec;
    NodeGroup tray;
    tray.name = "gb200-nvl72";
    tray.gpuId = "GB200";
    tray.nodeCount = trays;
    tray.gpusPerNode = 4;
    tray.scaleUpDomainGpus = 72;
    tray.nicsPerNode = 4;
    tray.nodesPerRack = 18;
    spec.groups = {tray};
    spec.facility.rackPowerLimitKw = 132;
    return spec;
}

bool hasIssue(const ClusterFigures& f, const std::string& where, const std::string& words)
{
    for (const auto& issue : f.issues)
        if (issue.where == where && issue.reason.find(words) != std::string::npos)
            return true;
    return false;
}

} // namespace

class TestClusterFigures : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void bisectionOfTwoTierFatTree()
    {
        // 128 nodes × 8 NICs = 1,024 endpoints at 400 Gb/s. Non-blocking (1:1): every tier carries all 1,024 links,
        // and a cut halving the endpoints carries half of them: 1,024 × 400 / 2 = 204,800 Gb/s.
        const auto oneToOne = clusterFigures(hgxH100(128, 1, false), GpuCatalog::builtin());
        QCOMPARE(oneToOne.tiers.size(), std::size_t(2));
        QCOMPARE(oneToOne.tiers[0].bisectionGbps, 204'800.0);
        QCOMPARE(oneToOne.tiers[1].bisectionGbps, 204'800.0);
        QCOMPARE(oneToOne.bisectionGbps, 204'800.0);
        // 2:1 at the leaf: 1,024 down, ⌈1,024/2⌉ = 512 uplinks; the spine cut carries 512 × 400 / 2 = 102,400 Gb/s,
        // half the 1:1 figure. Leaf switches of 64 ports at 2:1 take ⌊64·2/3⌋ = 42 hosts: ⌈1,024/42⌉ = 25 leaves;
        // spines ⌈512/64⌉ = 8.
        const auto twoToOne = clusterFigures(hgxH100(128, 2, false), GpuCatalog::builtin());
        QCOMPARE(twoToOne.tiers[0].uplinks, 512LL);
        QCOMPARE(twoToOne.tiers[0].bisectionGbps, 204'800.0);
        QCOMPARE(twoToOne.tiers[1].bisectionGbps, 102'400.0);
        QCOMPARE(twoToOne.bisectionGbps, 102'400.0);
        QCOMPARE(twoToOne.tiers[0].switches, 25LL);
        QCOMPARE(twoToOne.tiers[1].switches, 8LL);
    }

    void superPodSwitchesAndCables()
    {
        // NVIDIA DGX SuperPOD (H100) reference architecture: scalable units (SU) of 32 nodes, 8 rails, QM9700
        // 64-port 400G leaf and spine switches. 1,024 GPUs = 128 nodes = 4 SUs.
        //   leaves: one per rail per SU, each with 32 node ports down and 32 up (1:1): 8 × 4 = 32 leaf switches;
        //   spines: 32 leaves × 32 uplinks = 1,024 uplinks over 64-port spines: 1,024 / 64 = 16 spine switches;
        //   cables: 128 nodes × 8 NICs = 1,024 node-to-leaf, plus 1,024 leaf-to-spine = 2,048 links.
        const auto f = clusterFigures(hgxH100(128, 1, true), GpuCatalog::builtin());
        QCOMPARE(f.gpus, 1024LL);
        QCOMPARE(f.tiers[0].switches, 32LL);
        QCOMPARE(f.tiers[0].uplinks, 1024LL);
        QCOMPARE(f.tiers[1].switches, 16LL);
        QCOMPARE(f.switches, 48LL);
        QCOMPARE(f.links, 2048LL);
        // Priced at data/costs.json's $500 per 400G port and $1,350 per 400G link:
        // 48 × 64 × $500 = $1,536,000 of switches and 2,048 × $1,350 = $2,764,800 of optics: $4.30M, close to the
        // $4.35M (network_usd_per_gpu × 1,024) of the public estimate the old per-GPU default came from.
        QCOMPARE(f.capexSwitchesUsd, 48 * 64 * costDefaults().switchUsdPerPort400g);
        QCOMPARE(f.capexOpticsUsd, 2048 * costDefaults().opticsUsdPerLink400g);
        QVERIFY(std::abs(f.capexNetworkUsd - 1024 * costDefaults().networkUsdPerGpu) < 0.05 * f.capexNetworkUsd);
        QVERIFY(!hasIssue(f, "fabric.tiers", "exceed"));
    }

    void radixExceededIsAnIssue()
    {
        // Two tiers of 64-port switches at 1:1 connect at most 64 spines' ports × 32 hosts per leaf = 2,048 ports;
        // 512 nodes × 8 NICs = 4,096 need a third tier.
        const auto f = clusterFigures(hgxH100(512, 1, true), GpuCatalog::builtin());
        QVERIFY(hasIssue(f, "fabric.tiers", "4096 NIC ports exceed the 2048"));
        auto spec = hgxH100(512, 1, true);
        spec.fabric.tiers.push_back(namedTier("core"));
        QVERIFY(!hasIssue(clusterFigures(spec, GpuCatalog::builtin()), "fabric.tiers", "exceed"));
    }

    void gb200Nvl72DomainsAndRackPower()
    {
        // 4 racks × 18 trays × 4 GPUs = 288 GPUs in 4 NVLink domains of 72.
        const auto f = clusterFigures(nvl72(72), GpuCatalog::builtin());
        QCOMPARE(f.gpus, 288LL);
        QCOMPARE(f.scaleUpDomains, 4LL);
        QCOMPARE(f.racks, 4LL);
        // A tray: 4 × 1,200 W GB200 + node_overhead_w scaled to 4 GPUs (4,600 × 4/8 = 2,300 W) = 7,100 W; a rack of
        // 18 trays 127.8 kW, inside the 132 kW of a liquid-cooled NVL72 rack.
        QVERIFY(close(nodePowerW(nvl72(1).groups[0], 1200), 7100));
        QVERIFY(close(f.maxRackKw, 127.8));
        QVERIFY(!hasIssue(f, "groups[0]", "rack"));
        // 17 trays = 68 GPUs do not fill a 72-GPU domain.
        QVERIFY(hasIssue(clusterFigures(nvl72(17), GpuCatalog::builtin()), "groups[0]", "do not fill whole 72-GPU"));
        // At a 120 kW rack limit the same rack is over it.
        auto tight = nvl72(72);
        tight.facility.rackPowerLimitKw = 120;
        QVERIFY(hasIssue(clusterFigures(tight, GpuCatalog::builtin()), "groups[0]", "127.8 kW, over the 120.0 kW"));
    }

    void powerAndKwPerRackOfHgx()
    {
        // HGX H100 node: 8 × 700 W + 4,600 W = 10.2 kW (DGX H100's 10.2 kW). 4 per rack = 40.8 kW: over 40 kW.
        auto spec = hgxH100(16, 1, true);
        spec.groups[0].nodesPerRack = 4;
        const auto f = clusterFigures(spec, GpuCatalog::builtin());
        QCOMPARE(f.racks, 4LL);
        QVERIFY(close(f.maxRackKw, 40.8));
        QVERIFY(hasIssue(f, "groups[0]", "rack of 4 nodes draws 40.8 kW, over the 40.0 kW limit"));
        // IT power: 16 nodes × 10.2 kW + switches. 128 NICs: rail-optimised leaves 8 rails × ⌈16/32⌉ = 8, spines
        // ⌈128/64⌉ = 2; 10 switches × 64 ports × 25 W = 16 kW.
        QCOMPARE(f.switches, 10LL);
        QVERIFY(close(f.switchPowerKw, 10 * 64 * costDefaults().switchWPerPort400g / 1000));
        QVERIFY(close(f.itPowerKw, 16 * 10.2 + f.switchPowerKw));
        QVERIFY(close(f.facilityPowerKw, f.itPowerKw * costDefaults().pue));
        // Meta's Grand Teton H100s at 500 W: 8 × 500 + 4,600 = 8.6 kW, 34.4 kW per rack of 4: inside 40 kW.
        spec.groups[0].gpuPowerLimitW = 500;
        const auto capped = clusterFigures(spec, GpuCatalog::builtin());
        QVERIFY(close(capped.maxRackKw, 34.4));
        QVERIFY(!hasIssue(capped, "groups[0]", "rack"));
        QVERIFY(capped.itPowerKw < f.itPowerKw);
    }

    void capexOpexTcoByHand()
    {
        // One group with its own node price, a switch price, optics and site figures, so every term is checkable.
        auto spec = hgxH100(4, 1, true); // 32 GPUs, 32 NICs
        spec.groups[0].nodePriceUsd = 300'000;
        spec.groups[0].nodeOverheadW = 4'400; // node 10.0 kW
        spec.fabric.tiers = {namedTier("leaf")}; // one 64-port switch
        spec.fabric.tiers[0].switchPriceUsd = 30'000;
        spec.fabric.tiers[0].switchPowerW = 1'000;
        spec.fabric.opticsUsdPerLink = 1'000;
        spec.facility.pue = 1.25;
        CostInputs in;
        in.usdPerKwh = 0.1;
        in.lifetimeYears = 5;
        in.maintenanceFractionPerYear = 0.05;
        in.storageUsdPerGpu = 1'000;
        in.facilityUsdPerKw = 10'000;
        in.cloudUsdPerGpuHour = 2;
        const auto f = clusterFigures(spec, GpuCatalog::builtin(), in);
        QCOMPARE(f.switches, 1LL);
        QCOMPARE(f.links, 32LL);
        QCOMPARE(f.capexNodesUsd, 1'200'000.0);
        QCOMPARE(f.capexNetworkUsd, 30'000.0 + 32'000.0);
        QCOMPARE(f.capexStorageUsd, 32'000.0);
        QVERIFY(close(f.itPowerKw, 41.0)); // 4 × 10 kW + 1 kW switch
        QVERIFY(close(f.capexFacilityUsd, 410'000.0));
        QVERIFY(close(f.capexUsd, 1'200'000.0 + 62'000 + 32'000 + 410'000));
        QVERIFY(close(f.facilityPowerKw, 51.25));
        QVERIFY(close(f.opexEnergyUsdPerYear, 51.25 * 8760 * 0.1));
        QVERIFY(close(f.opexMaintenanceUsdPerYear, 0.05 * (1'200'000.0 + 62'000 + 32'000)));
        QVERIFY(close(f.tcoUsd, f.capexUsd + 5 * (f.opexEnergyUsdPerYear + f.opexMaintenanceUsdPerYear)));
        QVERIFY(close(f.cloudEquivalentUsd, 32 * 2.0 * 8760 * 5));
        // Peaks and memory from the catalog: 32 × 989.4 TFLOP/s bf16, 32 × 80 GB.
        QVERIFY(close(f.peakPflopsBf16, 32 * 989.4 / 1000));
        QVERIFY(
            close(f.peakPflopsFp8, 32 * GpuCatalog::builtin().find("H100-SXM-80GB")->peakFlops(Precision::Fp8) / 1e15));
        QVERIFY(close(f.hbmTotalTB, 32 * 80 / 1000.0));
    }

    /// The FP8 peak counts GPUs with FP8 tensor cores only: an A100 cluster has none, where the catalog's FP8 rate
    /// lookup would fall back to BF16 and show an FP8 capability the GPUs lack.
    void fp8PeakCountsOnlyFp8TensorCores()
    {
        auto spec = hgxH100(2, 1, true);
        spec.groups[0].gpuId = "A100-SXM-80GB";
        const auto f = clusterFigures(spec, GpuCatalog::builtin());
        QVERIFY(f.peakPflopsBf16 > 0);
        QCOMPARE(f.peakPflopsFp8, 0.0);
    }

    void unknownGpuIsNamed()
    {
        auto spec = hgxH100(2, 1, true);
        spec.groups[0].gpuId = "H900";
        const auto issues = clusterIssues(spec, GpuCatalog::builtin());
        QVERIFY(!issues.empty());
        QCOMPARE(issues[0].where, std::string("groups[0]"));
        QVERIFY(issues[0].reason.find("unknown GPU \"H900\"") != std::string::npos);
        QVERIFY(issues[0].reason.find("clusterplanner catalog lists the ids") != std::string::npos);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, clusterFigures(spec, GpuCatalog::builtin()));
        // An id written another way names the entries of that chip.
        spec.groups[0].gpuId = "h100_80gb";
        const std::string reason = clusterIssues(spec, GpuCatalog::builtin())[0].reason;
        QVERIFY2(reason.find("the catalog has H100-SXM-80GB, ") != std::string::npos
                && reason.find("H100-PCIe-80GB") != std::string::npos && reason.find("H800") == std::string::npos,
            reason.c_str());
    }

    /// The ids like a misspelt one: the entries whose id or name carries its chip word, whatever the case and
    /// separators; capacities and memory types do not count as chip words.
    void catalogNamesIdsLikeAnUnknownOne()
    {
        const GpuCatalog& catalog = GpuCatalog::builtin();
        QCOMPARE(catalog.idsLike("mi300x"), std::vector<std::string> {"MI300X"});
        QCOMPARE(catalog.idsLike("A100 40GB"), (std::vector<std::string> {"A100-SXM-40GB", "A100-SXM-80GB"}));
        QCOMPARE(catalog.idsLike("RTX 4090"), std::vector<std::string> {"RTX-4090"});
        QVERIFY(catalog.idsLike("80GB HBM3").empty());
        QVERIFY(catalog.idsLike("").empty());
        // A chip word finds the entries it starts (MI300X, L40S); separators may be left out; a form factor is no chip.
        QCOMPARE(catalog.idsLike("MI300"), std::vector<std::string> {"MI300X"});
        QCOMPARE(catalog.idsLike("RTX4090"), std::vector<std::string> {"RTX-4090"});
        const auto l40 = catalog.idsLike("l40");
        QVERIFY(!l40.empty() && l40[0].rfind("L40S", 0) == 0);
        const auto sxm5 = catalog.idsLike("h100-sxm5");
        QVERIFY(!sxm5.empty() && std::none_of(sxm5.begin(), sxm5.end(), [](const std::string& id) {
            return id.find("H800") != std::string::npos;
        }));
    }

    void heterogeneousClusterSumsItsGroups()
    {
        auto spec = hgxH100(8, 1, true);
        NodeGroup h200 = spec.groups[0];
        h200.name = "h200";
        h200.gpuId = "H200-SXM-141GB";
        h200.nodeCount = 4;
        spec.groups.push_back(h200);
        const auto f = clusterFigures(spec, GpuCatalog::builtin());
        QCOMPARE(f.gpus, 96LL);
        QVERIFY(close(f.hbmTotalTB, (64 * 80 + 32 * 141) / 1000.0));
        // Rails per group: 8 × ⌈8/32⌉ + 8 × ⌈4/32⌉ = 16 leaves.
        QCOMPARE(f.tiers[0].switches, 16LL);
    }
};

QTEST_GUILESS_MAIN(TestClusterFigures)
#include "tst_clusterfigures.moc"
