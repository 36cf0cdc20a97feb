// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/memory/activationoffload.h"

#include "core/memory/activations.h"
#include "core/memory/memorymodel.h"
#include "core/model/frameworkrules.h"

#include <algorithm>

namespace clusterplanner::core {

namespace {

bool fitsWithOffload(const MemoryContext& ctx, TrainingConfig t, int layers)
{
    t.activationOffloadLayers = layers;
    return evaluateMemory(ctx, t).fits;
}

} // namespace

int activationOffloadLayersInEffect(const MemoryContext& ctx, const TrainingConfig& training)
{
    if (training.activationOffloadLayers == 0) // the common case, on the sweep's hot path: no lookup
        return 0;
    const auto obstacle
        = activationOffloadObstacle(training, frameworkCapabilities(training.framework), ctx.model.layers);
    if (obstacle != ActivationOffloadObstacle::None)
        return 0;
    if (training.activationOffloadLayers != kActivationOffloadAuto)
        return training.activationOffloadLayers;
    // Auto: memory falls as more layers go to the host, so the fewest that fit is found by bisection.
    const int most = ctx.model.layers - 1; // the decoder layers, as the launch configs count them
    if (fitsWithOffload(ctx, training, 0) || !fitsWithOffload(ctx, training, most))
        return 0;
    int low = 1, high = most; // high always fits
    while (low < high) {
        const int mid = low + (high - low) / 2;
        if (fitsWithOffload(ctx, training, mid))
            high = mid;
        else
            low = mid + 1;
    }
    return high;
}

int activationOffloadLayersInEffect(const Scenario& scenario, const TrainingConfig& training)
{
    if (training.activationOffloadLayers == 0)
        return 0;
    const GpuSpec* gpu = GpuCatalog::builtin().find(scenario.cluster.gpuId);
    return activationOffloadLayersInEffect(makeMemoryContext(scenario.model, gpu), training);
}

double residentActivationLayers(int layers, int offloaded)
{
    if (offloaded <= 0)
        return layers;
    return std::max(layers - offloaded, std::min(layers, 2));
}

double offloadedLayerBytes(const MemoryContext& ctx, const TrainingConfig& training)
{
    TrainingConfig saved = training;
    saved.recompute = Recompute::None;
    return meanLayerActivationBytes(ctx, saved);
}

} // namespace clusterplanner::core
