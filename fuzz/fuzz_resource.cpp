// SPDX-License-Identifier: GPL-3.0-or-later
// Job resource strings ("2", "0.5", "2(V100)", "8G,0.5"): refused only with ResourceParseError; a parsed request
// keeps its documented invariants.
#include "core/queue/resourcerequest.h"
#include "fuzz/fuzzinput.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace clusterplanner::core::queue;
    clusterplanner::fuzz::refusesOnlyWith<ResourceParseError>([&] {
        const ResourceRequest request = parseResourceRequest(clusterplanner::fuzz::textOf(data, size));
        if (request.gpuCount < 1 || request.milliGpu < 1 || request.milliGpu > 1000 || request.memoryMiB < 0)
            std::abort();
    });
    return 0;
}
