// SPDX-License-Identifier: GPL-3.0-or-later
// Tiresias and Helios CSV importers, format names and the shared post-processing of every importer.
#include "core/sched/tracecsv.h"
#include "core/sched/traces.h"
#include "core/sched/tracesupport.h"

#include "core/queue/resourcerequest.h"

#include <cmath>
#include <fstream>
#include <map>

namespace clusterplanner::core::sched {

std::optional<TraceFormat> traceFormatFromString(std::string_view text)
{
    if (text == "tiresias")
        return TraceFormat::Tiresias;
    if (text == "philly")
        return TraceFormat::Philly;
    if (text == "pai")
        return TraceFormat::Pai;
    if (text == "helios")
        return TraceFormat::Helios;
    return std::nullopt;
}

int UserIndex::of(const std::string& name)
{
    auto [it, inserted] = m_ids.emplace(name, static_cast<int>(m_ids.size()));
    return it->second;
}

void readOptionalColumns(const CsvReader& csv, Job& job)
{
    if (csv.hasColumn("priority") && !csv.isEmpty("priority"))
        // Range-checked before the cast: a priority past int is refused with its row (fuzz_trace_tiresias found
        // 2.9e22 converted to int, undefined behaviour).
        job.priority = static_cast<int>(csv.wholeNumber("priority", -1'000'000'000, 1'000'000'000));
    if (!csv.hasColumn("gpu_request") || csv.isEmpty("gpu_request"))
        return;
    queue::ResourceRequest request;
    try {
        request = queue::parseResourceRequest(csv.text("gpu_request"));
    } catch (const std::invalid_argument& error) {
        csv.fail("gpu_request", error.what());
    }
    const bool fractional = request.milliGpu < 1000;
    job.gpus = fractional ? 0 : request.gpuCount;
    job.gpuMilli = fractional ? request.milliGpu : 0;
    job.gpuMemoryMiB = static_cast<double>(request.memoryMiB);
    job.gpuType = request.gpuType;
}

void checkGpus(const TraceOptions& options, int gpus, int row, const std::string& column)
{
    if (options.clusterGpus > 0 && gpus > options.clusterGpus)
        throw TraceFormatError(options.source + ": row " + std::to_string(row) + ", column " + column
            + ": job asks for " + std::to_string(gpus) + " GPUs, the cluster has "
            + std::to_string(options.clusterGpus));
}

void finishWorkload(Workload& jobs, const TraceOptions& options)
{
    if (!options.rebaseTime || jobs.empty())
        return;
    double first = jobs.front().submitS;
    for (const Job& job : jobs)
        first = std::min(first, job.submitS);
    for (Job& job : jobs)
        job.submitS -= first;
}

Workload readTiresiasTrace(std::istream& in, const TraceOptions& options)
{
    CsvReader csv(in, options.source);
    csv.require({"job_id", "num_gpu", "submit_time", "duration"});
    Workload jobs;
    while (csv.next()) {
        Job job;
        job.id = static_cast<int>(csv.wholeNumber("job_id", 0, limits::kMaxJobId));
        job.gpus = static_cast<int>(csv.wholeNumber("num_gpu", 1, limits::kMaxJobGpus));
        checkGpus(options, job.gpus, csv.row(), "num_gpu");
        job.submitS = csv.nonNegative("submit_time");
        job.durationS = csv.nonNegative("duration");
        readOptionalColumns(csv, job);
        jobs.push_back(job);
    }
    finishWorkload(jobs, options);
    return jobs;
}

Workload readHeliosTrace(std::istream& in, const TraceOptions& options)
{
    CsvReader csv(in, options.source);
    csv.require({"job_id", "user", "gpu_num", "submit_time", "duration"});
    const bool hasCpu = csv.hasColumn("cpu_num");
    UserIndex users;
    Workload jobs;
    while (csv.next()) {
        const long long gpus = csv.wholeNumber("gpu_num", 0, limits::kMaxJobGpus);
        if (gpus == 0)
            continue;
        Job job;
        job.id = static_cast<int>(jobs.size());
        job.user = users.of(csv.text("user"));
        job.gpus = static_cast<int>(gpus);
        checkGpus(options, job.gpus, csv.row(), "gpu_num");
        job.submitS = csv.time("submit_time");
        job.durationS = csv.nonNegative("duration");
        job.cpuCores = hasCpu && !csv.isEmpty("cpu_num") ? csv.nonNegative("cpu_num") : 0.0;
        readOptionalColumns(csv, job);
        jobs.push_back(job);
    }
    finishWorkload(jobs, options);
    return jobs;
}

Workload readTraceFile(const std::string& path, TraceFormat format, int clusterGpus)
{
    TraceOptions options;
    options.source = path.substr(path.find_last_of('/') + 1);
    options.clusterGpus = clusterGpus;
    std::ifstream in(path);
    if (!in)
        throw TraceFormatError(path + ": cannot open the file");
    switch (format) {
    case TraceFormat::Tiresias:
        return readTiresiasTrace(in, options);
    case TraceFormat::Helios:
        return readHeliosTrace(in, options);
    case TraceFormat::Philly:
        return readPhillyTrace(in, options);
    case TraceFormat::Pai:
        break;
    }
    const std::string folder = path.find('/') == std::string::npos ? "" : path.substr(0, path.find_last_of('/') + 1);
    std::ifstream tasks(folder + "pai_task_table.csv");
    if (!tasks)
        throw TraceFormatError(folder + "pai_task_table.csv: cannot open the task table next to the job table");
    return readPaiTrace(in, tasks, options);
}

} // namespace clusterplanner::core::sched
