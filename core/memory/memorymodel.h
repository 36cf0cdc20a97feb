// SPDX-License-Identifier: GPL-3.0-or-later
// Per-GPU memory of a training layout: peak allocated and reserved per stage, fit, B_max, remedies.
#pragma once

#include "core/memory/memorycontext.h"
#include "core/memory/memorytypes.h"

#include <string>
#include <vector>

namespace clusterplanner::core {

/// Evaluates one layout (training.layout plus micro-batch, precision, recompute, ZeRO, schedule, framework).
/// Allocation-free and cheap (well under a microsecond); call checkLayout() first for validity.
///
/// Phases per stage: (1) start of backward, when every in-flight micro-batch's activations, the loss tensors and
/// autocast weight copies are alive; with full recompute also the point deep in backward where one recomputed
/// layer and almost all gradients coexist; (2) end of the step: all gradients plus what the caller still holds.
/// The peak is the larger; reserved adds the fragmentation share of the transient part.
MemoryEstimate evaluateMemory(const MemoryContext& ctx, const TrainingConfig& training);

/// Largest micro-batch (<= limit) whose layout fits, 0 when even 1 does not.
int maxMicroBatch(const MemoryContext& ctx, TrainingConfig training, int limit = 4096);

/// Seed form (docs/methods-memory.md §3.7): B_max = floor((M_GPU - M_static - M_reserved) / k), k = bytes per sample.
int seedMaxBatch(double gpuBytes, double staticBytes, double reservedBytes, double bytesPerSample);

/// For a layout that does not fit: single changes that make it fit, e.g. "enable full recompute", "ZeRO-3",
/// "TP 8", each with the resulting peak. Empty when it fits or nothing single helps. Builds strings: not for
/// inner loops.
std::vector<std::string> fitRemedies(const MemoryContext& ctx, const TrainingConfig& training, int gpusPerNode);

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

} // namespace clusterplanner::core
