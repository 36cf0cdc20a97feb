// SPDX-License-Identifier: GPL-3.0-or-later
// One job of a scheduling workload (from a trace or the synthetic generator).
#pragma once

#include <string>
#include <vector>

namespace clusterplanner::core::sched {

/// A job asks either for whole GPUs (gpus ≥ 1) or for a share of one GPU (gpus == 0, gpuMilli in 1..999 and
/// gpuMemoryMiB the memory cap), the convention of Alibaba v2023 `gpu_milli` (docs/methods-scheduling.md §7 resource
/// strings).
struct Job
{
    int id = 0;
    int user = 0; ///< dense user index 0..users-1
    double submitS = 0;
    double durationS = 0; ///< actual run time on dedicated GPUs
    double estimateS = 0; ///< user's estimate (backfilling, SJF with estimates); 0 = same as durationS
    int gpus = 1;
    int gpuMilli = 0; ///< fractional share of one GPU, thousandths; only when gpus == 0
    /// GPU memory per GPU, MiB. Fractional jobs: their cap. Whole-GPU jobs: 0 = the whole device; a value lets
    /// time slicing co-locate the job.
    double gpuMemoryMiB = 0;
    std::string gpuType; ///< catalog id the job must run on; empty = any
    double cpuCores = 0; ///< whole job, split over its nodes in proportion to GPUs
    double memoryGiB = 0; ///< host memory, whole job
    double bandwidthGbps = 0; ///< scale-out bandwidth, whole job
    int priority = 0; ///< larger runs first under the priority policy
    /// Runs as fast on several nodes as on one (no node-span penalty), e.g. data-parallel jobs with little traffic.
    bool placementInsensitive = false;

    bool isFractional() const { return gpus == 0; }
    double estimate() const { return estimateS > 0 ? estimateS : durationS; }
    /// GPUs a job occupies, fractional jobs counted as their share.
    double gpuShare() const { return gpus > 0 ? gpus : gpuMilli / 1000.0; }
};

using Workload = std::vector<Job>;

} // namespace clusterplanner::core::sched
