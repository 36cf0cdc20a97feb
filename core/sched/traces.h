// SPDX-License-Identifier: GPL-3.0-or-later
// Importers of public GPU-cluster job traces into a Workload (formats in docs/methods-scheduling.md §7 "Trace
// formats").
#pragma once

#include "core/sched/job.h"

#include <istream>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace clusterplanner::core::sched {

/// A trace that cannot be read. what() names the file, the row and, where it applies, the column, e.g.
/// "60_job.csv: row 7, column num_gpu: \"x\" is not a number".
class TraceFormatError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

enum class TraceFormat { Tiresias, Philly, Pai, Helios };

/// "tiresias", "philly", "pai", "helios".
std::optional<TraceFormat> traceFormatFromString(std::string_view text);

struct TraceOptions
{
    std::string source = "trace"; ///< file name used in messages
    int clusterGpus = 0; ///< > 0: a job asking for more GPUs is an error naming its row
    /// Submit times are shifted so that the first job arrives at 0 (traces use calendar or epoch times).
    bool rebaseTime = true;
};

/// Tiresias sample: header `job_id,num_gpu,submit_time,iterations,model_name,duration,interval`.
Workload readTiresiasTrace(std::istream& in, const TraceOptions& options);
/// Helios `cluster_log.csv` (header; `job_id,user,gpu_num,cpu_num,submit_time,duration` used; times as epoch
/// seconds or "YYYY-MM-DD HH:MM:SS"). CPU-only jobs (gpu_num 0) are left out.
Workload readHeliosTrace(std::istream& in, const TraceOptions& options);
/// Philly `cluster_job_log`: a JSON array of jobs; submit = submitted_time, run from the first attempt's start to
/// the last attempt's end, GPUs = Σ len(detail[].gpus) of the last attempt. Jobs that never ran are left out.
Workload readPhillyTrace(std::istream& in, const TraceOptions& options);
/// Alibaba PAI v2020, headerless as published. Jobs `job_name,inst_id,user,status,start_time,end_time`; tasks
/// `job_name,task_name,inst_num,status,start_time,end_time,plan_cpu,plan_mem,plan_gpu,gpu_type`. Joined on
/// job_name; GPU demand = Σ inst_num·plan_gpu/100 (below 1: a fractional job); run = first task start to last
/// task end. Jobs without GPU tasks or without times are left out.
Workload readPaiTrace(std::istream& jobTable, std::istream& taskTable, const TraceOptions& options);

/// Reads a file by format. For PAI, `path` is pai_job_table.csv and the task table is pai_task_table.csv in the
/// same folder. Throws TraceFormatError (also for an unreadable file).
Workload readTraceFile(const std::string& path, TraceFormat format, int clusterGpus);

} // namespace clusterplanner::core::sched
