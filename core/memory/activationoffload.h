// SPDX-License-Identifier: GPL-3.0-or-later
// Activation offload to host memory (Megatron-Core --cpu-offloading through Transformer Engine): how many layers a
// run offloads, what stays on the GPU and what crosses the host link (docs/methods-memory.md §3.11).
#pragma once

#include "core/memory/memorycontext.h"

namespace clusterplanner::core {

/// Layers whose saved activations a run offloads: the stated count; for kActivationOffloadAuto the fewest that make
/// the layout fit (0 when it fits without, or when even the most allowed does not fit); 0 where an obstacle stands
/// (frameworkrules.h activationOffloadObstacle).
int activationOffloadLayersInEffect(const MemoryContext& ctx, const TrainingConfig& training);

/// The same for a scenario's model and GPU (an unknown GPU fits nothing, so auto resolves to 0): for callers that
/// hold no memory context, such as the launch-config writers and the report.
int activationOffloadLayersInEffect(const Scenario& scenario, const TrainingConfig& training);

/// Layers' worth of one micro-batch's activations on the GPU at the peak with `offloaded` of `layers` offloaded:
/// the layers never offloaded, and never fewer than two while any copy is in flight (Transformer Engine's double
/// buffer: layer i's copy finishes while layer i + 1 computes).
double residentActivationLayers(int layers, int offloaded);

/// Bytes one offloaded layer sends to the host in the forward, and fetches back in the backward, per micro-batch:
/// what the layer saves for backward without recompute, dense and MoE layers averaged.
double offloadedLayerBytes(const MemoryContext& ctx, const TrainingConfig& training);

} // namespace clusterplanner::core
