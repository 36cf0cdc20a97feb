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
    case PipelineSchedule::Interleaved: {
        const int v = std::max(1, virtualStages);
        const int chunks = std::min(2 * (p - i - 1) + (v - 1) * p + 1, m * v);
        return double(chunks) / v;
    }
    }
    return 1;
}

int microBatchesPerStep(const TrainingConfig& t)
{
    const long long perPass = std::max(1LL, 1LL * std::max(1, t.layout.dp) * std::max(1, t.microBatch));
    return int(std::max(1LL, (t.globalBatch + perPass - 1) / perPass));
}

} // namespace clusterplanner::core
