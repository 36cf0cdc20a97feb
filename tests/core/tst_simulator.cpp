// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/gpucatalog.h"
#include "core/queue/fragmentation.h"
#include "core/sched/metrics.h"
#include "core/sched/simulator.h"
#include "core/sched/traces.h"
#include "core/sched/workloadgenerator.h"
#include "tests/core/schedtesthelpers.h"

#include <QTest>

#include <cmath>
#include <numeric>

using namespace clusterplanner::core;
using namespace clusterplanner::core::sched;
using schedtest::nodeType;
using schedtest::simulate;
using schedtest::uniformCluster;

Q_DECLARE_METATYPE(Policy)
Q_DECLARE_METATYPE(PlacementStrategy)

namespace {

Job job(int id, int gpus, double submitS, double durationS)
{
    Job j;
    j.id = id;
    j.gpus = gpus;
    j.submitS = submitS;
    j.durationS = durationS;
    return j;
}

SimulationOptions withPolicy(Policy policy, PlacementStrategy placement = PlacementStrategy::Pack)
{
    SimulationOptions options;
    options.policy = policy;
    options.placement = placement;
    return options;
}

/// A mixed workload: whole jobs of 1..16 GPUs, typed jobs, fractional jobs, host demands, priorities, estimates.
Workload mixedWorkload(int jobs, std::uint64_t seed)
{
    SyntheticWorkloadSpec spec;
    spec.jobs = jobs;
    spec.seed = seed;
    spec.arrivalsPerHour = 400;
    spec.users = 5;
    spec.maxDurationS = 20000;
    spec.gpuMix = {{1, 0.6}, {2, 0.1}, {4, 0.12}, {8, 0.15}, {16, 0.03}};
    Workload workload = generateWorkload(spec);
    for (Job& j : workload) {
        if (j.id % 7 == 3) {
            j.gpus = 0;
            j.gpuMilli = 250 + 100 * (j.id % 5);
        }
        if (j.id % 5 == 1)
            j.gpuType = "A100-SXM-80GB";
        j.cpuCores = 4.0 * std::max(1, j.gpus);
        j.memoryGiB = 32.0 * std::max(1, j.gpus);
        j.gpuMemoryMiB = j.id % 3 == 0 ? 20000 : 0;
        j.priority = j.id % 4;
    }
    return workload;
}

ClusterModel mixedCluster()
{
    ClusterModel model;
    NodeType h100 = nodeType("h100", "H100-SXM-80GB", 8);
    h100.nvlinkDomains = {{0, 1, 2, 3}, {4, 5, 6, 7}};
    model.nodeTypes = {h100, nodeType("a100", "A100-SXM-80GB", 4)};
    model.groups = {{"h100", 4}, {"a100", 4}};
    return model;
}

/// The simulator's I_frag numerator comes from free-GPU histograms; it must equal queue::gpuFragmentationIndex
/// (docs/methods-scheduling.md §7) on the per-node free counts for every smallest pending request.
template <typename Violation>
void checkStrandedMatchesQueueDefinition(const ClusterState& state, Violation& violation)
{
    std::vector<long long> freePerNode;
    for (const NodeInfo& node : state.nodes())
        freePerNode.push_back(state.freeGpusOn(node.id));
    const int free = state.freeGpus();
    if (free == 0)
        return;
    for (int minRequest : {1, 2, 4, 8}) {
        const double fromHistogram = double(state.strandedFreeGpus(minRequest)) / free;
        if (std::abs(fromHistogram - queue::gpuFragmentationIndex(freePerNode, {minRequest})) > 1e-12)
            violation(
                QString("I_frag for requests of %1 GPUs disagrees with queue::gpuFragmentationIndex").arg(minRequest));
    }
}

} // namespace

