// SPDX-License-Identifier: GPL-3.0-or-later
// Cluster files for the simulator: refused only with ClusterFormatError.
#include "core/sched/clusterfile.h"
#include "fuzz/fuzzinput.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace clusterplanner;
    fuzz::refusesOnlyWith<core::sched::ClusterFormatError>(
        [&] { core::sched::readSimulatorClusterFile(fuzz::textOf(data, size)); });
    return 0;
}
