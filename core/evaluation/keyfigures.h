// SPDX-License-Identifier: GPL-3.0-or-later
// The key figures of a scenario's own layout, as the library caches and sorts them.
#pragma once

#include "core/evaluation/expected.h"
#include "core/store/storetypes.h"

namespace clusterplanner::core {

/// Evaluates the scenario's own layout as the sweep would (the candidate applied: evaluateScenario). figures hold
/// what the library sorts by (GPUs of the layout, tokens/s of the job, cost of the whole run in US$ = cost per M
/// tokens × training tokens, MFU 0..1, step time in s); detail holds "valid", "fits", "peak_memory_gib",
/// "capacity_gib", "layout" and, for a layout that runs, "cost_per_m_tokens_usd", "energy_kwh" and "training_days".
/// A layout that cannot run gives zero figures with "valid": false and its "reasons". A scenario that cannot be
/// evaluated at all (unknown GPU, field out of range) gives the error. Never throws.
Expected<CachedResult> keyFigures(const Scenario& scenario);

} // namespace clusterplanner::core
