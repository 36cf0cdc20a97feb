// SPDX-License-Identifier: GPL-3.0-or-later
// The scheduling mechanisms of issue 14 item 1: per-GPU-type speed, checkpoint loss on preemption, the Tiresias
// starvation limit, fair-share decay and quotas, trace columns for priority and resource strings, and the
// Gavel-like heterogeneity-aware policy. Expected schedules are worked out by hand in the comments.
#include "core/model/gpucatalog.h"
#include "core/sched/simulator.h"
#include "core/sched/traces.h"
#include "tests/core/schedtesthelpers.h"

#include <QTest>

#include <cmath>
#include <sstream>

using namespace clusterplanner::core;
using namespace clusterplanner::core::sched;
using schedtest::simulate;
using schedtest::uniformCluster;

namespace {

Job job(int id, int gpus, double submitS, double durationS, int user = 0)
{
    Job j;
    j.id = id;
    j.gpus = gpus;
    j.submitS = submitS;
    j.durationS = durationS;
    j.user = user;
    return j;
}

SimulationOptions withPolicy(Policy policy)
{
    SimulationOptions options;
    options.policy = policy;
    return options;
}

/// Dense BF16 TFLOPS, FP16 where the GPU has none (the V100).
double bf16(const std::string& gpu)
{
    const GpuSpec* spec = GpuCatalog::builtin().find(gpu);
    return spec->bf16Tflops ? *spec->bf16Tflops : *spec->fp16Tflops;
}

/// One V100 node then one H100 node, 1 GPU each.
ClusterModel mixedPair()
{
    ClusterModel model;
    model.nodeTypes
        = {schedtest::nodeType("v100", "V100-SXM-32GB", 1), schedtest::nodeType("h100", "H100-SXM-80GB", 1)};
    model.groups = {{"v100", 1}, {"h100", 1}};
    return model;
}

} // namespace

