// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/sched/simulationrun.h"

#include "core/model/gpucatalog.h"
#include "core/sched/simulator.h"

#include <algorithm>

namespace clusterplanner::core::sched {

SimulationOutcome runSimulation(const ClusterModel& cluster, const Workload& workload, const SimulationOptions& options,
    std::stop_token stop, const SimulationProgress& progress)
{
    Simulator simulator(cluster, GpuCatalog::builtin(), options);
    const double jobs = std::max<std::size_t>(1, workload.size());
    const long long step = std::max<long long>(1, static_cast<long long>(jobs / 200));
    long long done = 0;
    simulator.setObserver([&](const SimEvent& event, const ClusterState&) {
        if (stop.stop_requested())
            throw SimulationCancelled(); // the simulator is dropped with its half-run state
        if (event.kind != EventKind::Finish && event.kind != EventKind::Reject)
            return;
        if (++done % step == 0 && progress)
            progress(done / jobs);
    });
    SimulationOutcome outcome;
    outcome.options = options;
    outcome.result = simulator.run(workload);
    outcome.metrics = computeMetrics(outcome.result);
    if (progress)
        progress(1.0);
    return outcome;
}

CdfPoints empiricalCdf(std::vector<double> values, int maxPoints)
{
    CdfPoints cdf;
    if (values.empty() || maxPoints < 2)
        return cdf;
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    const std::size_t points = std::min<std::size_t>(n, static_cast<std::size_t>(maxPoints));
    for (std::size_t i = 0; i < points; ++i) {
        // Evenly spaced ranks, always ending at the largest value (share 1).
        const std::size_t rank = points == 1 ? n - 1 : i * (n - 1) / (points - 1);
        cdf.x.push_back(values[rank]);
        cdf.share.push_back(double(rank + 1) / double(n));
    }
    return cdf;
}

CdfPoints jctCdf(const SimulationResult& result, int maxPoints)
{
    std::vector<double> values;
    for (const JobRecord& job : result.jobs)
        if (!job.unfinished && job.endS >= 0)
            values.push_back(job.endS - job.submitS);
    return empiricalCdf(std::move(values), maxPoints);
}

CdfPoints waitCdf(const SimulationResult& result, int maxPoints)
{
    std::vector<double> values;
    for (const JobRecord& job : result.jobs)
        if (job.startS >= 0)
            values.push_back(job.queuedS);
    return empiricalCdf(std::move(values), maxPoints);
}

NodeRunIndex::NodeRunIndex(const SimulationResult& result)
    : m_runs(result.nodes.size())
    , m_longestRunS(result.nodes.size(), 0.0)
{
    for (std::size_t j = 0; j < result.jobs.size(); ++j) {
        const auto& segments = result.jobs[j].segments;
        for (std::size_t s = 0; s < segments.size(); ++s)
            for (const GpuSlice& slice : segments[s].slices) {
                if (slice.node < 0 || static_cast<std::size_t>(slice.node) >= m_runs.size())
                    continue;
                NodeRun run {segments[s].startS, segments[s].endS, static_cast<int>(j),
                    slice.gpus.empty() ? 0 : *std::min_element(slice.gpus.begin(), slice.gpus.end()),
                    static_cast<int>(slice.gpus.size()), slice.milli, s + 1 < segments.size()};
                auto& longest = m_longestRunS[static_cast<std::size_t>(slice.node)];
                longest = std::max(longest, run.endS - run.startS);
                m_runs[static_cast<std::size_t>(slice.node)].push_back(run);
            }
    }
    for (auto& runs : m_runs)
        std::sort(runs.begin(), runs.end(), [](const NodeRun& a, const NodeRun& b) {
            return a.startS != b.startS ? a.startS < b.startS : a.job < b.job;
        });
}

std::vector<int> NodeRunIndex::jobsOn(int node, double fromS, double toS) const
{
    std::vector<int> jobs;
    if (node < 0 || node >= nodes())
        return jobs;
    const auto& runs = m_runs[static_cast<std::size_t>(node)];
    // Runs that start before fromS − longest run cannot reach fromS.
    const double earliest = fromS - m_longestRunS[static_cast<std::size_t>(node)];
    auto it = std::lower_bound(
        runs.begin(), runs.end(), earliest, [](const NodeRun& run, double t) { return run.startS < t; });
    for (; it != runs.end() && it->startS < toS; ++it)
        if (it->endS > fromS)
            jobs.push_back(it->job);
    std::sort(jobs.begin(), jobs.end());
    jobs.erase(std::unique(jobs.begin(), jobs.end()), jobs.end());
    return jobs;
}

std::vector<int> NodeRunIndex::jobsIn(double fromS, double toS) const
{
    std::vector<int> jobs;
    for (int node = 0; node < nodes(); ++node) {
        const auto onNode = jobsOn(node, fromS, toS);
        jobs.insert(jobs.end(), onNode.begin(), onNode.end());
    }
    std::sort(jobs.begin(), jobs.end());
    jobs.erase(std::unique(jobs.begin(), jobs.end()), jobs.end());
    return jobs;
}

std::vector<int> NodeRunIndex::nodesIn(double fromS, double toS) const
{
    std::vector<int> nodes;
    for (int node = 0; node < this->nodes(); ++node)
        if (!jobsOn(node, fromS, toS).empty())
            nodes.push_back(node);
    return nodes;
}

} // namespace clusterplanner::core::sched
