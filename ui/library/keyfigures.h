// SPDX-License-Identifier: GPL-3.0-or-later
// The key figures of a scenario's own layout, computed once and cached in the library.
#pragma once

#include "core/store/storetypes.h"

namespace clusterplanner::ui {

/// Evaluates the scenario's own layout with the sweep's evaluator (memory and step-time models). figures hold what the
/// library sorts by (GPUs of the layout, tokens/s of the job, cost of the whole run in US$ = cost per M tokens x
/// training tokens, MFU 0..1, step time in s); detail holds "valid", "fits", "peak_memory_gib", "capacity_gib",
/// "layout", "cost_per_m_tokens_usd" and, from the full step-time estimate, "energy_kwh" and "training_days" (absent,
/// with "energy_error", when that estimate refuses the set-up). A layout that cannot run gives zero figures with
/// "valid": false. Throws std::invalid_argument for a GPU type missing from the catalog.
core::CachedResult computeKeyFigures(const core::Scenario& scenario);

/// Energy of the run in kWh from a cached result's detail, or NaN when it is not there.
double energyKwhOf(const core::CachedResult& result);
/// Whether the layout fits in GPU memory according to a cached result's detail.
bool fitsOf(const core::CachedResult& result);

} // namespace clusterplanner::ui