class TestSimulator : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void toySchedulesMatchHandComputation_data()
    {
        QTest::addColumn<Policy>("policy");
        QTest::addColumn<QList<double>>("starts");
        // Four nodes with one GPU each. Jobs (GPUs, submit, duration): J0 (2, 0, 10), J1 (4, 1, 5), J2 (1, 2, 3),
        // J3 (2, 3, 4), J4 (1, 4, 5); estimates = durations.
        // FIFO: J0 at 0; J1 needs all 4 GPUs and blocks the line until J0 ends at 10; J1 runs 10-15; then J2, J3,
        //   J4 all start at 15.
        // SJF (strict, by duration): J2 (3 s) jumps ahead at 2 and ends at 5; J3 (4 s) then heads the queue,
        //   starts at 5 (2 GPUs free) and ends at 9; J1 (5 s, submitted before J4) starts at 10 when J0 ends;
        //   J4 at 15.
        // EASY: J1 reserves t = 10 (J0's estimated end). J2 ends at 5 ≤ 10: backfilled at 2. J4 ends at 9 ≤ 10:
        //   backfilled at 4. J3 (2 GPUs) never has 2 free GPUs before 10 (at 9 it would end at 13 > 10, no extra
        //   GPUs), so it starts after J1, at 15.
        QTest::newRow("fifo") << Policy::Fifo << QList<double> {0, 10, 15, 15, 15};
        QTest::newRow("sjf") << Policy::Sjf << QList<double> {0, 10, 2, 5, 15};
        QTest::newRow("backfill") << Policy::Backfill << QList<double> {0, 10, 2, 15, 4};
    }

    void toySchedulesMatchHandComputation()
    {
        QFETCH(Policy, policy);
        QFETCH(QList<double>, starts);
        const Workload workload {job(0, 2, 0, 10), job(1, 4, 1, 5), job(2, 1, 2, 3), job(3, 2, 3, 4), job(4, 1, 4, 5)};
        const auto result = simulate(uniformCluster(4, 1), workload, withPolicy(policy));
        for (int i = 0; i < 5; ++i) {
            QCOMPARE(result.jobs[std::size_t(i)].startS, starts[i]);
            QCOMPARE(result.jobs[std::size_t(i)].endS, starts[i] + workload[std::size_t(i)].durationS);
        }
    }

    void invariantsHoldOnEveryEvent_data()
    {
        QTest::addColumn<Policy>("policy");
        QTest::addColumn<PlacementStrategy>("placement");
        for (Policy p : {Policy::Fifo, Policy::Sjf, Policy::SjfEstimate, Policy::FairShare, Policy::Backfill,
                 Policy::Tiresias, Policy::Gandiva, Policy::Priority})
            for (PlacementStrategy s :
                {PlacementStrategy::Pack, PlacementStrategy::Spread, PlacementStrategy::Balanced})
                QTest::newRow((std::string(toString(p)) + "/" + std::string(toString(s))).c_str()) << p << s;
    }

    void invariantsHoldOnEveryEvent()
    {
        QFETCH(Policy, policy);
        QFETCH(PlacementStrategy, placement);
        const Workload workload = mixedWorkload(300, 11);
        SimulationOptions options = withPolicy(policy, placement);
        Simulator simulator(mixedCluster(), GpuCatalog::builtin(), options);
        int violations = 0, events = 0;
        QString firstViolation;
        auto violation = [&](const QString& what) {
            if (violations++ == 0)
                firstViolation = what;
        };
        simulator.setObserver([&](const SimEvent& event, const ClusterState& state) {
            ++events;
            const Job& j = workload[std::size_t(event.jobIndex)];
            if (event.kind == EventKind::Start && event.timeS < j.submitS)
                violation(
                    QString("job %1 started at %2 before submission %3").arg(j.id).arg(event.timeS).arg(j.submitS));
            for (const NodeInfo& node : state.nodes()) {
                const NodeUse& use = state.use(node.id);
                int busy = 0;
                for (int g = 0; g < node.gpus; ++g) {
                    const GpuUse& gpu = state.gpu(node.id, g);
                    busy += gpu.isFree() ? 0 : 1;
                    const int maxResidents = policy == Policy::Gandiva ? options.timeSliceMaxJobs : 1;
                    if (gpu.milli > 1000 || gpu.residents > maxResidents || gpu.memoryMiB > node.gpuMemoryMiB + 1e-6)
                        violation(QString("node %1 GPU %2 over capacity").arg(node.id).arg(g));
                }
                if (busy != use.busyGpus || use.cpuCores > node.cpuCores + 1e-6 || use.memoryGiB > node.memoryGiB + 1e-6
                    || use.bandwidthGbps > node.bandwidthGbps + 1e-6)
                    violation(QString("node %1 over capacity or miscounted at t=%2").arg(node.id).arg(event.timeS));
            }
            checkStrandedMatchesQueueDefinition(state, violation);
        });
        const SimulationResult result = simulator.run(workload);
        QVERIFY2(violations == 0, qPrintable(firstViolation));
        QVERIFY(events >= 2 * int(workload.size()));
        double allocated = 0;
        for (std::size_t i = 0; i < workload.size(); ++i) {
            const JobRecord& r = result.jobs[i];
            QVERIFY(r.unfinished || r.endS >= r.startS);
            QVERIFY2(!r.unfinished, qPrintable(QString("job %1 unfinished: %2").arg(r.jobId).arg(r.note.c_str())));
            QVERIFY(r.startS >= r.submitS);
            // Work is conserved: every finished job received exactly its duration of dedicated-GPU service.
            QVERIFY(std::abs(r.serviceS - r.durationS) < 1e-6 * std::max(1.0, r.durationS));
            for (const Segment& s : r.segments)
                QVERIFY(s.endS >= s.startS && s.startS >= r.submitS);
            allocated += r.allocatedGpuS;
        }
        // GPU-seconds held by jobs equal GPU-seconds the cluster saw busy (time slicing shares GPUs, so ≥ there).
        double busy = 0;
        for (std::size_t n = 0; n < result.nodes.size(); ++n)
            busy += result.utilization[n][0] * result.nodes[n].gpus * (result.endS - result.startS);
        if (policy == Policy::Gandiva)
            QVERIFY(allocated >= busy * (1 - 1e-9));
        else
            QVERIFY2(
                std::abs(allocated - busy) <= 1e-6 * busy, qPrintable(QString("%1 vs %2").arg(allocated).arg(busy)));
    }

    void tiresiasDemotesAndPreemptsLongJob()
    {
        // One GPU. J0 (10,000 s) reaches 3,600 GPU-s at t = 3,600 and drops to queue 1; J1 (100 s) arrives at
        // 4,000 in queue 0 and preempts it, runs 4,000-4,100; J0 resumes with 6,000 s left + 30 s restart → 10,130.
        const Workload workload {job(0, 1, 0, 10000), job(1, 1, 4000, 100)};
        const auto result = simulate(uniformCluster(1, 1), workload, withPolicy(Policy::Tiresias));
        QCOMPARE(result.jobs[1].startS, 4000.0);
        QCOMPARE(result.jobs[1].endS, 4100.0);
        QCOMPARE(result.jobs[0].preemptions, 1);
        QCOMPARE(result.jobs[0].segments.size(), std::size_t(2));
        QCOMPARE(result.jobs[0].endS, 10130.0);
    }

    void priorityPreemptsLowerPriority()
    {
        Workload workload {job(0, 1, 0, 100), job(1, 1, 20, 10)};
        workload[1].priority = 5;
        const auto result = simulate(uniformCluster(1, 1), workload, withPolicy(Policy::Priority));
        QCOMPARE(result.jobs[1].startS, 20.0);
        QCOMPARE(result.jobs[0].endS, 30.0 + 80.0 + 30.0); // resumes at 30 with 80 s left + 30 s restart
    }

    void gandivaTimeSlicesAtReducedRate()
    {
        // J0 runs alone 0-50 (50 s of work), then shares with J1 at (1 - 0.05)/2 = 0.475: its last 50 s take
        // 105.263 s → ends 155.263; J1 has done 50 s by then and finishes alone at 205.263.
        Workload workload {job(0, 1, 0, 100), job(1, 1, 50, 100)};
        const auto result = simulate(uniformCluster(1, 1), workload, withPolicy(Policy::Gandiva));
        QCOMPARE(result.jobs[1].startS, 50.0);
        QVERIFY(std::abs(result.jobs[0].endS - (50 + 50 / 0.475)) < 1e-9);
        QVERIFY(std::abs(result.jobs[1].endS - (50 + 50 / 0.475 + 50)) < 1e-9);
    }

    void fairShareServesTheLightUser()
    {
        // One GPU; user 0 queues three 10 s jobs at 0, user 1 one at 1. At 10 user 0 has used 10 GPU-s, user 1
        // none: user 1 goes next.
        Workload workload {job(0, 1, 0, 10), job(1, 1, 0, 10), job(2, 1, 0, 10), job(3, 1, 1, 10)};
        workload[3].user = 1;
        const auto result = simulate(uniformCluster(1, 1), workload, withPolicy(Policy::FairShare));
        QCOMPARE(result.jobs[3].startS, 10.0);
        QCOMPARE(result.jobs[1].startS, 20.0);
    }

    void packAndSpreadChooseDifferentNodes()
    {
        const Workload workload {job(0, 1, 0, 100), job(1, 1, 0, 100)};
        const auto packed = simulate(uniformCluster(2, 4), workload, withPolicy(Policy::Fifo));
        QCOMPARE(packed.jobs[1].segments[0].slices[0].node, 0);
        const auto spread
            = simulate(uniformCluster(2, 4), workload, withPolicy(Policy::Fifo, PlacementStrategy::Spread));
        QCOMPARE(spread.jobs[0].segments[0].slices[0].node, 0);
        QCOMPARE(spread.jobs[1].segments[0].slices[0].node, 1);
        const auto balanced
            = simulate(uniformCluster(2, 4), workload, withPolicy(Policy::Fifo, PlacementStrategy::Balanced));
        QCOMPARE(balanced.jobs[1].segments[0].slices[0].node, 1);
    }

    void jobsStayInsideOneNvlinkDomain()
    {
        ClusterModel model = uniformCluster(1, 4);
        model.nodeTypes[0].nvlinkDomains = {{0, 1}, {2, 3}};
        const Workload workload {job(0, 1, 0, 100), job(1, 2, 0, 100)};
        const auto result = simulate(model, workload, withPolicy(Policy::Fifo));
        QCOMPARE(result.jobs[0].segments[0].slices[0].gpus, std::vector<int>({0}));
        QCOMPARE(result.jobs[1].segments[0].slices[0].gpus, std::vector<int>({2, 3}));
    }

    void topologyLimitRejectsJobsThatCannotFit()
    {
        SimulationOptions options = withPolicy(Policy::Fifo);
        options.maxNodesPerJob = 1;
        const Workload workload {job(0, 2, 0, 10), job(1, 1, 0, 10)};
        const auto result = simulate(uniformCluster(4, 1), workload, options);
        QVERIFY(result.jobs[0].unfinished);
        QVERIFY(result.jobs[0].note.find("2 GPUs") != std::string::npos);
        QCOMPARE(result.jobs[1].endS, 10.0); // the rejected job does not block the line
    }

    void fractionalJobsShareOneGpu()
    {
        Workload workload {job(0, 0, 0, 10), job(1, 0, 0, 10), job(2, 0, 0, 10)};
        for (int i = 0; i < 3; ++i)
            workload[std::size_t(i)].gpuMilli = std::array {300, 500, 400}[std::size_t(i)];
        // 0.3 + 0.5 + 0.4 = 1.2 → two GPUs (docs/methods-scheduling.md §7); best fit puts 0.3 and 0.5 on GPU 0, 0.4 on
        // GPU 1.
        const auto result = simulate(uniformCluster(1, 2), workload, withPolicy(Policy::Fifo));
        QCOMPARE(result.jobs[0].segments[0].slices[0].gpus, std::vector<int>({0}));
        QCOMPARE(result.jobs[1].segments[0].slices[0].gpus, std::vector<int>({0}));
        QCOMPARE(result.jobs[2].segments[0].slices[0].gpus, std::vector<int>({1}));
        QCOMPARE(result.jobs[2].startS, 0.0);
    }

    void tiresiasTraceReplaysUnderEveryPolicy_data()
    {
        QTest::addColumn<Policy>("policy");
        for (Policy p : {Policy::Fifo, Policy::Sjf, Policy::SjfEstimate, Policy::FairShare, Policy::Backfill,
                 Policy::Tiresias, Policy::Gandiva, Policy::Priority})
            QTest::newRow(std::string(toString(p)).c_str()) << p;
    }

    void tiresiasTraceReplaysUnderEveryPolicy()
    {
        QFETCH(Policy, policy);
        const Workload workload
            = readTraceFile(CLUSTERPLANNER_DATA_DIR "/traces/tiresias_60_job.csv", TraceFormat::Tiresias, 32);
        QCOMPARE(workload.size(), std::size_t(60));
        const auto result = simulate(uniformCluster(4, 8), workload, withPolicy(policy));
        const auto metrics = computeMetrics(result);
        QCOMPARE(metrics.finished, 60);
        double work = 0;
        for (const auto& r : result.jobs)
            work += r.serviceS;
        QVERIFY(std::abs(work - 10705.0) < 1e-6);
        QVERIFY(metrics.makespanS > 0 && metrics.jctS.mean >= 10705.0 / 60);
    }

    void sjfCutsMeanJctWhenArrivalsDominate()
    {
        // docs/methods-test-values.md §11 item 29: SJF must cut mean JCT and keep the makespan when the queue is long.
        SyntheticWorkloadSpec spec;
        spec.jobs = 400;
        spec.seed = 3;
        spec.arrivalsPerHour = 60;
        spec.gpuMix = {{1, 1.0}};
        spec.maxDurationS = 20000;
        const Workload workload = generateWorkload(spec);
        const auto fifo = computeMetrics(simulate(uniformCluster(2, 4), workload, withPolicy(Policy::Fifo)));
        const auto sjf = computeMetrics(simulate(uniformCluster(2, 4), workload, withPolicy(Policy::Sjf)));
        QVERIFY2(sjf.jctS.mean < 0.8 * fifo.jctS.mean,
            qPrintable(QString("%1 vs %2").arg(sjf.jctS.mean).arg(fifo.jctS.mean)));
        QVERIFY(sjf.waitS.mean < fifo.waitS.mean);
        QVERIFY(std::abs(sjf.makespanS - fifo.makespanS) < 0.05 * fifo.makespanS);
    }

    void sameInputsGiveSameSchedule()
    {
        const Workload workload = mixedWorkload(200, 5);
        const auto a = simulate(mixedCluster(), workload, withPolicy(Policy::Backfill));
        const auto b = simulate(mixedCluster(), workload, withPolicy(Policy::Backfill));
        for (std::size_t i = 0; i < workload.size(); ++i) {
            QCOMPARE(a.jobs[i].startS, b.jobs[i].startS);
            QVERIFY(!a.jobs[i].segments.empty());
            QCOMPARE(a.jobs[i].segments.front().slices.front().node, b.jobs[i].segments.front().slices.front().node);
        }
    }

    void timeFragmentationOfOneGpuMatchesHandValue()
    {
        // One GPU busy [0, 10], [12, 20], [25, 30]: gaps 2 + 5 = 7 over 30 s.
        const Workload workload {job(0, 1, 0, 10), job(1, 1, 12, 8), job(2, 1, 25, 5)};
        const auto metrics = computeMetrics(simulate(uniformCluster(1, 1), workload, withPolicy(Policy::Fifo)));
        QVERIFY(std::abs(metrics.timeFragmentation - 7.0 / 30) < 1e-12);
        QVERIFY(std::abs(metrics.gpuUtilization - 23.0 / 30) < 1e-12);
        // Energy: 23 s at 700 W + 7 s at 10 % of 700 W.
        QVERIFY(std::abs(metrics.energyKwh - (23 * 700 + 7 * 70) / 3.6e6) < 1e-12);
    }
};

QTEST_GUILESS_MAIN(TestSimulator)
#include "tst_simulator.moc"
