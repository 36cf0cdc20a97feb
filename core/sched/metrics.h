// SPDX-License-Identifier: GPL-3.0-or-later
// Summary metrics of a scheduling simulation (docs/methods-scheduling.md §7 "Fragmentation and utilisation",
// "Metrics").
#pragma once

#include "core/sched/simulation.h"

#include <array>
#include <utility>
#include <vector>

namespace clusterplanner::core::sched {

struct Distribution
{
    double mean = 0;
    double p50 = 0;
    double p90 = 0;
    double p99 = 0;
    double max = 0;
};

struct SimulationMetrics
{
    int jobs = 0;
    int finished = 0;
    int unfinished = 0;
    Distribution jctS; ///< finish − submit, finished jobs
    Distribution waitS; ///< all queueing: JCT − time running (preempted waits included), jobs that started
    Distribution firstWaitS; ///< first start − submit, jobs that started
    double meanSlowdown = 0; ///< JCT / duration, finished jobs with duration > 0
    double makespanS = 0; ///< last finish − first submit
    double throughputJobsPerHour = 0; ///< finished jobs / makespan
    double gpuUtilization = 0; ///< busy GPU-seconds / (GPUs × makespan) (allocation, not SM activity)
    /// Busy GPU-seconds / (GPUs × busy window), the window being the time at least one job runs: a long tail with
    /// one job left does not dilute it.
    double gpuUtilizationBusy = 0;
    std::vector<double> utilizationOverTime; ///< busy GPU share in kUtilizationBins equal bins of the makespan
    double imbalance = 0; ///< F_nodes: mean over used resources of the population std across nodes
    double resourceSkew = 0; ///< (1/n)·Σ_i std(U_i,·), population std over a node's 4 resources
    double fragmentationIndex = 0; ///< I_frag, time-averaged while whole-GPU jobs were pending
    double timeFragmentation = 0; ///< F_time = idle gaps between busy periods / (GPUs × makespan)
    double jainFairness = 0; ///< Jain over users of θ_u = mean(duration / JCT) of the user's finished jobs
    double energyKwh = 0; ///< GPU energy, P(u) = P_idle + u·(TDP − P_idle) per GPU (docs/methods-cost.md §8)
    double allocatedGpuS = 0; ///< Σ over jobs of GPUs × time held
    int preemptions = 0;
    int migrations = 0;
};

constexpr int kUtilizationBins = 100;

SimulationMetrics computeMetrics(const SimulationResult& result);

} // namespace clusterplanner::core::sched
