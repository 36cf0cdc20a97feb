// SPDX-License-Identifier: GPL-3.0-or-later
// Tests of matching probed GPUs to the catalog (core/probe/catalogmatch) and of the user's local catalog
// (core/probe/localcatalog): the fakes' GPUs, form factor told apart by SM count, unknown GPUs added as "local".
#include "core/probe/catalogmatch.h"
#include "core/probe/localcatalog.h"
#include "tests/core/probetesthelpers.h"

#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>

using namespace clusterplanner::core;
using namespace clusterplanner::core::probe;
using probetest::fakeMachine;

namespace {

const CatalogDifference* difference(const CatalogMatch& match, const std::string& what)
{
    for (const auto& d : match.differences)
        if (d.what == what)
            return &d;
    return nullptr;
}

GpuProbe syntheticGpu(const std::string& name, int sms, double memoryMiB)
{
    GpuProbe gpu;
    gpu.name = name;
    gpu.smCount = sms;
    gpu.memoryTotalBytes = std::uint64_t(memoryMiB * 1024 * 1024);
    return gpu;
}

} // namespace

class TestProbeCatalog : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void h100MatchesSxmWithTheDriverReserve()
    {
        const auto result = probeMachine(fakeMachine("h100x8.json"));
        const auto match = matchCatalog(result.gpus[0], ProbeCatalog {});
        QCOMPARE(match.catalogId, std::string("H100-SXM-80GB"));
        QVERIFY(!match.local);
        const auto* memory = difference(match, "memory");
        QVERIFY(memory);
        QCOMPARE(memory->probed, std::string("81559 MiB"));
        QVERIFY(memory->note.find("reserves 480 MiB") != std::string::npos);
        QVERIFY(memory->note.find("CUDA sees 81079 MiB") != std::string::npos);
        QVERIFY(!difference(match, "power limit")); // 700 W = TDP
    }

    void a100PowerLimitBelowTdpAndMig()
    {
        const auto result = probeMachine(fakeMachine("a100mig.json"));
        const auto match = matchCatalog(result.gpus[0], ProbeCatalog {});
        QCOMPARE(match.catalogId, std::string("A100-SXM-80GB")); // not the 40 GB entry: memory decides
        const auto* power = difference(match, "power limit");
        QVERIFY(power);
        QCOMPARE(power->catalog, std::string("400 W"));
        QCOMPARE(power->probed, std::string("350 W"));
        QVERIFY(difference(match, "MIG"));
    }

    void workstationKnownAndUnknown()
    {
        const auto result = probeMachine(fakeMachine("workstation.json"));
        QCOMPARE(matchCatalog(result.gpus[0], ProbeCatalog {}).catalogId, std::string("RTX-4090"));
        const auto unknown = matchCatalog(result.gpus[1], ProbeCatalog {});
        QVERIFY(!unknown.matched());
        QVERIFY(!unknown.reason.empty());
    }

    void smCountTellsSxmFromPcie()
    {
        const ProbeCatalog catalog;
        QCOMPARE(matchCatalog(syntheticGpu("NVIDIA H100 PCIe", 114, 81559), catalog).catalogId,
            std::string("H100-PCIe-80GB"));
        QCOMPARE(matchCatalog(syntheticGpu("NVIDIA H100 80GB HBM3", 114, 81559), catalog).catalogId,
            std::string("H100-PCIe-80GB"));
        QCOMPARE(matchCatalog(syntheticGpu("NVIDIA H100 80GB HBM3", 132, 81559), catalog).catalogId,
            std::string("H100-SXM-80GB"));
        QVERIFY(!matchCatalog(syntheticGpu("NVIDIA H100 80GB HBM3", 100, 81559), catalog).matched());
        QVERIFY(!matchCatalog(syntheticGpu("NVIDIA H100 80GB HBM3", 132, 40000), catalog).matched());
    }

    void memoryClocksTellTheGrandTetonPartFromHbm3()
    {
        // Both 96 GB H100 entries fit name, SMs and memory; the bandwidth the memory clock and the 5,120-bit bus
        // imply decides: 2 × 1,875 MHz × 640 B = 2.4 TB/s (Meta's HBM2e part), 2 × 2,619 MHz × 640 B = 3.35 TB/s.
        const ProbeCatalog catalog;
        GpuProbe gpu = syntheticGpu("NVIDIA H100", 132, 97871);
        gpu.memoryBusWidthBits = 5120;
        gpu.memoryClockMaxMHz = 1875;
        QCOMPARE(matchCatalog(gpu, catalog).catalogId, std::string("H100-SXM-96GB"));
        gpu.memoryClockMaxMHz = 2619;
        QCOMPARE(matchCatalog(gpu, catalog).catalogId, std::string("H100-SXM-96GB-HBM3"));
    }

    void unknownGpuBecomesALocalEntry()
    {
        const auto result = probeMachine(fakeMachine("workstation.json"));
        const auto entry = localEntryFor(result.gpus[1]);
        QCOMPARE(entry["id"].get<std::string>(), std::string("local-nvidia-geforce-rtx-3090"));
        QCOMPARE(entry["memory_total_mib"].get<double>(), 24576.0);
        QCOMPARE(entry["tdp_w"].get<double>(), 350.0);
        QCOMPARE(entry["sm_count"].get<int>(), 82);
        // 2 × 9,751 MHz × 384 bit / 8 = 936 GB/s; 82 SMs × 128 lanes × 2 × 2.1 GHz = 44.1 TFLOP/s.
        QVERIFY(std::abs(entry["hbm_tb_s"].get<double>() - 0.936096) < 1e-6);
        QVERIFY(std::abs(entry["fp32_tflops"].get<double>() - 44.0832) < 1e-4);
        QVERIFY(entry["bf16_tflops"].is_null());

        const auto local = addLocalEntry(addLocalEntry("", entry), entry);
        QCOMPARE(nlohmann::json::parse(local)["gpus"].size(), std::size_t(1)); // same id replaces
        const auto merged = mergedCatalog(local);
        QCOMPARE(merged.gpus.gpus().size(), GpuCatalog::builtin().gpus().size() + 1);
        const auto* spec = merged.gpus.find("local-nvidia-geforce-rtx-3090");
        QVERIFY(spec && merged.isLocal(spec->id));
        QCOMPARE(knownSmCount(*spec, merged).value_or(0), 82);
        const auto match = matchCatalog(result.gpus[1], merged);
        QCOMPARE(match.catalogId, std::string("local-nvidia-geforce-rtx-3090"));
        QVERIFY(match.local);
    }

    void localEntryReplacesAShippedOne()
    {
        auto entry = nlohmann::json::parse(R"({"id": "RTX-4090", "name": "NVIDIA GeForce RTX 4090", "memory_gb": 24,
            "hbm_tb_s": 1.0, "tdp_w": 400, "scaleup_gb_s_bidir": 0, "scaleup_domain_gpus": 1})");
        const auto merged = mergedCatalog(addLocalEntry("", entry));
        QCOMPARE(merged.gpus.gpus().size(), GpuCatalog::builtin().gpus().size());
        QCOMPARE(merged.gpus.find("RTX-4090")->tdpW, 400.0);
        QVERIFY(merged.isLocal("RTX-4090"));
        QVERIFY(!merged.isLocal("H100-SXM-80GB"));
    }

    void brokenLocalCatalogThrows()
    {
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, mergedCatalog("[1, 2]"));
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, mergedCatalog("{not json"));
        QCOMPARE(mergedCatalog("  ").gpus.gpus().size(), GpuCatalog::builtin().gpus().size());
    }
};

QTEST_GUILESS_MAIN(TestProbeCatalog)
#include "tst_probecatalog.moc"
