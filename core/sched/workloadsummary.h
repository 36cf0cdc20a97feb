// SPDX-License-Identifier: GPL-3.0-or-later
// Histograms and totals of a workload, for the workload panel's preview and the queue sizing inputs.
#pragma once

#include "core/sched/job.h"

#include <string>
#include <vector>

namespace clusterplanner::core::sched {

struct HistogramBin
{
    std::string label; ///< e.g. "8", "½" or "10 min–1 h"
    double lowS = 0; ///< duration bins: [lowS, highS); GPU bins: the GPU count (share for fractional)
    double highS = 0;
    int jobs = 0;
};

struct WorkloadSummary
{
    int jobs = 0;
    int users = 0; ///< distinct user indices
    int fractionalJobs = 0;
    double spanS = 0; ///< last submit − first submit
    double arrivalsPerHour = 0; ///< (jobs − 1) / span
    double meanGpus = 0; ///< mean GPUs per job, fractional jobs by their share
    double meanDurationS = 0;
    double gpuHours = 0; ///< Σ GPUs × duration / 3600
    /// E[GPUs × duration] / E[GPUs]: the mean duration weighted by size, which the GPU-level M/M/c uses as
    /// service time per GPU-server (docs/methods-queueing.md §6).
    double gpuWeightedDurationS = 0;
    std::vector<HistogramBin> gpuCounts; ///< one bin per distinct request (fractional jobs pooled)
    std::vector<HistogramBin> durations; ///< half-decade bins of run time from 10 s to 10⁷ s (edges clamp)
    std::vector<int> arrivalsByHour; ///< 24 bins of submit time modulo one day
};

WorkloadSummary summarizeWorkload(const Workload& jobs);

} // namespace clusterplanner::core::sched
