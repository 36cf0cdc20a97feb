// SPDX-License-Identifier: GPL-3.0-or-later
// Keeping a valid parallel layout when the GPU count changes: the nearest one, or the nearest counts that have one.
#pragma once

#include "core/model/scenario.h"

#include <optional>
#include <utility>

namespace clusterplanner::core {

/// The valid layout for `gpuCount` GPUs closest to the scenario's (fewest doublings or halvings of TP, PP and CP;
/// DP takes the rest; EP, virtual stages and micro-batch stay). The scenario's own layout when it is valid for
/// that count already; nothing when no layout is (e.g. a prime count with a power-of-two global batch).
std::optional<ParallelLayout> nearestValidLayout(const Scenario& scenario, int gpuCount);

/// The closest GPU counts below and above `gpuCount` that have a valid layout (0 where none within reach).
std::pair<int, int> nearestValidGpuCounts(const Scenario& scenario, int gpuCount);

} // namespace clusterplanner::core
