// SPDX-License-Identifier: GPL-3.0-or-later
// The time-binned utilisation matrix: hand-checked bins of a known timeline, grouping, and agreement with the
// simulator's own time averages.
#include "core/sched/metrics.h"
#include "core/sched/simulationrun.h"
#include "core/sched/utilizationmatrix.h"
#include "core/sched/workloadgenerator.h"
#include "tests/core/schedtesthelpers.h"

#include <QTest>

#include <stdexcept>

using namespace clusterplanner::core::sched;

namespace {

/// Two nodes: node 0 half busy on [0, 10) then full on [10, 20); node 1 idle until 5, then a quarter busy.
SimulationResult handTimeline()
{
    SimulationResult r;
    r.nodes.resize(2);
    r.timeline.resize(2);
    r.timeline[0] = {{0, {0.5f, 0, 0, 0}}, {10, {1.0f, 0, 0.25f, 0}}};
    r.timeline[1] = {{5, {0.25f, 0, 0, 0}}};
    return r;
}

} // namespace

class TestUtilizationMatrix : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void binsAreTimeAveragesOfTheSteps()
    {
        const auto m = binUtilization(handTimeline(), UsageResource::Gpu, 4, 0, 20);
        QCOMPARE(m.rows, 2);
        QCOMPARE(m.bins, 4);
        QCOMPARE(m.binS, 5.0);
        QCOMPARE(m.at(0, 0), 0.5f);
        QCOMPARE(m.at(0, 1), 0.5f);
        QCOMPARE(m.at(0, 2), 1.0f);
        QCOMPARE(m.at(1, 0), 0.0f); // no sample yet: idle
        QCOMPARE(m.at(1, 3), 0.25f);
        // A bin straddling the step at 10: [7.5, 12.5) is half at 0.5 and half at 1.
        const auto shifted = binUtilization(handTimeline(), UsageResource::Gpu, 1, 7.5, 12.5);
        QCOMPARE(shifted.at(0, 0), 0.75f);
        const auto cpu = binUtilization(handTimeline(), UsageResource::Cpu, 2, 0, 20);
        QCOMPARE(cpu.at(0, 0), 0.0f);
        QCOMPARE(cpu.at(0, 1), 0.25f);
    }

    void groupingIsAWeightedMean()
    {
        const auto m = binUtilization(handTimeline(), UsageResource::Gpu, 4, 0, 20);
        const auto g = groupRows(m, {0, 0}, 1, {3, 1});
        QCOMPARE(g.rows, 1);
        QCOMPARE(g.at(0, 3), float((3 * 1.0 + 1 * 0.25) / 4));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, groupRows(m, {0, 2}, 2, {1, 1}));
    }

    void badInputIsRejected()
    {
        SimulationResult noTimeline;
        noTimeline.nodes.resize(3);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, binUtilization(noTimeline, UsageResource::Gpu, 10, 0, 1));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, binUtilization(handTimeline(), UsageResource::Gpu, 0, 0, 1));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, binUtilization(handTimeline(), UsageResource::Gpu, 4, 5, 5));
    }

    void oneBinMatchesTheSimulatorsAverage()
    {
        // Over the whole run, one bin per node is the time average the simulator reports as U.
        SyntheticWorkloadSpec spec;
        spec.jobs = 300;
        spec.arrivalsPerHour = 400;
        const auto outcome = runSimulation(schedtest::uniformCluster(4, 8), generateWorkload(spec), {});
        const auto& r = outcome.result;
        const auto m = binUtilization(r, UsageResource::Gpu, 1, r.startS, r.endS);
        for (int node = 0; node < m.rows; ++node)
            QVERIFY(std::abs(m.at(node, 0) - r.utilization[static_cast<std::size_t>(node)][0]) < 1e-4);
        // Finer bins average back to the same figure.
        const auto fine = binUtilization(r, UsageResource::Gpu, 50, r.startS, r.endS);
        double sum = 0;
        for (int b = 0; b < fine.bins; ++b)
            sum += fine.at(0, b);
        QVERIFY(std::abs(sum / fine.bins - m.at(0, 0)) < 1e-4);
    }
};

QTEST_APPLESS_MAIN(TestUtilizationMatrix)
#include "tst_utilizationmatrix.moc"
