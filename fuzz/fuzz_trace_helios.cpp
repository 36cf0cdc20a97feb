// SPDX-License-Identifier: GPL-3.0-or-later
// Helios traces: refused only with TraceFormatError naming the row (or job) and column (or field).
#include "core/sched/traces.h"
#include "fuzz/fuzzinput.h"

#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace clusterplanner::core::sched;
    std::istringstream in(clusterplanner::fuzz::textOf(data, size));
    const TraceOptions options;
    clusterplanner::fuzz::refusesOnlyWith<TraceFormatError>([&] { readHeliosTrace(in, options); });
    return 0;
}
