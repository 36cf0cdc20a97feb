// SPDX-License-Identifier: GPL-3.0-or-later
// Alibaba PAI `cluster-trace-gpu-v2020` importer: pai_job_table + pai_task_table, headerless
// (docs/methods-scheduling.md §7).
#include "core/sched/tracecsv.h"
#include "core/sched/traces.h"
#include "core/sched/tracesupport.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

namespace clusterplanner::core::sched {

namespace {

struct PaiDemand
{
    double gpus = 0; ///< Σ inst_num·plan_gpu/100
    double cpuCores = 0; ///< Σ inst_num·plan_cpu/100
    double memoryGiB = 0; ///< Σ inst_num·plan_mem (GB in the trace, taken as GiB)
    double firstStartS = std::numeric_limits<double>::infinity();
    double lastEndS = -std::numeric_limits<double>::infinity();
    bool missingTime = false;
};

double optionalNonNegative(const CsvReader& csv, const std::string& column)
{
    return csv.isEmpty(column) ? 0.0 : csv.nonNegative(column);
}

std::unordered_map<std::string, PaiDemand> readTasks(std::istream& in, const TraceOptions& options)
{
    CsvReader csv(in, options.source + " (pai_task_table)",
        {"job_name", "task_name", "inst_num", "status", "start_time", "end_time", "plan_cpu", "plan_mem", "plan_gpu",
            "gpu_type"});
    std::unordered_map<std::string, PaiDemand> demands;
    while (csv.next()) {
        const double gpu = optionalNonNegative(csv, "plan_gpu");
        if (gpu <= 0)
            continue;
        const double instances = csv.isEmpty("inst_num") ? 1.0 : csv.nonNegative("inst_num");
        PaiDemand& d = demands[csv.text("job_name")];
        d.gpus += instances * gpu / 100.0;
        d.cpuCores += instances * optionalNonNegative(csv, "plan_cpu") / 100.0;
        d.memoryGiB += instances * optionalNonNegative(csv, "plan_mem");
        if (csv.isEmpty("start_time") || csv.isEmpty("end_time")) {
            d.missingTime = true;
            continue;
        }
        const double start = csv.time("start_time");
        const double end = csv.time("end_time");
        if (end < start)
            csv.fail("end_time", "is before start_time");
        d.firstStartS = std::min(d.firstStartS, start);
        d.lastEndS = std::max(d.lastEndS, end);
    }
    return demands;
}

} // namespace

Workload readPaiTrace(std::istream& jobTable, std::istream& taskTable, const TraceOptions& options)
{
    const auto demands = readTasks(taskTable, options);
    CsvReader csv(jobTable, options.source + " (pai_job_table)",
        {"job_name", "inst_id", "user", "status", "start_time", "end_time"});
    UserIndex users;
    Workload jobs;
    while (csv.next()) {
        auto it = demands.find(csv.text("job_name"));
        if (it == demands.end() || it->second.missingTime || csv.isEmpty("start_time"))
            continue;
        const PaiDemand& d = it->second;
        Job job;
        job.id = static_cast<int>(jobs.size());
        job.user = users.of(csv.text("user"));
        job.submitS = csv.time("start_time");
        job.durationS = std::max(0.0, d.lastEndS - std::max(d.firstStartS, job.submitS));
        if (d.gpus < 1.0) {
            job.gpus = 0;
            job.gpuMilli = std::clamp(static_cast<int>(std::lround(d.gpus * 1000)), 1, 999);
        } else {
            // Checked as a double: Σ inst_num·plan_gpu may exceed int (or be infinite) before the cast.
            if (!(d.gpus <= static_cast<double>(limits::kMaxJobGpus)))
                csv.fail("job_name",
                    "its tasks ask for more than the limit of " + std::to_string(limits::kMaxJobGpus)
                        + " GPUs (Σ inst_num·plan_gpu/100)");
            job.gpus = static_cast<int>(std::ceil(d.gpus - 1e-9));
            checkGpus(options, job.gpus, csv.row(), "job_name (Σ plan_gpu of its tasks)");
        }
        job.cpuCores = d.cpuCores;
        job.memoryGiB = d.memoryGiB;
        jobs.push_back(job);
    }
    finishWorkload(jobs, options);
    return jobs;
}

} // namespace clusterplanner::core::sched