class TestSchedulingMechanisms : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void runtimeScalesWithTheGpuType()
    {
        // Durations are on an A100; on an H100 a 1,000 s job takes 1,000 × A100/H100 dense BF16 TFLOPS.
        SimulationOptions options = withPolicy(Policy::Fifo);
        options.speedReferenceGpu = "A100-SXM-80GB";
        const Workload workload {job(0, 1, 0, 1000)};
        const auto result = simulate(uniformCluster(1, 1), workload, options);
        QVERIFY(std::abs(result.jobs[0].endS - 1000 * bf16("A100-SXM-80GB") / bf16("H100-SXM-80GB")) < 1e-9);
        QCOMPARE(result.jobs[0].serviceS, 1000.0);
        options.gpuSpeed = {{"H100-SXM-80GB", 2.0}}; // an explicit factor wins
        QCOMPARE(simulate(uniformCluster(1, 1), workload, options).jobs[0].endS, 500.0);
    }

    void preemptionLosesWorkSinceTheLastCheckpoint()
    {
        // One GPU, checkpoints every 30 s of progress. J1 (priority 5) preempts J0 at 50: J0 loses 50 mod 30 = 20 s,
        // resumes at 60 with 50 + 20 s left plus the 30 s restart: ends at 160.
        SimulationOptions options = withPolicy(Policy::Priority);
        options.checkpointIntervalS = 30;
        Workload workload {job(0, 1, 0, 100), job(1, 1, 50, 10)};
        workload[1].priority = 5;
        const auto result = simulate(uniformCluster(1, 1), workload, options);
        QCOMPARE(result.jobs[0].endS, 160.0);
        QCOMPARE(result.jobs[0].serviceS, 100.0);
    }

    void starvationLimitPromotesAWaitingJob()
    {
        // One GPU, Tiresias. J0 (10,000 s) drops to queue 1 at 3,600; J1 (5,000 s) preempts it at 4,000 and drops to
        // queue 1 at 7,600. Without a limit J0 waits until J1 ends at 9,000. With a 1,000 s limit J0 is promoted to
        // queue 0 at 5,000 (attained service cleared) and preempts J1 when J1 drops to queue 1 at 7,600.
        const Workload workload {job(0, 1, 0, 10000), job(1, 1, 4000, 5000)};
        SimulationOptions options = withPolicy(Policy::Tiresias);
        QCOMPARE(simulate(uniformCluster(1, 1), workload, options).jobs[0].segments[1].startS, 9000.0);
        options.starvationLimitS = 1000;
        const auto result = simulate(uniformCluster(1, 1), workload, options);
        QCOMPARE(result.jobs[0].segments[1].startS, 7600.0);
        QCOMPARE(result.jobs[1].preemptions, 1);
    }

    void fairShareDecayForgetsOldUsage()
    {
        // One GPU. User 0 used 1,000 GPU-s at 0-1,000; user 1 used 100 GPU-s at 4,800-4,900. Both queue a job at
        // 5,000. Without decay user 1 (less usage) goes first; with a 200 s half-life user 0's old usage has decayed
        // to ~0.0003 GPU-s against user 1's ~60, so user 0 goes first.
        const Workload workload {
            job(0, 1, 0, 1000, 0), job(1, 1, 4800, 100, 1), job(2, 1, 5000, 10, 0), job(3, 1, 5000, 10, 1)};
        SimulationOptions options = withPolicy(Policy::FairShare);
        QCOMPARE(simulate(uniformCluster(1, 1), workload, options).jobs[3].startS, 5000.0);
        options.fairShareHalfLifeS = 200;
        const auto result = simulate(uniformCluster(1, 1), workload, options);
        QCOMPARE(result.jobs[2].startS, 5000.0);
        QCOMPARE(result.jobs[3].startS, 5010.0);
    }

    void fairShareQuotaCapsAUser()
    {
        // Two GPUs, user 0 may hold one: its second job waits for the first although a GPU is free.
        SimulationOptions options = withPolicy(Policy::FairShare);
        options.userQuotaGpus = {1.0};
        const Workload workload {job(0, 1, 0, 100), job(1, 1, 0, 100)};
        QCOMPARE(simulate(uniformCluster(1, 2), workload, options).jobs[1].startS, 100.0);
        options.userQuotaGpus.clear();
        QCOMPARE(simulate(uniformCluster(1, 2), workload, options).jobs[1].startS, 0.0);
    }

    void gavelPutsJobsOnTheFastestFreeType()
    {
        // A V100 node (type 0) and an H100 node, speeds from dense BF16 relative to the V100. FIFO takes the first
        // type on a tie (the V100); the heterogeneity-aware policy takes the H100, where the job runs faster.
        SimulationOptions options = withPolicy(Policy::Fifo);
        options.speedReferenceGpu = "V100-SXM-32GB";
        const Workload workload {job(0, 1, 0, 1000)};
        QCOMPARE(simulate(mixedPair(), workload, options).jobs[0].endS, 1000.0);
        options.policy = Policy::Gavel;
        const auto result = simulate(mixedPair(), workload, options);
        QCOMPARE(result.jobs[0].segments[0].slices[0].node, 1);
        QVERIFY(std::abs(result.jobs[0].endS - 1000 * bf16("V100-SXM-32GB") / bf16("H100-SXM-80GB")) < 1e-9);
    }

    void traceColumnsSetPriorityAndResourceString()
    {
        std::istringstream csv("job_id,num_gpu,submit_time,iterations,model_name,duration,priority,gpu_request\n"
                               "1,1,0,1,m,100,3,0.5\n"
                               "2,1,0,1,m,100,,2\n");
        const Workload workload = readTiresiasTrace(csv, {});
        QCOMPARE(workload.size(), std::size_t(2));
        QCOMPARE(workload[0].priority, 3);
        QCOMPARE(workload[0].gpus, 0);
        QCOMPARE(workload[0].gpuMilli, 500);
        QCOMPARE(workload[1].priority, 0);
        QCOMPARE(workload[1].gpus, 2);
        std::istringstream bad("job_id,num_gpu,submit_time,duration,gpu_request\n1,1,0,100,lots\n");
        QVERIFY_THROWS_EXCEPTION(TraceFormatError, readTiresiasTrace(bad, {}));
    }
};

QTEST_GUILESS_MAIN(TestSchedulingMechanisms)
#include "tst_schedulingmechanisms.moc"
