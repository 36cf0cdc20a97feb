// SPDX-License-Identifier: GPL-3.0-or-later
// The scheduling simulator against Erlang C: a Poisson workload of 1-GPU jobs on c single-GPU nodes under FIFO
// is an M/M/c queue, so the simulated mean wait and share of jobs that wait must match Wq and P(wait).
#include "core/model/gpucatalog.h"
#include "core/queue/erlang.h"
#include "core/sched/simulator.h"
#include "tests/core/schedtesthelpers.h"

#include <QTest>

#include <cmath>
#include <random>

using namespace clusterplanner::core;
using namespace clusterplanner::core::sched;

namespace {

constexpr double kServiceS = 3600; ///< mean job duration 1/μ
constexpr int kJobs = 600'000;
/// Jobs dropped from the start: the cluster starts empty, and M/M/c needs the stationary regime.
constexpr int kWarmUpJobs = 20'000;

/// Exponential inter-arrivals (rate λ) and exponential durations (mean 1/μ), every job 1 GPU, no host demands.
Workload poissonWorkload(double arrivalPerS, std::uint64_t seed)
{
    std::mt19937_64 random(seed);
    std::exponential_distribution<double> gap(arrivalPerS);
    std::exponential_distribution<double> duration(1.0 / kServiceS);
    Workload workload(kJobs);
    double clockS = 0;
    for (int i = 0; i < kJobs; ++i) {
        clockS += gap(random);
        workload[i].id = i;
        workload[i].submitS = clockS;
        workload[i].durationS = duration(random);
        workload[i].gpus = 1;
    }
    return workload;
}

struct Observed
{
    double meanWaitS = 0;
    double waitedShare = 0;
};

Observed observe(const SimulationResult& result)
{
    Observed o;
    int counted = 0;
    for (std::size_t i = kWarmUpJobs; i < result.jobs.size(); ++i) {
        const auto& job = result.jobs[i];
        const double waitS = job.startS - job.submitS;
        o.meanWaitS += waitS;
        o.waitedShare += waitS > 1e-9 ? 1 : 0;
        ++counted;
    }
    o.meanWaitS /= counted;
    o.waitedShare /= counted;
    return o;
}

} // namespace

class TestMmcAgreement : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void fifoOnSingleGpuNodesIsErlangC_data()
    {
        QTest::addColumn<int>("servers");
        QTest::addColumn<double>("rho");
        QTest::addColumn<quint64>("seed");
        QTest::addColumn<double>("waitTolerance");
        QTest::addColumn<double>("pWaitTolerance");
        // Tolerances come from sampling error, not model error (the simulator never lets a job wait while a GPU is
        // free, and runs every job for exactly its duration). Successive waits are strongly correlated, more so
        // near saturation, so 580,000 measured jobs are worth far fewer independent samples: over seeds 1–8, 11
        // and 12 the relative error of the mean wait reached 3.5 % (c = 8, ρ = 0.7) and 5.3 % (c = 32, ρ = 0.85),
        // the waited share 0.0025 and 0.0036 absolute. The tolerances leave a margin above those.
        QTest::newRow("c=8, rho=0.7") << 8 << 0.7 << quint64(11) << 0.06 << 0.005;
        QTest::newRow("c=32, rho=0.85") << 32 << 0.85 << quint64(12) << 0.10 << 0.01;
    }

    void fifoOnSingleGpuNodesIsErlangC()
    {
        QFETCH(int, servers);
        QFETCH(double, rho);
        QFETCH(quint64, seed);
        QFETCH(double, waitTolerance);
        QFETCH(double, pWaitTolerance);
        const Workload workload = poissonWorkload(rho * servers / kServiceS, seed);
        // Erlang C at the rates the sample actually has (λ̂ = jobs / span, μ̂ = jobs / Σ durations), so that only
        // the queue's own fluctuation remains, not that of the drawn inputs.
        double totalDurationS = 0;
        for (const Job& j : workload)
            totalDurationS += j.durationS;
        const auto theory = queue::solveMmc(kJobs / workload.back().submitS, kJobs / totalDurationS, servers);
        QVERIFY(std::abs(theory.utilization - rho) < 0.01);

        SimulationOptions options;
        options.policy = Policy::Fifo;
        options.recordTimeline = false;
        const SimulationResult result = schedtest::simulate(schedtest::uniformCluster(servers, 1), workload, options);
        QCOMPARE(result.jobs.size(), std::size_t(kJobs));
        const Observed sim = observe(result);

        const double waitError = std::abs(sim.meanWaitS - theory.wq) / theory.wq;
        const double shareError = std::abs(sim.waitedShare - theory.pWait);
        qInfo("c=%d rho=%.2f: Wq %.1f s simulated vs %.1f s Erlang C (%.2f %%); P(wait) %.4f vs %.4f", servers, rho,
            sim.meanWaitS, theory.wq, 100 * waitError, sim.waitedShare, theory.pWait);
        QVERIFY(waitError < waitTolerance);
        QVERIFY(shareError < pWaitTolerance);
    }
};

QTEST_GUILESS_MAIN(TestMmcAgreement)
#include "tst_mmcagreement.moc"
