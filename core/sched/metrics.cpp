// SPDX-License-Identifier: GPL-3.0-or-later
// Metrics of a simulation run; the statistics and fragmentation formulas are core/queue/fragmentation.h's.
#include "core/sched/metrics.h"

#include "core/queue/fragmentation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

namespace clusterplanner::core::sched {

namespace {

Distribution distribution(const std::vector<double>& values)
{
    Distribution d;
    if (values.empty())
        return d;
    d.mean = std::accumulate(values.begin(), values.end(), 0.0) / double(values.size());
    d.p50 = queue::percentile(values, 50);
    d.p90 = queue::percentile(values, 90);
    d.p99 = queue::percentile(values, 99);
    d.max = *std::max_element(values.begin(), values.end());
    return d;
}

double userFairness(const std::vector<JobRecord>& jobs)
{
    std::map<int, std::pair<double, int>> perUser; // user → (Σ duration/JCT, jobs)
    for (const auto& job : jobs) {
        if (job.unfinished)
            continue;
        const double jct = job.endS - job.submitS;
        auto& [sum, count] = perUser[job.user];
        sum += jct > 0 ? std::min(1.0, job.durationS / jct) : 1.0;
        ++count;
    }
    std::vector<double> theta;
    for (const auto& [user, entry] : perUser)
        theta.push_back(entry.first / entry.second);
    return queue::jainFairness(theta);
}

/// F_time of the cluster: the mean over GPUs of each GPU's F_time over the makespan, from the jobs' segments.
double clusterTimeFragmentation(const SimulationResult& result, double makespanS)
{
    std::vector<std::size_t> firstGpu(result.nodes.size() + 1, 0);
    for (std::size_t i = 0; i < result.nodes.size(); ++i)
        firstGpu[i + 1] = firstGpu[i] + static_cast<std::size_t>(result.nodes[i].gpus);
    if (firstGpu.back() == 0 || !(makespanS > 0))
        return 0.0;
    std::vector<std::vector<queue::BusyInterval>> busy(firstGpu.back());
    for (const auto& job : result.jobs)
        for (const auto& segment : job.segments)
            for (const auto& slice : segment.slices)
                for (int gpu : slice.gpus)
                    busy[firstGpu[static_cast<std::size_t>(slice.node)] + static_cast<std::size_t>(gpu)].push_back(
                        {segment.startS, segment.endS});
    double sum = 0;
    for (auto& intervals : busy)
        sum += queue::timeFragmentation(std::move(intervals), makespanS);
    return sum / static_cast<double>(busy.size());
}

/// Length of the union of all run segments: the time at least one job runs.
double busyWindowS(const SimulationResult& result)
{
    std::vector<std::pair<double, double>> runs;
    for (const auto& job : result.jobs)
        for (const auto& segment : job.segments)
            if (segment.endS > segment.startS)
                runs.emplace_back(segment.startS, segment.endS);
    std::sort(runs.begin(), runs.end());
    double total = 0, coveredTo = -std::numeric_limits<double>::infinity();
    for (const auto& [startS, endS] : runs) {
        total += std::max(0.0, endS - std::max(startS, coveredTo));
        coveredTo = std::max(coveredTo, endS);
    }
    return total;
}

/// Allocated GPU share of the cluster in kUtilizationBins equal bins of [startS, endS] (capped at 1 per bin:
/// time-sliced jobs share GPUs).
std::vector<double> utilizationBins(const SimulationResult& result, double gpus)
{
    std::vector<double> bins(kUtilizationBins, 0.0);
    const double spanS = result.endS - result.startS;
    if (!(spanS > 0) || gpus <= 0)
        return bins;
    const double binS = spanS / kUtilizationBins;
    for (const auto& job : result.jobs) {
        const double share = job.gpus > 0 ? job.gpus : job.gpuMilli / 1000.0;
        for (const auto& segment : job.segments) {
            const int first = std::clamp(int((segment.startS - result.startS) / binS), 0, kUtilizationBins - 1);
            const int last = std::clamp(int((segment.endS - result.startS) / binS), 0, kUtilizationBins - 1);
            for (int b = first; b <= last; ++b) {
                const double lo = result.startS + b * binS, hi = lo + binS;
                const double overlapS = std::min(hi, segment.endS) - std::max(lo, segment.startS);
                bins[std::size_t(b)] += std::max(0.0, overlapS) * share;
            }
        }
    }
    for (double& bin : bins)
        bin = std::min(1.0, bin / (binS * gpus));
    return bins;
}

} // namespace

SimulationMetrics computeMetrics(const SimulationResult& result)
{
    SimulationMetrics m;
    std::vector<double> jct, wait, firstWait;
    double slowdownSum = 0;
    int slowdownCount = 0;
    for (const auto& job : result.jobs) {
        ++m.jobs;
        m.preemptions += job.preemptions;
        m.migrations += job.migrations;
        m.allocatedGpuS += job.allocatedGpuS;
        if (job.startS >= 0) {
            wait.push_back(job.queuedS);
            firstWait.push_back(job.startS - job.submitS);
        }
        if (job.unfinished) {
            ++m.unfinished;
            continue;
        }
        ++m.finished;
        jct.push_back(job.endS - job.submitS);
        if (job.durationS > 0) {
            slowdownSum += (job.endS - job.submitS) / job.durationS;
            ++slowdownCount;
        }
    }
    m.jctS = distribution(jct);
    m.waitS = distribution(wait);
    m.firstWaitS = distribution(firstWait);
    m.meanSlowdown = slowdownCount > 0 ? slowdownSum / slowdownCount : 0.0;
    m.makespanS = result.endS - result.startS;
    m.throughputJobsPerHour = m.makespanS > 0 ? m.finished * 3600.0 / m.makespanS : 0.0;
    double gpus = 0, busyGpuS = 0, energyJ = 0;
    for (std::size_t i = 0; i < result.nodes.size(); ++i) {
        const auto& node = result.nodes[i];
        const double busy = result.utilization[i][0] * node.gpus * m.makespanS;
        const double idle = node.gpus * m.makespanS - busy;
        gpus += node.gpus;
        busyGpuS += busy;
        energyJ += node.tdpW * (busy + result.idlePowerFraction * idle);
    }
    m.gpuUtilization = gpus > 0 && m.makespanS > 0 ? busyGpuS / (gpus * m.makespanS) : 0.0;
    const double windowS = busyWindowS(result);
    m.gpuUtilizationBusy = gpus > 0 && windowS > 0 ? busyGpuS / (gpus * windowS) : 0.0;
    m.utilizationOverTime = utilizationBins(result, gpus);
    m.imbalance = queue::nodeImbalance(queue::UtilizationMatrix {result.utilization});
    m.resourceSkew = queue::imbalance(queue::UtilizationMatrix {result.utilization});
    m.fragmentationIndex = result.fragmentationIndex;
    m.timeFragmentation = clusterTimeFragmentation(result, m.makespanS);
    m.jainFairness = userFairness(result.jobs);
    m.energyKwh = energyJ / 3.6e6;
    return m;
}

} // namespace clusterplanner::core::sched
