// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/memory/pipelinememory.h"

#include <algorithm>

namespace clusterplanner::core {

double inFlightMicroBatches(PipelineSchedule schedule, int pp, int virtualStages, int microBatches, int stage)
{
    const int p = std::max(1, pp);
    const int m = std::max(1, microBatches);
    const int i = std::clamp(stage, 0, p - 1);
    switch (schedule) {
    case PipelineSchedule::GPipe:
        return m;
    case PipelineSchedule::OneFOneB:
        return std::min(p - i, m);
    case PipelineSchedule::ZbH1:
        return std::min(p, m);
    case PipelineSchedule::DualPipe: // without a pipeline there is nothing to hold for a second direction
        return p > 1 ? std::min(p + 1, m) : 1;
    case PipelineSchedule::Interleaved: {
        const int v = std::max(1, virtualStages);
        const long long chunks = std::min(2LL * (p - i - 1) + 1LL * (v - 1) * p + 1, 1LL * m * v);
        return double(chunks) / v;
    }
    }
    return 1;
}

} // namespace clusterplanner::core
