// SPDX-License-Identifier: GPL-3.0-or-later
// Tests of the cost and energy model (docs/methods-cost.md §8, §11 items 30 and 31) against hand computations.
#include "core/cost/costmodel.h"
#include "core/model/gpucatalog.h"

#include <QTest>

#include <cmath>
#include <stdexcept>

using namespace clusterplanner::core;
using namespace clusterplanner::core::cost;

namespace {

bool close(double actual, double expected, double tolerance)
{
    return std::abs(actual - expected) <= tolerance;
}

/// The seed GPT-3 case (docs/methods-cost.md §8): 1,024 A100 at $1/GPU-h and 0.4 kW GPU-only power.
CostAssumptions seedGpt3(double pue)
{
    CostAssumptions a;
    a.gpuCount = 1024;
    a.gpuTdpW = 400;
    a.gpuIdleW = 0;
    a.gpuUtilization = 1;
    a.nodeOverheadW = 0; // the seed counts GPU power only
    a.pue = pue;
    a.cloudUsdPerGpuHour = 1;
    return a;
}

/// 16 H100 at the catalog mid price, half load, 70 W idle, defaults otherwise.
CostAssumptions sixteenH100()
{
    CostAssumptions a;
    a.gpuCount = 16;
    a.gpuPriceUsd = 27'500;
    a.gpuTdpW = 700;
    a.gpuIdleW = 70;
    a.gpuUtilization = 0.5;
    a.cloudUsdPerGpuHour = 2.5;
    return a;
}

} // namespace

class TestCostModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void seedGpt3CloudCostAndEnergy()
    {
        // docs/methods-test-values.md §11 item 30.
        const CostModel gpuOnly(seedGpt3(1.0));
        QCOMPARE(gpuOnly.cloudCostUsd(240), 245'760.0);
        QVERIFY(close(gpuOnly.energyKwh(240), 98'304, 1e-6));
        const CostModel facility(seedGpt3(1.58));
        QVERIFY(close(facility.energyKwh(240), 155'320.32, 1e-6));
        QVERIFY(close(facility.energyCostUsd(240), 12'518.8, 0.05)); // ≈ $12,519 at 8.06 ¢/kWh
    }

    void seedGpt3TrainingTime()
    {
        // docs/methods-test-values.md §11 item 31: 6·174.6e9·300e9 FLOPs on 1,024 × 312 TF at MFU 0.5.
        const double hours = trainingTimeS(6 * 174.6e9 * 300e9, 1024, 312e12, 0.5) / 3600;
        QVERIFY2(close(hours, 546.5, 0.05), qPrintable(QString::number(hours)));
        QVERIFY(close(hours / 24, 22.8, 0.05));
        QVERIFY(close(hours * 1024, 559'615, 1));
        // At $1/GPU-h via the run cost, with tokens/s chosen to give the same time.
        const CostModel model(seedGpt3(1.0));
        const RunCost run = model.trainingRun(300e9, 300e9 / (hours * 3600));
        QVERIFY(close(run.cloudCostUsd, 559'615, 1));
        QVERIFY(close(run.energyKwh, 223'846, 1)); // GPU-only, as in docs/methods-cost.md §8
    }

    void capexAndPower()
    {
        const CostModel m(sixteenH100());
        QCOMPARE(m.nodeCount(), 2);
        // 16 × (27,500 + 4,250) + 2 × 90,000.
        QCOMPARE(m.capexUsd(), 688'000.0);
        QCOMPARE(m.gpuPowerW(), 385.0); // 70 + 0.5 × 630
        QVERIFY(close(m.itPowerKw(), 15.36, 1e-12)); // 16 × 0.385 + 2 × 4.6
        QVERIFY(close(m.facilityPowerKw(), 19.968, 1e-12)); // × PUE 1.3
        QVERIFY(close(m.opexPerHourUsd(), 19.968 * 0.0806, 1e-12));
    }

    void tcoEffectiveRateAndBreakEven()
    {
        const CostModel m(sixteenH100());
        const double opexYear = 19.968 * 0.0806 * 8760;
        QVERIFY(close(m.opexPerYearUsd(), opexYear, 1e-9));
        QVERIFY(close(m.tcoUsd(), 688'000 + 4 * opexYear, 1e-6));
        QVERIFY(close(m.effectiveUsdPerGpuHour(), (688'000 / 35'040.0 + 19.968 * 0.0806) / 16, 1e-12));
        QVERIFY(close(m.breakEvenHours(), (688'000 + 4 * opexYear) / 40, 1e-9)); // 16 GPUs × $2.5
        QVERIFY(close(m.breakEvenHours(), 18'609.85, 0.01));
        CostAssumptions half = sixteenH100();
        half.billableUtilization = 0.5;
        QVERIFY(close(CostModel(half).effectiveUsdPerGpuHour(), 2 * m.effectiveUsdPerGpuHour(), 1e-12));
        CostAssumptions noCloud = sixteenH100();
        noCloud.cloudUsdPerGpuHour = 0;
        QVERIFY(std::isinf(CostModel(noCloud).breakEvenHours()));
    }

    void hostingAddsToOpex()
    {
        CostAssumptions a = sixteenH100();
        a.hostingUsdPerGpuYear = 876;
        QVERIFY(close(CostModel(a).opexPerHourUsd() - CostModel(sixteenH100()).opexPerHourUsd(), 1.6, 1e-12));
    }

    void runCostPerMillionTokens()
    {
        const CostModel m(sixteenH100());
        const RunCost run = m.trainingRun(1e12, 1e6); // 1e6 s
        QVERIFY(close(run.hours, 1e6 / 3600, 1e-9));
        QVERIFY(close(run.gpuHours, 16e6 / 3600, 1e-6));
        QVERIFY(close(run.cloudCostUsd, 16 * 2.5 * 1e6 / 3600, 1e-6)); // $11,111.11
        QVERIFY(close(run.cloudUsdPerMillionTokens, 11'111.111 / 1e6, 1e-6));
        QVERIFY(close(run.ownedCostUsd, run.hours * (688'000 / 35'040.0 + m.opexPerHourUsd()), 1e-6));
        QVERIFY(close(run.energyKwh, 19.968 * 1e6 / 3600, 1e-6));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, m.trainingRun(1e12, 0));
    }

    void catalogDefaults()
    {
        const GpuSpec* h100 = GpuCatalog::builtin().find("H100-SXM-80GB");
        QVERIFY(h100);
        const CostAssumptions low = costAssumptionsFor(*h100, 8, PriceLevel::Low);
        const CostAssumptions mid = costAssumptionsFor(*h100, 8, PriceLevel::Mid);
        const CostAssumptions high = costAssumptionsFor(*h100, 8, PriceLevel::High);
        QCOMPARE(low.gpuPriceUsd, 25'000.0); // docs/methods-catalog.md §9: 25k–30k, cloud 1.99–5.00
        QCOMPARE(mid.gpuPriceUsd, 27'500.0);
        QCOMPARE(high.gpuPriceUsd, 30'000.0);
        QCOMPARE(low.cloudUsdPerGpuHour, 1.99);
        QCOMPARE(high.cloudUsdPerGpuHour, 5.0);
        QCOMPARE(mid.gpuTdpW, 700.0);
        QCOMPARE(mid.gpuIdleW, 70.0);
        const GpuSpec* v100 = GpuCatalog::builtin().find("V100-SXM-32GB");
        QVERIFY(v100);
        QCOMPARE(costAssumptionsFor(*v100, 8, PriceLevel::Mid).gpuPriceUsd, 0.0); // unknown in the catalog
    }

    void badAssumptionsAreNamed()
    {
        CostAssumptions a = sixteenH100();
        a.pue = 0.9;
        try {
            CostModel {a};
            QFAIL("accepted PUE below 1");
        } catch (const std::invalid_argument& error) {
            QCOMPARE(QString::fromUtf8(error.what()), QStringLiteral("cost model: pue must be ≥ 1 (got 0.9)"));
        }
        a = sixteenH100();
        a.gpuCount = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, CostModel {a});
        a = sixteenH100();
        a.gpuIdleW = 800;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, CostModel {a});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, trainingTimeS(1e20, 8, 1e15, 1.5));
    }
};

QTEST_GUILESS_MAIN(TestCostModel)
#include "tst_costmodel.moc"
