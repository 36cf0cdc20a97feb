// SPDX-License-Identifier: GPL-3.0-or-later
// Tests of the GPU probe (core/probe) against fake NVML / CUDA libraries: every machine of issue 18, and the
// H100 values of data/probe/query.csv.
#include "core/probe/gpuprobe.h"
#include "core/probe/nvmlapi.h"
#include "core/probe/nvmlreader.h"
#include "core/probe/probejson.h"
#include "tests/cli/clitesthelpers.h"
#include "tests/core/probetesthelpers.h"

#include <QTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>

using namespace clusterplanner::core::probe;
using probetest::fakeMachine;

namespace {

const Unavailable* reasonFor(const std::vector<Unavailable>& notes, const std::string& field)
{
    for (const auto& note : notes)
        if (note.field == field)
            return &note;
    return nullptr;
}

/// The second line of data/probe/query.csv split at commas, each value without its unit.
std::vector<std::string> queryCsvValues()
{
    std::ifstream in(CLUSTERPLANNER_DATA_DIR "/probe/query.csv");
    std::string header;
    std::string row;
    std::getline(in, header);
    std::getline(in, row);
    std::vector<std::string> values;
    std::istringstream fields(row);
    for (std::string field; std::getline(fields, field, ',');) {
        std::istringstream words(field);
        std::string first;
        words >> first;
        values.push_back(first);
    }
    return values;
}

} // namespace

