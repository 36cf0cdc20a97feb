// SPDX-License-Identifier: GPL-3.0-or-later
// Strong scaling: DP doubles with the global batch fixed; efficiencies and Amdahl's fit from the step times.
#include "core/evaluation/scenarioevaluation.h"
#include "core/evaluation/strongscaling.h"

#include <QTest>

#include <cmath>

using namespace clusterplanner::core;

class TestStrongScaling : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void doublesDataParallelism()
    {
        const Scenario s; // TP 8, global batch 512: DP 1 .. 512 divide it
        const StrongScaling scaling = strongScaling(s);
        QCOMPARE(scaling.points.size(), std::size_t(10));
        for (std::size_t i = 0; i < scaling.points.size(); ++i)
            QCOMPARE(scaling.points[i].gpus, 8 << i);
        QCOMPARE(scaling.points.front().efficiency, 1.0);
        for (std::size_t i = 1; i < scaling.points.size(); ++i) {
            const ScalingPoint& p = scaling.points[i];
            QVERIFY(p.tokensPerS > scaling.points[i - 1].tokensPerS); // more GPUs, more throughput here
            QVERIFY(p.efficiency > 0 && p.efficiency <= 1.0 + 1e-12);
            const double expected = scaling.points.front().stepTimeS / ((p.gpus / 8.0) * p.stepTimeS);
            QCOMPARE(p.efficiency, expected);
        }
        QVERIFY(scaling.amdahlParallelFraction > 0.9 && scaling.amdahlParallelFraction <= 1.0);
    }

    void pointsAreTheFacadesFigures()
    {
        Scenario s;
        const StrongScaling scaling = strongScaling(s);
        s.training.layout.dp = 4;
        s.cluster.gpuCount = 32;
        const ScenarioEvaluation e = evaluateScenario(s);
        QCOMPARE(scaling.points[2].gpus, 32);
        QCOMPARE(scaling.points[2].stepTimeS, e.time.stepTimeS);
        QCOMPARE(scaling.points[2].tokensPerS, e.time.tokensPerS);
    }

    void batchThatDividesOnceGivesNoFit()
    {
        Scenario s;
        s.training.globalBatch = 1;
        const StrongScaling scaling = strongScaling(s);
        QCOMPARE(scaling.points.size(), std::size_t(1));
        QCOMPARE(scaling.amdahlParallelFraction, 0.0);
    }

    void badScenarioGivesNoPoints()
    {
        Scenario s;
        s.cluster.gpuId = "no such GPU";
        QVERIFY(strongScaling(s).points.empty());
        s = Scenario {};
        s.training.globalBatch = 100'000'000; // = 2^8 · 390625: DP 1 .. 256 divide it, the rest are skipped
        QCOMPARE(strongScaling(s).points.size(), std::size_t(9));
        s.training.globalBatch = 1 << 26; // every DP up to 2^26 divides, but 32,768 GPUs per replica stop at 10^7
        s.training.layout.cp = 4096;
        s.cluster.gpuCount = 8 * 8 * 4096;
        const StrongScaling bounded = strongScaling(s);
        QVERIFY(bounded.points.size() <= 9);
        for (const ScalingPoint& p : bounded.points)
            QVERIFY(p.gpus <= 10'000'000);
    }
};

QTEST_GUILESS_MAIN(TestStrongScaling)
#include "tst_strongscaling.moc"
