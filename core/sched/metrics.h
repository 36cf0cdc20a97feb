// SPDX-License-Identifier: GPL-3.0-or-later
// Summary metrics of a scheduling simulation (reference.md §7 "Fragmentation and utilisation", "Metrics").
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
    Distribution waitS; ///< first start − submit, jobs that started
    double meanSlowdown = 0; ///< JCT / duration, finished jobs with duration > 0
    double makespanS = 0; ///< last finish − first submit
    double throughputJobsPerHour = 0; ///< finished jobs / makespan
    double gpuUtilization = 0; ///< time-averaged busy GPUs / GPUs (allocation, not SM activity)
    double imbalance = 0; ///< F = (1/n)·Σ_i std(U_i,·), population std over the 4 resources
    double fragmentationIndex = 0; ///< I_frag, time-averaged while whole-GPU jobs were pending
    double timeFragmentation = 0; ///< F_time = idle gaps between busy periods / (GPUs × makespan)
    double jainFairness = 0; ///< Jain over users of θ_u = mean(duration / JCT) of the user's finished jobs
    double energyKwh = 0; ///< GPU energy, P(u) = P_idle + u·(TDP − P_idle) per GPU (reference.md §8)
    double allocatedGpuS = 0; ///< Σ over jobs of GPUs × time held
    int preemptions = 0;
};

SimulationMetrics computeMetrics(const SimulationResult& result);

/// p in [0, 100], linear interpolation between order statistics (numpy's default); 0 for no values.
double percentile(std::vector<double> values, double p);
/// Jain's index (Σx)²/(n·Σx²) ∈ [1/n, 1] [Jain]; 1 for an empty or all-zero list.
double jainIndex(const std::vector<double>& values);
/// F over the rows of U (population standard deviation of each row, averaged).
double imbalance(const std::vector<std::array<double, 4>>& utilization);
/// One GPU's F_time: Σ gaps between consecutive tasks (sorted by start) / totalS.
double timeFragmentation(std::vector<std::pair<double, double>> tasks, double totalS);
/// I_frag = Σ free_i·unusable_i / Σ free_i where unusable_i = free_i < minRequest.
double fragmentationIndex(const std::vector<int>& freeGpus, int minRequest);

} // namespace clusterplanner::core::sched
