// SPDX-License-Identifier: GPL-3.0-or-later
// Efficiency files (--efficiency, data/efficiency.json): refused only with std::runtime_error.
#include "core/perf/efficiencyparams.h"
#include "fuzz/fuzzinput.h"

#include <stdexcept>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace clusterplanner;
    fuzz::refusesOnlyWith<std::runtime_error>([&] { core::perf::EfficiencyTable::fromJson(fuzz::textOf(data, size)); });
    return 0;
}
