// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/evaluation/purchasesensitivity.h"

#include "core/model/costdefaults.h"
#include "core/model/gpucatalog.h"

namespace clusterplanner::core::evaluation {

namespace {

SensitivityCase evaluateCase(std::string assumption, std::string change, Scenario scenario)
{
    SensitivityCase result {std::move(assumption), std::move(change), std::move(scenario), std::nullopt, {}};
    const auto figures = purchaseFigures(result.scenario);
    if (figures)
        result.figures = *figures;
    else
        result.error = figures.error().text();
    return result;
}

} // namespace

Scenario withGpuPriceFactor(const Scenario& scenario, double factor)
{
    Scenario changed = scenario;
    for (auto& group : changed.topology.groups) {
        if (group.nodePriceUsd) {
            *group.nodePriceUsd *= factor;
            continue;
        }
        const GpuSpec* gpu = GpuCatalog::builtin().find(group.gpuId);
        const auto gpuPrice = gpu ? gpu->purchaseUsd.midUsd() : std::nullopt;
        if (gpuPrice) // without a catalog price the core's own default stays (and the case shows no change)
            group.nodePriceUsd = factor * *gpuPrice * group.gpusPerNode + costDefaults().nodeOverheadUsd;
    }
    return changed;
}

Scenario withEnergyPriceFactor(const Scenario& scenario, double factor)
{
    Scenario changed = scenario;
    changed.economics.electricityUsdPerKwh *= factor;
    return changed;
}

std::vector<SensitivityCase> purchaseSensitivity(const Scenario& scenario)
{
    std::vector<SensitivityCase> cases;
    cases.push_back(evaluateCase("GPU price", "-20 %", withGpuPriceFactor(scenario, 0.8)));
    cases.push_back(evaluateCase("GPU price", "+20 %", withGpuPriceFactor(scenario, 1.2)));
    cases.push_back(evaluateCase("energy price", "-50 %", withEnergyPriceFactor(scenario, 0.5)));
    cases.push_back(evaluateCase("energy price", "+50 %", withEnergyPriceFactor(scenario, 1.5)));
    return cases;
}

} // namespace clusterplanner::core::evaluation
