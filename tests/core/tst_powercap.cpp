// SPDX-License-Identifier: GPL-3.0-or-later
// GPU power limits: the documented curve, its anchor, and what the engine does with it (docs/methods-cluster.md §5).
#include "core/evaluation/purchasefigures.h"
#include "core/model/gpucatalog.h"
#include "core/perf/computetime.h"
#include "core/perf/efficiencyparams.h"
#include "core/perf/powercap.h"
#include "core/perf/steptime.h"

#include <QTest>

#include <cmath>

using namespace clusterplanner::core;
using namespace clusterplanner::core::perf;

namespace {

StepTimeResult stepTime(const Scenario& s)
{
    const GpuSpec& gpu = *GpuCatalog::builtin().find(s.cluster.gpuId);
    return estimateStepTime(s, gpu, EfficiencyTable::builtin().forGpu(gpu.id));
}

} // namespace

class TestPowerCap : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void noLimitOrLimitAtTdpChangesNothing()
    {
        QCOMPARE(powerCapThroughputFactor(std::nullopt, 700), 1.0);
        QCOMPARE(powerCapThroughputFactor(700.0, 700), 1.0);
        QCOMPARE(powerCapThroughputFactor(800.0, 700), 1.0);
        QCOMPARE(cappedBoardPowerW(800.0, 700), 700.0);
        QCOMPARE(cappedBoardPowerW(std::nullopt, 700), 700.0);
    }

    void anchorPoint()
    {
        // The documented anchor: an H100 SXM capped at 600 W of its 700 W takes about 12 % longer per training step
        // when compute-bound, i.e. keeps 1/1.12 of its throughput.
        QVERIFY(std::abs(powerCapThroughputFactor(600.0, 700) - 1 / 1.12) < 1e-3);
        // Meta's 500 W H100s: (500/700)^0.735 ≈ 0.781.
        QVERIFY(std::abs(powerCapThroughputFactor(500.0, 700) - std::pow(500.0 / 700, kPowerCapExponent)) < 1e-12);
        QVERIFY(std::abs(powerCapThroughputFactor(500.0, 700) - 0.781) < 2e-3);
    }

    void lowerLimitIsNeverFaster()
    {
        double previous = 1.0;
        for (double limit = 700; limit >= 100; limit -= 50) {
            const double factor = powerCapThroughputFactor(limit, 700);
            QVERIFY(factor <= previous && factor > 0);
            previous = factor;
        }
        // Below a quarter of TDP the limit is clamped (drivers refuse such caps).
        QCOMPARE(powerCapThroughputFactor(50.0, 700), powerCapThroughputFactor(175.0, 700));
    }

    void peaksFollowTheClockButNotMemory()
    {
        const GpuSpec& h100 = *GpuCatalog::builtin().find("H100-SXM-80GB");
        const auto params = EfficiencyTable::builtin().forGpu(h100.id);
        const ComputePeaks peaks = computePeaks(h100, Precision::AmpBf16, params);
        const ComputePeaks capped = withPowerCap(peaks, 500.0, h100.tdpW);
        const double factor = powerCapThroughputFactor(500.0, h100.tdpW);
        QCOMPARE(capped.tensorFlops, peaks.tensorFlops * factor);
        QCOMPARE(capped.attentionFlops, peaks.attentionFlops * factor);
        QCOMPARE(capped.hbmBytesPerS, peaks.hbmBytesPerS);
    }

    void engineSlowsDownAndDrawsLess()
    {
        Scenario s = defaultScenario(); // Llama 3 70B on 256 H100
        const StepTimeResult free = stepTime(s);
        s.cluster.gpuPowerLimitW = 500;
        const StepTimeResult capped = stepTime(s);
        QVERIFY(free.valid && capped.valid);
        const double factor = powerCapThroughputFactor(500.0, 700);
        // Compute slows by at most 1/factor (memory-bound kernels do not slow); communication does not slow.
        QVERIFY(capped.computeForwardS > free.computeForwardS);
        QVERIFY(capped.computeForwardS <= free.computeForwardS / factor * (1 + 1e-9));
        QVERIFY(capped.stepTimeS > free.stepTimeS);
        QVERIFY(capped.tokensPerS < free.tokensPerS);
        QVERIFY(capped.mfu < free.mfu); // MFU stays relative to the datasheet peak
        // Energy: the GPU draws min(0.9 × 700, 500) = 500 W instead of 630 W; the node's other parts (0.8 × TDP per
        // GPU, data/efficiency.json) draw as before. Energy per hour falls by (500 + 560)/(630 + 560).
        const double freeKwhPerHour = free.energyKwh / (free.trainingTimeS / 3600);
        const double cappedKwhPerHour = capped.energyKwh / (capped.trainingTimeS / 3600);
        QVERIFY(std::abs(cappedKwhPerHour / freeKwhPerHour - 1060.0 / 1190.0) < 1e-9);
    }

    void purchaseFiguresCarryTheLimit()
    {
        Scenario s = defaultScenario();
        const auto free = evaluation::purchaseFigures(s);
        s.topology.groups[0].gpuPowerLimitW = 500;
        const auto capped = evaluation::purchaseFigures(s); // the topology's limit reaches the engine
        QVERIFY(free && capped);
        QVERIFY(capped->cluster.itPowerKw < free->cluster.itPowerKw);
        QVERIFY(capped->run.tokensPerS < free->run.tokensPerS);
        QVERIFY(capped->run.timeToTrainDays > free->run.timeToTrainDays);
    }
};

QTEST_GUILESS_MAIN(TestPowerCap)
#include "tst_powercap.moc"