class TestProbe : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void h100NodeMatchesTheRealGpu()
    {
        const auto result = probeMachine(fakeMachine("h100x8.json"));
        QVERIFY(result.available);
        QCOMPARE(result.gpus.size(), std::size_t(8));
        const auto csv = queryCsvValues(); // name, memory MiB, SM MHz, memory MHz, W, gen, width, cc
        QCOMPARE(csv.size(), std::size_t(8));
        const auto json = toJson(result);
        for (const auto& gpu : json.at("gpus")) {
            QCOMPARE(gpu["name"].get<std::string>(), std::string("NVIDIA H100 80GB HBM3"));
            QCOMPARE(gpu["memory_total_mib"].get<int>(), 81559);
            QCOMPARE(gpu["memory_total_mib"].get<int>(), std::stoi(csv[1]));
            QCOMPARE(gpu["sm_clock_max_mhz"].get<int>(), 1980);
            QCOMPARE(gpu["sm_clock_max_mhz"].get<int>(), std::stoi(csv[2]));
            QCOMPARE(gpu["memory_clock_max_mhz"].get<int>(), 2619);
            QCOMPARE(gpu["memory_clock_max_mhz"].get<int>(), std::stoi(csv[3]));
            QCOMPARE(gpu["power_limit_enforced_w"].get<double>(), 700.0);
            QCOMPARE(gpu["power_limit_enforced_w"].get<double>(), std::stod(csv[4]));
            QCOMPARE(gpu["pcie_generation_max"].get<int>(), 5);
            QCOMPARE(gpu["pcie_width_max"].get<int>(), 16);
            QCOMPARE(gpu["compute_capability"].get<std::string>(), std::string("9.0"));
            QCOMPARE(gpu["compute_capability"].get<std::string>(), csv[7]);
            QCOMPARE(gpu["sm_count"].get<int>(), 132);
            QCOMPARE(gpu["memory_reserved_mib"].get<int>(), 480); // nvidia_smi_q.txt "Reserved"
            QCOMPARE(gpu["cuda_total_memory_mib"].get<int>(), 81079); // microbench.json total_memory
            QCOMPARE(gpu["mig_enabled"].get<bool>(), false);
            QCOMPARE(gpu["ecc_enabled"].get<bool>(), true);
            QVERIFY(gpu["unavailable"].empty());
        }
        QCOMPARE(*result.driverVersion, std::string("580.159.04"));
        QCOMPARE(*result.cudaDriverVersion, 13000);
    }

    void h100NodeHasNvLink4ToEveryPeerThroughNvSwitch()
    {
        const auto result = probeMachine(fakeMachine("h100x8.json"));
        for (const auto& gpu : result.gpus) {
            QCOMPARE(gpu.nvlinkActiveLinks, 18);
            QCOMPARE(gpu.nvlinkSwitchLinks, 18);
            QCOMPARE(gpu.peers.size(), std::size_t(7));
            for (const auto& peer : gpu.peers) {
                QVERIFY(peer.viaNvSwitch);
                QCOMPARE(peer.nvlinkLinks, 0); // no direct GPU-to-GPU link on HGX
                QCOMPARE(peer.nvlinkVersion.value_or(0), 4);
                QCOMPARE(peer.p2pNvlink.value_or(false), true);
                const bool sameNode = (gpu.index < 4) == (peer.peerIndex < 4);
                QCOMPARE(peer.ancestor, sameNode ? CommonAncestor::Node : CommonAncestor::System);
            }
        }
        QCOMPARE(result.gpus[3].pciBusId, std::string("00000000:5D:00.0"));
    }

    void workstationHasPcieOnlyAndNoP2P()
    {
        const auto result = probeMachine(fakeMachine("workstation.json"));
        QCOMPARE(result.gpus.size(), std::size_t(2));
        QCOMPARE(result.gpus[0].name, std::string("NVIDIA GeForce RTX 4090"));
        QCOMPARE(result.gpus[1].smCount.value_or(0), 82); // CUDA matched by bus id, not by order alone
        for (const auto& gpu : result.gpus) {
            QCOMPARE(gpu.nvlinkActiveLinks, 0);
            QCOMPARE(gpu.peers.size(), std::size_t(1));
            QVERIFY(!gpu.peers[0].viaNvSwitch);
            QCOMPARE(gpu.peers[0].p2pRead.value_or(true), false);
            QCOMPARE(gpu.peers[0].ancestor, CommonAncestor::HostBridge);
            QVERIFY(!gpu.migEnabled);
            const auto* mig = reasonFor(gpu.unavailable, "mig_enabled");
            QVERIFY(mig && mig->reason.find("NOT_SUPPORTED (3)") != std::string::npos);
        }
    }

    void migEnabledA100()
    {
        const auto result = probeMachine(fakeMachine("a100mig.json"));
        QCOMPARE(result.gpus.size(), std::size_t(1));
        const auto& gpu = result.gpus[0];
        QCOMPARE(gpu.migEnabled.value_or(false), true);
        QCOMPARE(gpu.powerLimitDefaultW.value_or(0), 400.0);
        QCOMPARE(gpu.powerLimitEnforcedW.value_or(0), 350.0);
        QCOMPARE(gpu.smCount.value_or(0), 108);
        QVERIFY(gpu.peers.empty());
    }

    void olderDriverFallsBackToV1AndReportsMissingSymbols()
    {
        const auto result = probeMachine(fakeMachine("h100x8.json", FAKE_NVML_OLD_PATH, FAKE_CUDA_OLD_PATH));
        QVERIFY(result.available);
        const auto& gpu = result.gpus[0];
        QCOMPARE(gpu.memoryTotalMiB(), 81559.0); // nvmlDeviceGetMemoryInfo (v1) still gives the total
        QVERIFY(!gpu.memoryReservedBytes);
        QVERIFY(reasonFor(gpu.unavailable, "memory_reserved_bytes"));
        const auto* mig = reasonFor(gpu.unavailable, "mig_enabled");
        QVERIFY(mig && mig->reason.find("nvmlDeviceGetMigMode is not in") != std::string::npos);
        QCOMPARE(result.cudaDriverVersion.value_or(0), 13000); // nvmlSystemGetCudaDriverVersion, the v1 name
    }

    void stubLibcudaLeavesNvmlData()
    {
        const auto result = probeMachine(fakeMachine("cudastub.json"));
        QVERIFY(result.available);
        const auto& gpu = result.gpus[0];
        QCOMPARE(gpu.memoryTotalMiB(), 81559.0);
        QVERIFY(!gpu.smCount);
        const auto* sms = reasonFor(gpu.unavailable, "sm_count");
        QVERIFY(sms && sms->reason.find("STUB_LIBRARY (34)") != std::string::npos);
        QVERIFY(reasonFor(result.unavailable, "cuda"));
    }

    void nvmlWithoutCuda()
    {
        const auto result = probeMachine(fakeMachine("h100x8.json", FAKE_NVML_PATH, probetest::kMissingLibrary));
        QVERIFY(result.available);
        QCOMPARE(result.gpus.size(), std::size_t(8));
        QVERIFY(!result.gpus[0].smCount);
        const auto* cuda = reasonFor(result.unavailable, "cuda");
        QVERIFY(cuda && cuda->reason.find("libcuda not loaded") != std::string::npos);
        QVERIFY(result.cudaLibrary.empty());
    }

    void gpuLostMidQuery()
    {
        const auto result = probeMachine(fakeMachine("gpulost.json"));
        QVERIFY(result.available);
        QCOMPARE(result.gpus.size(), std::size_t(2));
        const auto& lost = result.gpus[1];
        QVERIFY(lost.lost);
        QCOMPARE(lost.name, std::string("NVIDIA H100 80GB HBM3")); // read before it fell off
        QVERIFY(!lost.memoryTotalBytes);
        const auto* memory = reasonFor(lost.unavailable, "memory_total_bytes");
        QVERIFY(memory && memory->reason.find("GPU_IS_LOST (15)") != std::string::npos);
        QVERIFY(!lost.smCount); // CUDA is not asked about a lost GPU
        const auto& healthy = result.gpus[0];
        QVERIFY(!healthy.lost);
        QCOMPARE(healthy.memoryTotalMiB(), 81559.0);
        QVERIFY(healthy.peers.empty()); // no topology towards a lost GPU
        QCOMPARE(toJson(result)["gpus"][1]["lost"].get<bool>(), true);
    }

    void noDriverIsUnavailableWithOneLine()
    {
        const auto result = probeMachine(probetest::noDriver());
        QVERIFY(!result.available);
        QVERIFY(result.reason.rfind("no NVIDIA driver", 0) == 0);
        QVERIFY(result.reason.find('\n') == std::string::npos);
        const auto json = toJson(result);
        QCOMPARE(json["available"].get<bool>(), false);
        QCOMPARE(json["reason"].get<std::string>(), result.reason);
        QCOMPARE(json.size(), std::size_t(2));
    }

    void probeCommandWithoutGpuExitsThreeWithOneLine()
    {
        probetest::noDriver();
        const auto text = clitest::run({"probe"});
        QCOMPARE(text.code, 3);
        QVERIFY(text.out.empty());
        QCOMPARE(std::count(text.err.begin(), text.err.end(), '\n'), 1L);
        QVERIFY(text.err.find("no NVIDIA driver") != std::string::npos);
        const auto json = clitest::run({"probe", "--json"});
        QCOMPARE(json.code, 3);
        const auto document = nlohmann::json::parse(json.out);
        QCOMPARE(document["available"].get<bool>(), false);
        QVERIFY(!document["reason"].get<std::string>().empty());
    }

    void probeCommandWithTheH100Fake()
    {
        fakeMachine("h100x8.json");
        const auto json = clitest::run({"probe", "--json", "--bench"});
        QCOMPARE(json.code, 0);
        const auto document = nlohmann::json::parse(json.out);
        QCOMPARE(document["gpus"].size(), std::size_t(8));
        QCOMPARE(document["benchmarks"].size(), std::size_t(6));
        QCOMPARE(document["benchmarks"][0]["name"].get<std::string>(), std::string("d2d_memcpy"));
        const auto text = clitest::run({"probe"});
        QCOMPARE(text.code, 0);
        QVERIFY(text.out.find("catalog: H100-SXM-80GB") != std::string::npos);
        QVERIFY(text.out.find("GPU 0 – GPU 7: NVLink 4 via NVSwitch") != std::string::npos);
        QCOMPARE(clitest::run({"probe", "--frobnicate"}).code, 2);
    }

    void busIdsCompareAcrossNvmlAndCudaSpelling()
    {
        QCOMPARE(normaliseBusId("00000000:5D:00.0"), normaliseBusId("0000:5d:00.0"));
        QCOMPARE(normaliseBusId("00000000:5D:00.0"), std::string("0:5d:00.0"));
        QVERIFY(normaliseBusId("00000001:5D:00.0") != normaliseBusId("0000:5d:00.0"));
    }

    void memoryV2StructMatchesNvml()
    {
        QCOMPARE(sizeof(nvml::MemoryV2), std::size_t(40));
        QCOMPARE(nvml::kMemoryV2Version, 0x02000028u);
        QCOMPARE(sizeof(nvml::PciInfo), std::size_t(68));
    }
};

QTEST_GUILESS_MAIN(TestProbe)
#include "tst_probe.moc"
