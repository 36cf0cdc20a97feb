// SPDX-License-Identifier: GPL-3.0-or-later
// The simulation facade of the GUI: same result as a direct Simulator run, cancellation, progress, CDFs, the
// node → job index, the capacity grid and its cost.
#include "core/model/scenario.h"
#include "core/sched/capacitysweep.h"
#include "core/sched/scenariocluster.h"
#include "core/sched/simulationrun.h"
#include "core/sched/workloadgenerator.h"
#include "tests/core/schedtesthelpers.h"

#include <QTest>

#include <stop_token>

using namespace clusterplanner::core;
using namespace clusterplanner::core::sched;

namespace {

Workload smallWorkload(int jobs = 400)
{
    SyntheticWorkloadSpec spec;
    spec.jobs = jobs;
    spec.arrivalsPerHour = 300;
    spec.seed = 5;
    return generateWorkload(spec);
}

} // namespace

class TestSimulationRun : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void matchesADirectSimulatorRun()
    {
        const auto cluster = schedtest::uniformCluster(4, 8);
        SimulationOptions options;
        options.policy = Policy::Tiresias;
        const Workload jobs = smallWorkload();
        const auto outcome = runSimulation(cluster, jobs, options);
        const auto direct = computeMetrics(schedtest::simulate(cluster, jobs, options));
        QCOMPARE(outcome.metrics.makespanS, direct.makespanS);
        QCOMPARE(outcome.metrics.jctS.mean, direct.jctS.mean);
        QCOMPARE(outcome.metrics.preemptions, direct.preemptions);
    }

    void progressRisesToOneAndStopCancels()
    {
        const auto cluster = schedtest::uniformCluster(4, 8);
        std::vector<double> seen;
        runSimulation(cluster, smallWorkload(), {}, {}, [&](double f) { seen.push_back(f); });
        QVERIFY(seen.size() > 10);
        QVERIFY(std::is_sorted(seen.begin(), seen.end()));
        QCOMPARE(seen.back(), 1.0);
        std::stop_source stop;
        int calls = 0;
        QVERIFY_THROWS_EXCEPTION(
            SimulationCancelled, runSimulation(cluster, smallWorkload(), {}, stop.get_token(), [&](double) {
                if (++calls == 3)
                    stop.request_stop();
            }));
        QCOMPARE(calls, 3); // nothing more after the stop
    }

    void cdfEndsAtOneAndIsMonotone()
    {
        const auto cdf = empiricalCdf({5, 1, 3, 2, 4}, 400);
        QCOMPARE(cdf.x, (std::vector<double> {1, 2, 3, 4, 5}));
        QCOMPARE(cdf.share, (std::vector<double> {0.2, 0.4, 0.6, 0.8, 1.0}));
        const auto outcome = runSimulation(schedtest::uniformCluster(2, 8), smallWorkload(), {});
        const auto jct = jctCdf(outcome.result, 50);
        QCOMPARE(int(jct.x.size()), 50);
        QVERIFY(std::is_sorted(jct.x.begin(), jct.x.end()));
        QCOMPARE(jct.share.back(), 1.0);
        QCOMPARE(jct.x.back(), outcome.metrics.jctS.max);
    }

    void nodeIndexFindsTheJobsOfASlot()
    {
        const auto outcome = runSimulation(schedtest::uniformCluster(3, 8), smallWorkload(200), {});
        const auto& r = outcome.result;
        const NodeRunIndex index(r);
        // Brute force over every segment gives the same jobs for a few windows and nodes.
        for (double from : {r.startS, 0.3 * r.endS, 0.7 * r.endS})
            for (int node = 0; node < 3; ++node) {
                const double to = from + 0.05 * (r.endS - r.startS);
                std::vector<int> expected;
                for (std::size_t j = 0; j < r.jobs.size(); ++j)
                    for (const auto& segment : r.jobs[j].segments)
                        for (const auto& slice : segment.slices)
                            if (slice.node == node && segment.startS < to && segment.endS > from
                                && (expected.empty() || expected.back() != int(j)))
                                expected.push_back(int(j));
                QCOMPARE(index.jobsOn(node, from, to), expected);
            }
        QCOMPARE(int(index.jobsIn(r.startS, r.endS + 1).size()), outcome.metrics.finished);
    }

    void capacityGridAndCost()
    {
        const auto grid = capacityGrid(64, 8, 8);
        QCOMPARE(grid.front(), 32);
        QCOMPARE(grid.back(), 128);
        for (int gpus : grid)
            QCOMPARE(gpus % 8, 0);
        QVERIFY(std::is_sorted(grid.begin(), grid.end()));
        const Scenario s = defaultScenario();
        const auto small = capacityCost(s, 64);
        const auto large = capacityCost(s, 128);
        QVERIFY(small.capexUsd > 0);
        QVERIFY(std::abs(large.capexUsd / small.capexUsd - 2) < 1e-9); // capex is linear in the GPUs (whole nodes)
        QVERIFY(large.usdPerYear > small.usdPerYear);
        QCOMPARE(simulationCluster(s, 64).gpuCount(), 64);
        QCOMPARE(simulationCluster(s).gpuCount(), s.cluster.gpuCount);
    }
};

QTEST_APPLESS_MAIN(TestSimulationRun)
#include "tst_simulationrun.moc"
