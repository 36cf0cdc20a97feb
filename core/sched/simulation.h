// SPDX-License-Identifier: GPL-3.0-or-later
// Options, per-job records and results of a scheduling simulation (docs/methods-scheduling.md §7).
#pragma once

#include "core/model/costdefaults.h"
#include "core/sched/clusterstate.h"

#include <array>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clusterplanner::core::sched {

enum class Policy { Fifo, Sjf, SjfEstimate, FairShare, Backfill, Tiresias, Gandiva, Priority, Gavel };
enum class PlacementStrategy { Pack, Spread, Balanced };
enum class FractionalFit { FirstFit, BestFit };

std::string_view toString(Policy policy);
std::string_view toString(PlacementStrategy strategy);
/// "fifo", "sjf", "sjf-estimate", "fair", "backfill", "tiresias", "gandiva", "priority", "gavel".
std::optional<Policy> policyFromString(std::string_view text);
/// "pack", "spread", "balanced".
std::optional<PlacementStrategy> placementFromString(std::string_view text);

/// Seed node score `0.4·s_gpu + 0.3·s_mem + 0.2·s_cpu + 0.1·s_frag` [S2; docs/methods-scheduling.md §7 "Placement"].
struct PlacementWeights
{
    double gpu = 0.4;
    double memory = 0.3;
    double cpu = 0.2;
    double fragmentation = 0.1;
};

struct SimulationOptions
{
    Policy policy = Policy::Fifo;
    PlacementStrategy placement = PlacementStrategy::Pack;
    PlacementWeights weights;
    FractionalFit fractionalFit = FractionalFit::BestFit;
    int maxNodesPerJob = 0; ///< topology constraint β; 0 = no limit
    /// Queue entries examined per backfill or preemption pass beyond the head; Slurm's bf_max_job_test default is 500.
    int backfillDepth = 500;
    /// Tiresias 2D-LAS queue thresholds in attained GPU-seconds [Sched; docs/methods-scheduling.md §7].
    std::vector<double> tiresiasThresholdsGpuS {3600, 7200, 18000};
    /// Tiresias starvation limit: a job waiting this long goes back to queue 0 with its attained service cleared
    /// (Tiresias NSDI'19, STARVELIMIT); 0 = off.
    double starvationLimitS = 0;
    /// Paid again on every resume after a preemption or migration (Pollux simulator `rescale_time`,
    /// docs/methods-scheduling.md §7).
    double restartCostS = 30;
    /// Checkpoint period in dedicated-GPU seconds of progress; on preemption the progress since the last checkpoint
    /// is lost and redone. 0 = a checkpoint is written at the preemption itself (nothing lost).
    double checkpointIntervalS = 0;
    /// Slowdown of a job spread over n > 1 nodes: its rate is divided by 1 + nodeSpanPenalty·(n − 1), unless the job
    /// is marked placement-insensitive (Gandiva OSDI'18 locality; Tiresias NSDI'19 consolidation). 0 = none.
    double nodeSpanPenalty = 0;
    /// Relative speed of a job on each GPU type (catalog id → factor; durations are on a factor-1 GPU). Missing
    /// types run at 1, unless speedReferenceGpu names a catalog GPU: then the factor is the type's dense BF16
    /// TFLOPS (FP16 where it has no BF16) over the reference's (Gavel OSDI'20: throughput differs by GPU type).
    std::map<std::string, double> gpuSpeed;
    std::string speedReferenceGpu;
    /// Fair share: half-life of the usage that ranks users (Slurm PriorityDecayHalfLife); 0 = no decay.
    double fairShareHalfLifeS = 0;
    /// Fair share: the most GPUs each user may hold at once (by user index); missing or ≤ 0 = no quota.
    std::vector<double> userQuotaGpus;
    int timeSliceMaxJobs = 2; ///< Gandiva: co-resident whole-GPU jobs of equal size on the same GPUs
    /// Gandiva: share of progress lost to context switches when k > 1 jobs share a GPU (assumption, not sourced).
    double switchOverhead = 0.05;
    /// Gandiva: GPU memory assumed for a whole-GPU job that does not give gpuMemoryMiB (share of the device).
    double assumedMemoryFraction = 0.5;
    std::vector<double> userShares; ///< fair-share entitlements by user index; empty or missing = equal
    /// Idle GPU power as a share of TDP (P_idle of docs/methods-cost.md §8; data/costs.json).
    double idlePowerFraction = costDefaults().idlePowerFraction;
    bool recordTimeline = true; ///< per-node usage step functions
    double horizonS = std::numeric_limits<double>::infinity(); ///< jobs still running then are unfinished
};

/// One continuous run of a job on fixed GPUs.
struct Segment
{
    double startS = 0;
    double endS = 0;
    std::vector<GpuSlice> slices;
};

struct JobRecord
{
    int jobId = 0;
    int user = 0;
    int gpus = 0;
    int gpuMilli = 0;
    double submitS = 0;
    double durationS = 0;
    double startS = -1; ///< first start; -1 if it never ran
    double endS = -1; ///< completion; -1 if unfinished
    int preemptions = 0;
    int migrations = 0; ///< moves by the scheduler (Gandiva un-slicing), restart cost paid, not preemptions
    double queuedS = 0; ///< all time spent waiting: before the first start and after every preemption
    bool unfinished = false;
    std::string note; ///< why it never ran, e.g. "needs 16 GPUs of type ..."
    double serviceS = 0; ///< useful work done, dedicated-GPU seconds (= durationS when finished)
    double allocatedGpuS = 0; ///< Σ segment length × GPUs held (fractional counted by share)
    std::vector<Segment> segments; ///< Gantt chart input
};

struct SimulationResult
{
    std::vector<JobRecord> jobs; ///< in workload order
    std::vector<NodeInfo> nodes;
    std::vector<std::string> gpuTypeIds;
    std::vector<std::array<double, 4>> utilization; ///< U: nodes × {GPU, MEM, CPU, BW}, time-averaged
    std::vector<std::vector<UsageSample>> timeline; ///< per node; empty unless recordTimeline
    double startS = 0; ///< first submission
    double endS = 0; ///< last end of a run (completion, or the horizon for jobs still running)
    long long events = 0;
    long long passes = 0;
    double fragmentationIndex = 0; ///< time-averaged I_frag while jobs were pending
    double idlePowerFraction = costDefaults().idlePowerFraction;
};

enum class EventKind { Arrival, Start, Finish, Preempt, Demote, Reject };

struct SimEvent
{
    EventKind kind = EventKind::Arrival;
    double timeS = 0;
    int jobIndex = 0; ///< index into the workload
};

} // namespace clusterplanner::core::sched
