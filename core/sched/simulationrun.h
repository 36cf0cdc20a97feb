// SPDX-License-Identifier: GPL-3.0-or-later
// The facade the GUI calls to simulate: one run with progress and cancellation, its metrics and the figures the
// simulation panels draw (CDFs, the node → job index).
#pragma once

#include "core/sched/clustermodel.h"
#include "core/sched/job.h"
#include "core/sched/metrics.h"
#include "core/sched/simulation.h"

#include <functional>
#include <memory>
#include <stdexcept>
#include <stop_token>
#include <vector>

namespace clusterplanner::core::sched {

/// Thrown by runSimulation when its stop token is triggered; the partial state is dropped.
class SimulationCancelled : public std::runtime_error
{
public:
    SimulationCancelled()
        : std::runtime_error("simulation cancelled")
    { }
};

struct SimulationOutcome
{
    SimulationOptions options;
    SimulationResult result;
    SimulationMetrics metrics;
};

/// Fraction of the jobs that finished or were rejected so far, in [0, 1].
using SimulationProgress = std::function<void(double fraction)>;

/// Simulates `workload` on `cluster` (Simulator + computeMetrics). Checks `stop` after every event and throws
/// SimulationCancelled; calls `progress` (from the calling thread) about every 1/200 of the jobs. Throws
/// std::invalid_argument for a bad cluster.
SimulationOutcome runSimulation(const ClusterModel& cluster, const Workload& workload, const SimulationOptions& options,
    std::stop_token stop = {}, const SimulationProgress& progress = {});

/// Points (x, share of jobs ≤ x) of an empirical CDF, at most maxPoints of them (evenly spaced ranks).
struct CdfPoints
{
    std::vector<double> x;
    std::vector<double> share;
};
/// JCT (finish − submit) of the finished jobs.
CdfPoints jctCdf(const SimulationResult& result, int maxPoints = 400);
/// Total queueing delay (JobRecord::queuedS) of the jobs that started.
CdfPoints waitCdf(const SimulationResult& result, int maxPoints = 400);
CdfPoints empiricalCdf(std::vector<double> values, int maxPoints);

/// One piece of a job on one node: a segment's slice, with the job's index in SimulationResult::jobs.
struct NodeRun
{
    double startS = 0;
    double endS = 0;
    int job = 0;
    int firstGpu = 0; ///< node-local index of the first GPU of the slice
    int gpus = 0; ///< GPUs of the slice on this node
    int milli = 1000;
    bool preempted = false; ///< another segment of the job follows this one
};

/// The runs of each node sorted by start, for hover look-ups and the Gantt chart.
class NodeRunIndex
{
public:
    explicit NodeRunIndex(const SimulationResult& result);
    const std::vector<NodeRun>& runs(int node) const { return m_runs[static_cast<std::size_t>(node)]; }
    /// Indices (into SimulationResult::jobs) of the jobs running on `node` at some time in [fromS, toS), ascending.
    std::vector<int> jobsOn(int node, double fromS, double toS) const;
    /// Jobs with a run overlapping [fromS, toS), ascending.
    std::vector<int> jobsIn(double fromS, double toS) const;
    /// Nodes with a run overlapping [fromS, toS), ascending.
    std::vector<int> nodesIn(double fromS, double toS) const;
    int nodes() const { return static_cast<int>(m_runs.size()); }

private:
    std::vector<std::vector<NodeRun>> m_runs;
    std::vector<double> m_longestRunS; ///< per node: bounds the backward scan of a look-up
};

} // namespace clusterplanner::core::sched
