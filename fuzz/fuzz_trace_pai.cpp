// SPDX-License-Identifier: GPL-3.0-or-later
// Alibaba PAI traces: the input is the job table, then a line "---", then the task table (one file per seed).
#include "core/sched/traces.h"
#include "fuzz/fuzzinput.h"

#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace clusterplanner::core::sched;
    const std::string text = clusterplanner::fuzz::textOf(data, size);
    const auto split = text.find("\n---\n");
    std::istringstream jobs(text.substr(0, split));
    std::istringstream tasks(split == std::string::npos ? std::string() : text.substr(split + 5));
    const TraceOptions options;
    clusterplanner::fuzz::refusesOnlyWith<TraceFormatError>([&] { readPaiTrace(jobs, tasks, options); });
    return 0;
}
