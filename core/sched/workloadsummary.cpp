// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/sched/workloadsummary.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace clusterplanner::core::sched {

namespace {

std::string durationLabel(double seconds)
{
    if (seconds < 60)
        return std::to_string(static_cast<long long>(std::lround(seconds))) + " s";
    if (seconds < 3600)
        return std::to_string(static_cast<long long>(std::lround(seconds / 60))) + " min";
    if (seconds < 86400)
        return std::to_string(static_cast<long long>(std::lround(seconds / 3600))) + " h";
    return std::to_string(static_cast<long long>(std::lround(seconds / 86400))) + " d";
}

std::vector<HistogramBin> durationBins(const Workload& jobs)
{
    // Edges 10^(1 + k/2) s: 10 s, 32 s, 100 s, ... 10^7 s (116 days); the first and last bins take the tails.
    std::vector<HistogramBin> bins;
    for (int k = 0; k < 12; ++k) {
        const double low = std::pow(10.0, 1 + k / 2.0);
        const double high = std::pow(10.0, 1 + (k + 1) / 2.0);
        bins.push_back({durationLabel(low) + "–" + durationLabel(high), low, high, 0});
    }
    for (const Job& job : jobs) {
        const double x = std::max(job.durationS, 1e-9);
        const int k = std::clamp(static_cast<int>(std::floor((std::log10(x) - 1) * 2)), 0, 11);
        ++bins[static_cast<std::size_t>(k)].jobs;
    }
    return bins;
}

std::vector<HistogramBin> gpuBins(const Workload& jobs)
{
    std::map<int, int> counts; // GPUs → jobs; fractional jobs under 0
    for (const Job& job : jobs)
        ++counts[job.gpus];
    std::vector<HistogramBin> bins;
    for (const auto& [gpus, count] : counts)
        bins.push_back({gpus == 0 ? std::string("<1") : std::to_string(gpus), double(gpus), double(gpus), count});
    return bins;
}

} // namespace

WorkloadSummary summarizeWorkload(const Workload& jobs)
{
    WorkloadSummary s;
    s.jobs = static_cast<int>(jobs.size());
    s.arrivalsByHour.assign(24, 0);
    if (jobs.empty())
        return s;
    std::set<int> users;
    double first = jobs.front().submitS, last = first, gpuSum = 0, durationSum = 0, gpuSeconds = 0;
    for (const Job& job : jobs) {
        users.insert(job.user);
        first = std::min(first, job.submitS);
        last = std::max(last, job.submitS);
        gpuSum += job.gpuShare();
        durationSum += job.durationS;
        gpuSeconds += job.gpuShare() * job.durationS;
        s.fractionalJobs += job.isFractional() ? 1 : 0;
    }
    for (const Job& job : jobs)
        ++s.arrivalsByHour[static_cast<std::size_t>(std::fmod(job.submitS - first, 86400.0) / 3600) % 24];
    s.users = static_cast<int>(users.size());
    s.spanS = last - first;
    s.arrivalsPerHour = s.spanS > 0 ? (s.jobs - 1) / (s.spanS / 3600) : 0;
    s.meanGpus = gpuSum / s.jobs;
    s.meanDurationS = durationSum / s.jobs;
    s.gpuHours = gpuSeconds / 3600;
    s.gpuWeightedDurationS = gpuSum > 0 ? gpuSeconds / gpuSum : 0;
    s.gpuCounts = gpuBins(jobs);
    s.durations = durationBins(jobs);
    return s;
}

} // namespace clusterplanner::core::sched
