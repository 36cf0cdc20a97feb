// SPDX-License-Identifier: GPL-3.0-or-later
// "clusterplanner simulate": replay a trace or a synthetic workload on a cluster under one scheduling policy.
#include "cli/arguments.h"
#include "cli/commandlist.h"
#include "core/model/gpucatalog.h"
#include "core/sched/clustermodeljson.h"
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

ClusterModel clusterFrom(Arguments& arguments)
{
    if (auto path = arguments.value("--cluster")) {
        std::ifstream in(*path);
        if (!in)
            throw UsageError("--cluster: cannot open \"" + *path + "\"");
        std::stringstream text;
        text << in.rdbuf();
        try {
            return readClusterFile(text.str());
        } catch (const ClusterFormatError& error) {
            throw std::runtime_error(*path + ": " + error.what());
        }
    }
    ClusterConfig config;
    config.gpuCount = static_cast<int>(arguments.integer("--gpus", 0, 1, 10'000'000));
    if (config.gpuCount == 0)
        throw UsageError("give --cluster FILE or --gpus N");
    config.gpusPerNode = static_cast<int>(arguments.integer("--gpus-per-node", 8, 1, 1024));
    config.gpuId = arguments.value("--gpu").value_or(config.gpuId);
    if (!GpuCatalog::builtin().find(config.gpuId))
        throw UsageError("--gpu: unknown GPU \"" + config.gpuId + "\" (see clusterplanner catalog)");
    return homogeneousCluster(config, GpuCatalog::builtin());
}

Workload workloadFrom(Arguments& arguments, int clusterGpus)
{
    const auto trace = arguments.value("--trace");
    const auto synthetic = arguments.optionalInteger("--synthetic", 1, 10'000'000);
    if (trace.has_value() == synthetic.has_value())
        throw UsageError("give exactly one of --trace FILE and --synthetic JOBS");
    if (trace) {
        const std::string formatName = arguments.value("--trace-format").value_or("tiresias");
        const auto format = traceFormatFromString(formatName);
        if (!format)
            throw UsageError("--trace-format: \"" + formatName + "\" is not tiresias, philly, pai or helios");
        return readTraceFile(*trace, *format, clusterGpus);
    }
    SyntheticWorkloadSpec spec;
    spec.jobs = static_cast<int>(*synthetic);
    spec.seed = static_cast<std::uint64_t>(arguments.integer("--seed", 1, 0, 1LL << 62));
    spec.arrivalsPerHour = arguments.number("--arrival-rate", spec.arrivalsPerHour, 1e-6, 1e9);
    spec.runtimeCsvPath = arguments.value("--runtimes").value_or("");
    return generateWorkload(spec);
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
    Arguments arguments(args);
    const bool asJson = arguments.flag("--json");
    const ClusterModel cluster = clusterFrom(arguments);
    SimulationOptions options;
    const std::string policyName = arguments.required("--policy");
    const auto policy = policyFromString(policyName);
    if (!policy)
        throw UsageError("--policy: \"" + policyName
            + "\" is not one of fifo, sjf, sjf-estimate, fair, backfill, "
              "tiresias, gandiva, priority, gavel");
    options.policy = *policy;
    const std::string placementName = arguments.value("--placement").value_or("pack");
    const auto placement = placementFromString(placementName);
    if (!placement)
        throw UsageError("--placement: \"" + placementName + "\" is not pack, spread or balanced");
    options.placement = *placement;
    options.maxNodesPerJob = static_cast<int>(arguments.integer("--max-nodes", 0, 0, 1'000'000));
    options.recordTimeline = false;
    const Workload workload = workloadFrom(arguments, cluster.gpuCount());
    arguments.finish();

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
