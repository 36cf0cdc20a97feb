// SPDX-License-Identifier: GPL-3.0-or-later
// In-flight micro-batches per pipeline stage for each schedule (docs/methods-memory.md §3.5).
#pragma once

#include "core/model/layoutcheck.h" // microBatchesPerStep
#include "core/model/scenario.h"

namespace clusterplanner::core {

/// Activations alive on pipeline rank `stage` at its peak, in units of "one micro-batch through all layers of
/// the stage". GPipe: m on every stage. 1F1B: min(p - i, m). Interleaved with v chunks: Megatron's warm-up
/// 2(p - i - 1) + (v - 1)p chunks plus the one in its steady state, divided by v (rank 0: p + (p - 1)/v).
/// ZB-H1: min(p, m) on every stage (deferred weight-gradient passes keep their inputs).
double inFlightMicroBatches(PipelineSchedule schedule, int pp, int virtualStages, int microBatches, int stage);

} // namespace clusterplanner::core
