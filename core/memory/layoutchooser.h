// SPDX-License-Identifier: GPL-3.0-or-later
// Fills the "choose for me" fields of a case (null in the validation schema) with the best valid values by memory.
#pragma once

#include "core/io/validationcase.h"
#include "core/memory/memorycontext.h"

#include <string>
#include <vector>

namespace clusterplanner::core {

struct LayoutChoice
{
    TrainingConfig training; ///< the complete set-up used
    std::vector<std::string> chosen; ///< "tp 2", "recompute selective", ... for every field the planner filled
    bool found = false; ///< a valid layout was found (it may still not fit: check the estimate)
};

/// Memory-first choice (to be replaced by the sweep's best-by-time): the smallest TP (power of two, at most the
/// GPUs per node, dividing the heads), then the smallest PP, then recompute none / selective / full, taking the
/// first valid combination that fits; micro-batch 1 unless stated; global batch DP × micro-batch unless stated;
/// sequence parallel with TP > 1 under fused frameworks. Known fields are never changed.
LayoutChoice chooseLayout(const ValidationCase& c, const MemoryContext& ctx);

/// Appends to choice.chosen one note ("tp 2", ...) for every field of the case that was null, with the value
/// choice.training holds for it.
void describeChoices(const ValidationCase& c, LayoutChoice& choice);

} // namespace clusterplanner::core
