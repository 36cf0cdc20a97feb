// SPDX-License-Identifier: GPL-3.0-or-later
// `clusterplanner cost --scenario FILE`: the cost model fed by the training engine's step time.
#pragma once

#include "core/cost/costmodel.h"
#include "core/model/scenario.h"
#include "core/perf/steptime.h"

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <iosfwd>
#include <optional>
#include <string>

namespace clusterplanner::core::cost {

/// Cost figures of one scenario: the owned cluster at the catalog's low/mid/high purchase price, the cloud
/// alternative at the scenario's $/GPU-h, and the training run as the engine estimates it.
struct ScenarioCost
{
    Scenario scenario;
    double years = 4;
    perf::StepTimeResult run; ///< engine figures: step time, tokens/s, hours, energy (kWh), cost (USD)
    /// Owned cluster at PriceLevel Low, Mid, High; empty when the catalog has no purchase price for the GPU.
    std::array<std::optional<cost::CostModel>, 3> owned;
    /// The assumptions behind `owned` at each PriceLevel, also where the catalog has no purchase price (then 0).
    std::array<cost::CostAssumptions, 3> assumptions;
    std::optional<double> cloudLowUsdPerGpuHour; ///< catalog range, for context
    std::optional<double> cloudHighUsdPerGpuHour;
};

/// Reads the scenario text (path is only used in messages) and runs the engine. Throws std::runtime_error
/// naming the file and the field (bad JSON, bad field, unknown GPU, a layout that cannot run).
ScenarioCost scenarioCost(const std::string& path, const std::string& text, double years);

/// What a scenario adds to the cost fields of `clusterplanner cost`: the scenario, the engine's run, capex and
/// TCO at each catalog price level, and the cloud alternative over the years.
nlohmann::json scenarioCostJson(const ScenarioCost& cost);
void printScenarioCost(std::ostream& out, const ScenarioCost& cost);

} // namespace clusterplanner::core::cost
