// SPDX-License-Identifier: GPL-3.0-or-later
// Invariants of every policy on 256 GPUs × 5,000 jobs (issue 14 acceptance), and `simulate --json` on the 60-job
// Tiresias trace: makespan_s is the latest end_s minus the earliest submit_s under every policy.
#include "core/sched/metrics.h"
#include "core/sched/simulator.h"
#include "core/sched/workloadgenerator.h"
#include "tests/cli/clitesthelpers.h"
#include "tests/core/schedtesthelpers.h"

#include <QTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

using namespace clusterplanner::core;
using namespace clusterplanner::core::sched;

Q_DECLARE_METATYPE(Policy)

namespace {

constexpr Policy kPolicies[] = {Policy::Fifo, Policy::Sjf, Policy::SjfEstimate, Policy::FairShare, Policy::Backfill,
    Policy::Tiresias, Policy::Gandiva, Policy::Priority, Policy::Gavel};

/// 5,000 jobs of 1..32 GPUs (some fractional, with priorities and estimates) at a rate that builds queues on
/// 256 GPUs.
Workload loadedWorkload()
{
    SyntheticWorkloadSpec spec;
    spec.jobs = 5000;
    spec.seed = 21;
    spec.arrivalsPerHour = 600;
    spec.users = 8;
    spec.maxDurationS = 30000;
    spec.gpuMix = {{1, 0.5}, {2, 0.1}, {4, 0.15}, {8, 0.2}, {16, 0.04}, {32, 0.01}};
    Workload workload = generateWorkload(spec);
    for (Job& j : workload) {
        if (j.id % 9 == 4) {
            j.gpus = 0;
            j.gpuMilli = 200 + 100 * (j.id % 6);
        }
        j.priority = j.id % 3;
        j.estimateS = j.durationS * (1.0 + 0.5 * (j.id % 4));
    }
    return workload;
}

ClusterModel cluster256()
{
    ClusterModel model;
    model.nodeTypes
        = {schedtest::nodeType("h100", "H100-SXM-80GB", 8), schedtest::nodeType("a100", "A100-SXM-80GB", 8)};
    model.groups = {{"h100", 24}, {"a100", 8}};
    return model;
}

/// Checks every GPU of every node: shares (fractional milli and time-sliced residents) and memory within capacity.
QString overAllocation(const ClusterState& state, int maxResidents)
{
    for (const NodeInfo& node : state.nodes())
        for (int g = 0; g < node.gpus; ++g) {
            const GpuUse& gpu = state.gpu(node.id, g);
            if (gpu.milli > 1000 || gpu.residents > maxResidents || gpu.memoryMiB > node.gpuMemoryMiB + 1e-6
                || (gpu.residents > 0 && gpu.milli != 1000))
                return QString("node %1 GPU %2 over capacity").arg(node.id).arg(g);
        }
    return {};
}

/// Busy GPU-seconds from the job segments: fractional jobs count share × time; whole-GPU jobs the union of busy
/// intervals per GPU (time-sliced jobs share a GPU, which is busy once).
double busyGpuSeconds(const SimulationResult& result)
{
    std::map<std::pair<int, int>, std::vector<std::pair<double, double>>> perGpu;
    double busy = 0;
    for (const auto& job : result.jobs)
        for (const auto& segment : job.segments)
            for (const auto& slice : segment.slices)
                for (int g : slice.gpus) {
                    if (job.gpus == 0)
                        busy += job.gpuMilli / 1000.0 * (segment.endS - segment.startS);
                    else
                        perGpu[{slice.node, g}].emplace_back(segment.startS, segment.endS);
                }
    for (auto& [gpu, runs] : perGpu) {
        std::sort(runs.begin(), runs.end());
        double coveredTo = -std::numeric_limits<double>::infinity();
        for (const auto& [startS, endS] : runs) {
            busy += std::max(0.0, endS - std::max(startS, coveredTo));
            coveredTo = std::max(coveredTo, endS);
        }
    }
    return busy;
}

} // namespace

