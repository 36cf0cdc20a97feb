// SPDX-License-Identifier: GPL-3.0-or-later
// Helpers shared by the trace importers (private to core/sched).
#pragma once

#include "core/io/inputlimits.h"
#include "core/sched/traces.h"

#include <map>
#include <string>

namespace clusterplanner::core::sched {

/// Dense user numbers 0, 1, … in order of first appearance.
class UserIndex
{
public:
    int of(const std::string& name);

private:
    std::map<std::string, int> m_ids;
};

/// Throws TraceFormatError naming the row when a job asks for more GPUs than options.clusterGpus.
void checkGpus(const TraceOptions& options, int gpus, int row, const std::string& column);
class CsvReader;
/// Optional columns any CSV trace may carry: `priority` (a number, larger first) and `gpu_request`, a resource
/// string ("2", "0.5", "2(V100)", "8G,0.5"; docs/methods-scheduling.md §7 resource strings) that replaces the
/// format's GPU count. Throws TraceFormatError naming the row for a malformed value.
void readOptionalColumns(const CsvReader& csv, Job& job);
/// Rebases submit times to start at 0 when options.rebaseTime.
void finishWorkload(Workload& jobs, const TraceOptions& options);

} // namespace clusterplanner::core::sched
