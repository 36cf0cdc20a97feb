// SPDX-License-Identifier: GPL-3.0-or-later
// Tests of the micro-benchmarks (core/probe/microbench) through the fake libcuda: its cuEventElapsedTime answers
// the time configured for the operation, so these check bytes and FLOPs counted, the rate arithmetic and every
// path where a benchmark cannot run.
#include "core/model/gpucatalog.h"
#include "core/probe/benchcalibration.h"
#include "core/probe/microbench.h"
#include "tests/core/probetesthelpers.h"

#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>

using namespace clusterplanner::core::probe;
using probetest::fakeMachine;

namespace {

const BenchResult* find(const std::vector<BenchResult>& results, const std::string& name)
{
    for (const auto& r : results)
        if (r.name == name)
            return &r;
    return nullptr;
}

BenchResult named(const char* name, const char* unit)
{
    BenchResult result;
    result.name = name;
    result.unit = unit;
    return result;
}

bool close(double actual, double expected, double relative = 1e-6)
{
    return std::abs(actual - expected) <= relative * std::abs(expected);
}

std::vector<BenchResult> benchOn(const ProbeOptions& options)
{
    return runBenchmarks(options, probeMachine(options), BenchOptions {});
}

} // namespace

class TestProbeBench : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void h100CopyBandwidthFromBytesAndTime()
    {
        const auto results = benchOn(fakeMachine("h100x8.json"));
        const auto* d2d = find(results, "d2d_memcpy");
        QVERIFY(d2d && d2d->ok);
        // 256 MiB read and written 10 times in the 1.7767 ms the fake's timer answers.
        QCOMPARE(d2d->work, 5368709120.0);
        QVERIFY(close(d2d->seconds, 1.7767e-3));
        QVERIFY(close(d2d->rate, 5368709120.0 / 1.7767e-3 / 1e9));
        std::ifstream in(CLUSTERPLANNER_DATA_DIR "/probe/microbench.json");
        const auto measured = nlohmann::json::parse(in);
        QVERIFY(close(d2d->rate, measured["d2d_copy_GBps_read_plus_write"].get<double>(), 1e-3));
        const auto* kernel = find(results, "copy_kernel");
        QVERIFY(kernel && kernel->ok);
        QCOMPARE(kernel->work, 5368709120.0);
        QVERIFY(close(kernel->rate, 5368709120.0 / 1.8513e-3 / 1e9));
    }

    void h100HostAndPeerBandwidth()
    {
        const auto results = benchOn(fakeMachine("h100x8.json"));
        const auto* h2d = find(results, "h2d_memcpy");
        QVERIFY(h2d && h2d->ok);
        QCOMPARE(h2d->work, 2684354560.0); // written once: 256 MiB × 10
        QVERIFY(close(h2d->rate, 2684354560.0 / 49.83e-3 / 1e9));
        const auto* p2p = find(results, "p2p_memcpy");
        QVERIFY(p2p && p2p->ok);
        QCOMPARE(p2p->peerIndex, 1);
        QVERIFY(close(p2p->rate, 2684354560.0 / 7.457e-3 / 1e9));
    }

    void h100ComputeThroughputFromFlopsAndTime()
    {
        const auto results = benchOn(fakeMachine("h100x8.json"));
        const auto* fma = find(results, "fma_fp32");
        QVERIFY(fma && fma->ok);
        // 132 SMs × 4 blocks × 256 threads = 135,168 threads, 8 FMA chains × 65,536 trips × 2 FLOP, 10 launches.
        QCOMPARE(fma->work, 1417339207680.0);
        QVERIFY(close(fma->rate, 1417339207680.0 / 23.622e-3 / 1e12));
        const auto* mma = find(results, "mma_fp16");
        QVERIFY(mma && mma->ok);
        // 4,224 warps × 4 mma × 16,384 trips × 4,096 FLOP (m16n8k16), 10 launches.
        QCOMPARE(mma->work, 11338713661440.0);
        QVERIFY(close(mma->rate, 11338713661440.0 / 18.898e-3 / 1e12));
        QCOMPARE(mma->unit, std::string("TFLOP/s"));
    }

    void olderDriverTimesWithTheV1Event()
    {
        const auto results = benchOn(fakeMachine("h100x8.json", FAKE_NVML_OLD_PATH, FAKE_CUDA_OLD_PATH));
        const auto* d2d = find(results, "d2d_memcpy");
        QVERIFY(d2d && d2d->ok); // cuEventElapsedTime_v2 missing: cuEventElapsedTime answers
        QVERIFY(close(d2d->seconds, 1.7767e-3));
    }

    void refusedPtxAndSingleGpuAreReasons()
    {
        const auto results = benchOn(fakeMachine("a100mig.json"));
        QVERIFY(find(results, "d2d_memcpy")->ok);
        const auto* kernel = find(results, "copy_kernel");
        QVERIFY(!kernel->ok);
        QVERIFY(kernel->reason.find("UNSUPPORTED_PTX_VERSION (222)") != std::string::npos);
        const auto* p2p = find(results, "p2p_memcpy");
        QVERIFY(!p2p->ok);
        QVERIFY(p2p->reason.find("one GPU") != std::string::npos);
        const auto* h2d = find(results, "h2d_memcpy");
        QVERIFY(!h2d->ok); // no time configured for it: a zero timer is refused, not divided by
        QVERIFY(h2d->reason.find("no time") != std::string::npos);
    }

    void stubLibraryRunsNothing()
    {
        const auto results = benchOn(fakeMachine("cudastub.json"));
        QCOMPARE(results.size(), std::size_t(1));
        QVERIFY(!results[0].ok);
        QVERIFY(!results[0].reason.empty());
    }

    void stopAndProgress()
    {
        const auto options = fakeMachine("workstation.json");
        const auto probed = probeMachine(options);
        std::stop_source stop;
        std::vector<std::string> seen;
        const auto results = runBenchmarks(options, probed, {}, stop.get_token(), [&](int done, int, const auto& next) {
            seen.push_back(next);
            if (done == 1)
                stop.request_stop();
        });
        QCOMPARE(results.size(), std::size_t(2)); // the running benchmark finishes, the next does not start
        QCOMPARE(seen.front(), std::string("d2d_memcpy"));
        QCOMPARE(seen.back(), std::string(""));
    }

    void measuredRatesBecomeEfficiencyOverrides()
    {
        const auto results = benchOn(fakeMachine("h100x8.json"));
        const auto& spec = *clusterplanner::core::GpuCatalog::builtin().find("H100-SXM-80GB");
        const auto overrides = efficiencyOverrides(results, spec);
        // The faster copy (cuMemcpy, 3,022 GB/s) against the datasheet's 3.35 TB/s.
        QVERIFY(close(overrides["hbm_fraction"].get<double>(), find(results, "d2d_memcpy")->rate / 3350.0));
        QVERIFY(close(overrides["gemm_peak_fraction"].get<double>(), find(results, "mma_fp16")->rate / 989.4));
        // A rate measured on the GPU itself is not scaled again by the published matmul shares (methods-time §4.31).
        QCOMPARE(overrides["matmul_reference_fraction"].get<double>(), 0.0);
        QCOMPARE(overrides.size(), std::size_t(3));
        QVERIFY(efficiencyOverrides({}, spec).empty()); // nothing measured, nothing overridden
    }

    void rateArithmetic()
    {
        const auto gbs = finish(named("x", "GB/s"), 2e9, 1000.0);
        QVERIFY(gbs.ok);
        QCOMPARE(gbs.rate, 2.0);
        const auto tflops = finish(named("y", "TFLOP/s"), 3e12, 500.0);
        QCOMPARE(tflops.rate, 6.0);
        QVERIFY(!finish(named("z", "GB/s"), 1e9, 0.0).ok);
    }
};

QTEST_GUILESS_MAIN(TestProbeBench)
#include "tst_probebench.moc"
