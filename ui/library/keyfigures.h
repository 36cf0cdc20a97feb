// SPDX-License-Identifier: GPL-3.0-or-later
// The key figures of a scenario's own layout for the library and the comparison (core/evaluation/keyfigures.h
// computes them) and readers of a cached result's detail.
#pragma once

#include "core/store/storetypes.h"

namespace clusterplanner::ui {

/// core::keyFigures(scenario), for callers that store what they can and skip the rest: throws
/// std::invalid_argument with the engine's message (e.g. "cluster.gpu: unknown GPU type ...") when the scenario
/// cannot be evaluated at all. A layout that cannot run is a result with "valid": false, not an exception.
core::CachedResult computeKeyFigures(const core::Scenario& scenario);

/// Energy of the run in kWh from a cached result's detail, or NaN when it is not there.
double energyKwhOf(const core::CachedResult& result);
/// Whether the layout fits in GPU memory according to a cached result's detail.
bool fitsOf(const core::CachedResult& result);

} // namespace clusterplanner::ui
