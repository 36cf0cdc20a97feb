// SPDX-License-Identifier: GPL-3.0-or-later
// "clusterplanner simulate": replay a trace or a synthetic workload on a cluster under one scheduling policy.
#include "cli/commandline.h"
#include "cli/commandlist.h"
#include "core/model/gpucatalog.h"
#include "core/sched/clusterfile.h"
#include "core/sched/metrics.h"
#include "core/sched/simulator.h"
#include "core/sched/traces.h"
#include "core/sched/workloadgenerator.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <ostream>
#include <sstream>

namespace clusterplanner::cli {

using namespace clusterplanner::core; // commands are thin wrappers over the engine

namespace {

using nlohmann::json;
using namespace clusterplanner::core::sched;

/// Everything the command line says, filled by CLI11.
struct SimulateOptions
{
    std::string clusterPath;
    ClusterConfig cluster;
    std::string tracePath;
    std::string traceFormat = "tiresias";
    int syntheticJobs = 0;
    SyntheticWorkloadSpec synthetic;
    std::string policy;
    std::string placement = "pack";
    int maxNodes = 0;
    bool json = false;
};

template <typename Enum>
std::vector<std::string> enumNames(Enum last)
{
    std::vector<std::string> names;
    for (int i = 0; i <= int(last); ++i)
        names.emplace_back(toString(Enum(i)));
    return names;
}

std::vector<std::string> gpuIds()
{
    std::vector<std::string> ids;
    for (const auto& gpu : GpuCatalog::builtin().gpus())
        ids.push_back(gpu.id);
    return ids;
}

void addClusterOptions(CLI::App& app, SimulateOptions& o)
{
    app.add_option("--cluster", o.clusterPath,
           "cluster file: the cluster schema of a scenario's `cluster` section (node groups, racks, fabric; "
           "docs/methods-cluster.md §1), a scenario file, or an old version-1 cluster file; replaces --gpus/--gpu")
        ->type_name("FILE");
    app.add_option("--gpus", o.cluster.gpuCount, "GPUs of a homogeneous cluster (give this or --cluster)")
        ->check(CLI::Range(1, 10'000'000))
        ->type_name("N");
    app.add_option("--gpus-per-node", o.cluster.gpusPerNode, "GPUs per node of that cluster")
        ->check(CLI::Range(1, 1024))
        ->type_name("N");
    app.add_option("--gpu", o.cluster.gpuId, "catalog id of its GPU (clusterplanner catalog)")->check(oneOf(gpuIds()));
}

void addWorkloadOptions(CLI::App& app, SimulateOptions& o)
{
    app.add_option("--trace", o.tracePath, "job trace to replay (CSV; give this or --synthetic)")->type_name("FILE");
    app.add_option("--trace-format", o.traceFormat, "column layout of the trace")
        ->check(oneOf({"tiresias", "philly", "pai", "helios"}));
    app.add_option("--synthetic", o.syntheticJobs, "generate this many jobs instead of a trace")
        ->check(CLI::Range(1, 10'000'000))
        ->type_name("JOBS");
    app.add_option("--seed", o.synthetic.seed, "random seed of the synthetic workload")->type_name("N");
    app.add_option("--arrival-rate", o.synthetic.arrivalsPerHour, "synthetic arrivals, jobs per hour (Poisson)")
        ->check(CLI::Range(1e-6, 1e9))
        ->type_name("JOBS_PER_H");
    app.add_option("--runtimes", o.synthetic.runtimeCsvPath,
           "one-column CSV of run times in s to sample synthetic durations from (default: a lognormal fit)")
        ->type_name("CSV");
}

void addSchedulerOptions(CLI::App& app, SimulateOptions& o)
{
    app.add_option("--policy", o.policy, "scheduling policy (docs/methods-scheduling.md)")
        ->required()
        ->check(oneOf(enumNames(Policy::Gavel)));
    app.add_option("--placement", o.placement, "where a job's GPUs go: pack, spread or balance the nodes")
        ->check(oneOf(enumNames(PlacementStrategy::Balanced)));
    app.add_option("--max-nodes", o.maxNodes, "most nodes one job may span; 0 = no limit")
        ->check(CLI::Range(0, 1'000'000))
        ->type_name("N");
    app.add_flag("--json", o.json, "print the cluster, the metrics and every job as JSON (default: metrics as text)");
}

SimulateOptions parseOptions(const Args& args, std::ostream& out)
{
    SimulateOptions o;
    o.cluster.gpuCount = 0;
    auto app = makeCommandApp("simulate",
        "Replay a job trace or a synthetic workload on a cluster under one scheduling policy; prints JCT, wait, "
        "utilization, fragmentation, fairness and energy.",
        {"clusterplanner simulate --gpus 64 --synthetic 500 --seed 3 --policy tiresias",
            "clusterplanner simulate --gpus 32 --trace data/traces/tiresias_60_job.csv --policy backfill "
            "--placement spread --json"});
    addClusterOptions(*app, o);
    addWorkloadOptions(*app, o);
    addSchedulerOptions(*app, o);
    parseCommand(*app, args, out);
    if (o.clusterPath.empty() && o.cluster.gpuCount == 0)
        throw UsageError("give --cluster FILE or --gpus N");
    if (o.tracePath.empty() == (o.syntheticJobs == 0))
        throw UsageError("give exactly one of --trace FILE and --synthetic JOBS");
    return o;
}

ClusterModel clusterFrom(const SimulateOptions& o)
{
    if (o.clusterPath.empty())
        return homogeneousCluster(o.cluster, GpuCatalog::builtin());
    std::ifstream in(o.clusterPath);
    if (!in)
        throw UsageError("--cluster: cannot open \"" + o.clusterPath + "\"");
    std::stringstream text;
    text << in.rdbuf();
    try {
        return readSimulatorClusterFile(text.str());
    } catch (const ClusterFormatError& error) {
        throw std::runtime_error(o.clusterPath + ": " + error.what());
    }
}

Workload workloadFrom(SimulateOptions o, int clusterGpus)
{
    if (!o.tracePath.empty())
        return readTraceFile(o.tracePath, *traceFormatFromString(o.traceFormat), clusterGpus);
    o.synthetic.jobs = o.syntheticJobs;
    return generateWorkload(o.synthetic);
}

json metricsJson(const SimulationMetrics& m)
{
    auto dist = [](const Distribution& d) {
        return json {{"mean", d.mean}, {"p50", d.p50}, {"p90", d.p90}, {"p99", d.p99}, {"max", d.max}};
    };
    return {{"jobs", m.jobs}, {"finished", m.finished}, {"unfinished", m.unfinished}, {"jct_s", dist(m.jctS)},
        {"wait_s", dist(m.waitS)}, {"first_wait_s", dist(m.firstWaitS)}, {"mean_slowdown", m.meanSlowdown},
        {"makespan_s", m.makespanS}, {"throughput_jobs_per_hour", m.throughputJobsPerHour},
        {"gpu_utilization", m.gpuUtilization}, {"gpu_utilization_busy", m.gpuUtilizationBusy},
        {"utilization_over_time", m.utilizationOverTime}, {"migrations", m.migrations},
        {"resource_skew", m.resourceSkew}, {"imbalance", m.imbalance}, {"fragmentation_index", m.fragmentationIndex},
        {"time_fragmentation", m.timeFragmentation}, {"jain_fairness", m.jainFairness}, {"energy_kwh", m.energyKwh},
        {"preemptions", m.preemptions}};
}

json jobJson(const JobRecord& r)
{
    json nodes = json::array();
    for (const auto& segment : r.segments)
        for (const auto& slice : segment.slices)
            if (std::find(nodes.begin(), nodes.end(), slice.node) == nodes.end())
                nodes.push_back(slice.node);
    auto time = [](double t) { return t < 0 ? json(nullptr) : json(t); };
    return {{"id", r.jobId}, {"user", r.user}, {"gpus", r.gpus}, {"gpu_milli", r.gpuMilli}, {"submit_s", r.submitS},
        {"start_s", time(r.startS)}, {"end_s", r.unfinished ? json(nullptr) : json(r.endS)}, {"nodes", nodes},
        {"preemptions", r.preemptions}, {"unfinished", r.unfinished}, {"note", r.note}};
}

void printText(std::ostream& out, const SimulationMetrics& m)
{
    out << "jobs " << m.jobs << " (finished " << m.finished << ", unfinished " << m.unfinished << ")\n"
        << "JCT s: mean " << m.jctS.mean << ", p50 " << m.jctS.p50 << ", p90 " << m.jctS.p90 << ", p99 " << m.jctS.p99
        << "\nwait s: mean " << m.waitS.mean << ", p50 " << m.waitS.p50 << ", p90 " << m.waitS.p90 << ", p99 "
        << m.waitS.p99 << "\nmakespan s " << m.makespanS << ", throughput " << m.throughputJobsPerHour
        << " jobs/h, GPU utilization " << m.gpuUtilization << "\nimbalance F " << m.imbalance << ", I_frag "
        << m.fragmentationIndex << ", F_time " << m.timeFragmentation << ", Jain " << m.jainFairness
        << "\nGPU energy kWh " << m.energyKwh << ", preemptions " << m.preemptions << "\n";
}

} // namespace

int runSimulate(const Args& args, std::ostream& out, std::ostream&)
{
    const SimulateOptions o = parseOptions(args, out);
    const ClusterModel cluster = clusterFrom(o);
    SimulationOptions options;
    options.policy = *policyFromString(o.policy);
    options.placement = *placementFromString(o.placement);
    options.maxNodesPerJob = o.maxNodes;
    options.recordTimeline = false;
    const Workload workload = workloadFrom(o, cluster.gpuCount());
    const bool asJson = o.json;
    Simulator simulator(cluster, GpuCatalog::builtin(), options);
    const SimulationResult result = simulator.run(workload);
    const SimulationMetrics metrics = computeMetrics(result);
    if (!asJson) {
        printText(out, metrics);
        return 0;
    }
    json jobs = json::array();
    for (const auto& record : result.jobs)
        jobs.push_back(jobJson(record));
    const json document = {{"cluster", clusterModelToJson(cluster)}, {"policy", toString(options.policy)},
        {"placement", toString(options.placement)}, {"metrics", metricsJson(metrics)}, {"jobs", jobs}};
    out << document.dump(1) << "\n";
    return 0;
}

} // namespace clusterplanner::cli