class TestSchedulingInvariants : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void invariantsOn256GpusAnd5000Jobs_data()
    {
        QTest::addColumn<Policy>("policy");
        for (Policy p : kPolicies)
            QTest::newRow(std::string(toString(p)).c_str()) << p;
    }

    void invariantsOn256GpusAnd5000Jobs()
    {
        QFETCH(Policy, policy);
        const Workload workload = loadedWorkload();
        SimulationOptions options;
        options.policy = policy;
        options.recordTimeline = false;
        Simulator simulator(cluster256(), GpuCatalog::builtin(), options);
        QString violation;
        long long events = 0;
        const int maxResidents = policy == Policy::Gandiva ? options.timeSliceMaxJobs : 1;
        simulator.setObserver([&](const SimEvent& event, const ClusterState& state) {
            // The full scan every 7th event keeps the test fast; starts are all checked.
            const Job& j = workload[std::size_t(event.jobIndex)];
            if (event.kind == EventKind::Start && event.timeS < j.submitS && violation.isEmpty())
                violation = QString("job %1 started before its submission").arg(j.id);
            if (++events % 7 == 0 && violation.isEmpty())
                violation = overAllocation(state, maxResidents);
        });
        const SimulationResult result = simulator.run(workload);
        QVERIFY2(violation.isEmpty(), qPrintable(violation));
        const SimulationMetrics metrics = computeMetrics(result);
        QCOMPARE(metrics.finished, int(workload.size()));
        double firstSubmitS = std::numeric_limits<double>::infinity(), lastEndS = 0;
        for (std::size_t i = 0; i < workload.size(); ++i) {
            const JobRecord& r = result.jobs[i];
            QVERIFY(r.startS >= r.submitS);
            // Work conserved: every job received exactly its duration of dedicated-GPU service.
            QVERIFY2(std::abs(r.serviceS - r.durationS) < 1e-6 * std::max(1.0, r.durationS),
                qPrintable(QString("job %1: %2 of %3 s").arg(r.jobId).arg(r.serviceS).arg(r.durationS)));
            firstSubmitS = std::min(firstSubmitS, r.submitS);
            lastEndS = std::max(lastEndS, r.endS);
        }
        QCOMPARE(metrics.makespanS, lastEndS - firstSubmitS);
        const double gpus = 256;
        const double expected = busyGpuSeconds(result) / (gpus * metrics.makespanS);
        QVERIFY2(std::abs(metrics.gpuUtilization - expected) < 1e-9,
            qPrintable(QString("%1 vs %2").arg(metrics.gpuUtilization).arg(expected)));
        QVERIFY(metrics.fragmentationIndex >= 0 && metrics.fragmentationIndex < 1);
    }

    void traceMakespanIsLastEndMinusFirstSubmit_data()
    {
        QTest::addColumn<Policy>("policy");
        for (Policy p : kPolicies)
            QTest::newRow(std::string(toString(p)).c_str()) << p;
    }

    void traceMakespanIsLastEndMinusFirstSubmit()
    {
        QFETCH(Policy, policy);
        const auto run = clitest::run({"simulate", "--trace", CLUSTERPLANNER_DATA_DIR "/traces/tiresias_60_job.csv",
            "--trace-format", "tiresias", "--gpus", "16", "--policy", std::string(toString(policy)), "--json"});
        QCOMPARE(run.code, 0);
        const auto document = nlohmann::json::parse(run.out);
        double firstSubmitS = std::numeric_limits<double>::infinity(), lastEndS = 0;
        for (const auto& job : document["jobs"]) {
            firstSubmitS = std::min(firstSubmitS, job["submit_s"].get<double>());
            lastEndS = std::max(lastEndS, job["end_s"].get<double>());
        }
        QCOMPARE(document["jobs"].size(), std::size_t(60));
        const double makespanS = document["metrics"]["makespan_s"].get<double>();
        QVERIFY2(std::abs(makespanS - (lastEndS - firstSubmitS)) < 1e-6,
            qPrintable(QString("%1 vs %2").arg(makespanS).arg(lastEndS - firstSubmitS)));
    }
};

QTEST_GUILESS_MAIN(TestSchedulingInvariants)
#include "tst_schedulinginvariants.moc"
