// SPDX-License-Identifier: GPL-3.0-or-later
// How a purchase's figures move when one assumption changes (GPU price, energy price, utilisation): purchaseFigures()
// of the scenario with that one input changed, for the purchase panel's sensitivity strip.
#pragma once

#include "core/evaluation/purchasefigures.h"
#include "core/model/scenario.h"

#include <optional>
#include <string>
#include <vector>

namespace clusterplanner::core::evaluation {

struct SensitivityCase
{
    std::string assumption; ///< "GPU price", "energy price", "utilisation"
    std::string change; ///< "−20 %", "+20 %", "×0.5"…
    Scenario scenario; ///< the base scenario with the one input changed
    std::optional<PurchaseFigures> figures; ///< unset when the core could not evaluate it (error says why)
    std::string error;
};

/// GPU prices times `factor`: an explicit node price is scaled whole; an unset one becomes the core's default node
/// price with only its GPU share scaled (docs/methods-cost.md §9).
Scenario withGpuPriceFactor(const Scenario& scenario, double factor);
/// Electricity price times `factor`.
Scenario withEnergyPriceFactor(const Scenario& scenario, double factor);

/// The cases of the sensitivity strip, in display order: GPU price −20 % and +20 %, energy price −50 % and +50 %,
/// utilisation 80 % and 60 % (owned $ per M tokens ÷ utilisation; TCO unchanged) (docs/methods-cost.md §9).
std::vector<SensitivityCase> purchaseSensitivity(const Scenario& scenario);
/// The same from the scenario's own figures, already computed by the caller: the utilisation cases reuse them.
std::vector<SensitivityCase> purchaseSensitivity(const Scenario& scenario, const PurchaseFigures& base);

} // namespace clusterplanner::core::evaluation
