// SPDX-License-Identifier: GPL-3.0-or-later
// The library's key figures of a scenario: the facade's figures, reasons for a layout that cannot run, an error
// for a scenario that cannot be evaluated.
#include "core/evaluation/keyfigures.h"
#include "core/evaluation/scenarioevaluation.h"

#include <QTest>

using namespace clusterplanner::core;

class TestKeyFigures : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void validLayoutFigures()
    {
        const Scenario s;
        const auto result = keyFigures(s);
        QVERIFY(result.hasValue());
        const ScenarioEvaluation e = evaluateScenario(s, candidateOf(s));
        QCOMPARE(result->figures.gpuCount, 64);
        QCOMPARE(result->figures.tokensPerS, e.time.tokensPerSPerGpu * 64);
        QCOMPARE(result->figures.mfu, e.time.mfu);
        QCOMPARE(result->figures.stepTimeS, e.time.stepTimeS);
        const double costPerM = 1e6 / e.time.tokensPerSPerGpu / 3600.0 * s.economics.gpuHourUsd;
        QCOMPARE(result->detail["cost_per_m_tokens_usd"].get<double>(), costPerM);
        QCOMPARE(result->figures.costUsd, costPerM * s.economics.trainingTokens / 1e6);
        QCOMPARE(result->detail["energy_kwh"].get<double>(), e.time.energyKwh);
        QCOMPARE(result->detail["valid"].get<bool>(), true);
        QCOMPARE(result->detail["fits"].get<bool>(), e.memory.estimate.fits);
        QCOMPARE(result->detail["layout"]["tp"].get<int>(), 8);
    }

    void invalidLayoutHasReasons()
    {
        Scenario s;
        s.training.layout.tp = 3;
        const auto result = keyFigures(s);
        QVERIFY(result.hasValue());
        QCOMPARE(result->detail["valid"].get<bool>(), false);
        QCOMPARE(result->figures.tokensPerS, 0.0);
        QVERIFY(result->detail["capacity_gib"].get<double>() > 70);
        QVERIFY(!result->detail["reasons"].empty());
    }

    void unknownGpuIsAnError()
    {
        Scenario s;
        s.cluster.gpuId = "Z9";
        const auto result = keyFigures(s);
        QVERIFY(!result.hasValue());
        QCOMPARE(result.error().field, std::string("cluster.gpu"));
    }
};

QTEST_GUILESS_MAIN(TestKeyFigures)
#include "tst_keyfigures.moc"
