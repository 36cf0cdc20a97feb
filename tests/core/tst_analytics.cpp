// SPDX-License-Identifier: GPL-3.0-or-later
// Scaling efficiency, Amdahl's law and fit, α–β curves (docs/methods-time.md §4.5, §11 item 18).
#include "core/perf/analytics.h"

#include <QTest>

#include <cmath>

using namespace clusterplanner::core::perf;

class TestAnalytics : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void amdahlReferenceValue()
    {
        // §11 item 18: p 0.95, n 64 → 1/(0.05 + 0.95/64) = 15.42, E = 24.1 %.
        QVERIFY(std::abs(amdahlSpeedup(0.95, 64) - 15.4217) < 1e-4);
        QVERIFY(std::abs(amdahlSpeedup(0.95, 64) / 64 - 0.241) < 5e-4);
        QCOMPARE(amdahlSpeedup(1.0, 8), 8.0);
        QCOMPARE(amdahlSpeedup(0.0, 8), 1.0);
    }

    void fitRecoversParallelFraction()
    {
        const std::vector<int> counts {1, 2, 4, 8, 16, 64};
        std::vector<double> speedups;
        for (int n : counts)
            speedups.push_back(amdahlSpeedup(0.9, n));
        QVERIFY(std::abs(fitAmdahlParallelFraction(counts, speedups) - 0.9) < 1e-12);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fitAmdahlParallelFraction({1}, {1.0}));
    }

    void scalingEfficiencyOfMeasuredTimes()
    {
        // T1 = 100 s; 4 GPUs 30 s → 100/120; 8 GPUs 20 s → 100/160.
        const auto e = scalingEfficiency({1, 4, 8}, {100, 30, 20});
        QCOMPARE(e, (std::vector<double> {1.0, 100.0 / 120, 100.0 / 160}));
        // Starting at 8 GPUs: T₁ taken as 8·T₈.
        const auto e8 = scalingEfficiency({8, 16}, {10, 6});
        QCOMPARE(e8[1], 80.0 / 96);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, scalingEfficiency({1, 2}, {1.0}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, scalingEfficiency({1, 2}, {1.0, 0.0}));
    }

    void alphaBetaCurveIsLogSpaced()
    {
        const auto curve = alphaBetaCurve(Collective::AllReduce, 8, 450, 1e-6, 1e3, 1e9, 7);
        QCOMPARE(int(curve.size()), 7);
        QVERIFY(std::abs(curve[3].bytes - 1e6) < 1e-3);
        QCOMPARE(curve.back().seconds, ringAllReduceS(1e9, 8, 450, 1e-6));
        // Bus bandwidth approaches the link bandwidth for large messages and collapses for small ones.
        QVERIFY(curve.back().busBandwidthGBs > 440 && curve.back().busBandwidthGBs < 450);
        QVERIFY(curve.front().busBandwidthGBs < 1);
        QCOMPARE(alphaBetaTimeS(Collective::SendRecv, 1e9, 2, 50, 2e-6), 2e-6 + 0.02);
    }
};

QTEST_GUILESS_MAIN(TestAnalytics)
#include "tst_analytics.moc"
