// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/evaluation/purchasesensitivity.h"

#include "core/model/costdefaults.h"
#include "core/model/gpucatalog.h"

#include <algorithm>

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

/// The owned cluster busy only `utilisation` of its life: the same capex and opex buy fewer useful hours, so each
/// token of the run carries 1/utilisation of the cost (docs/methods-cost.md §8, U_billable). TCO does not change.
SensitivityCase atUtilisation(const Scenario& scenario, double utilisation, std::string change)
{
    SensitivityCase result = evaluateCase("utilisation", std::move(change), scenario);
    if (result.figures) {
        result.figures->run.ownedUsdPerMillionTokens /= utilisation;
    }
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
        // The core's default node price (core/cluster/clusterfigures.cpp) with only the GPU share scaled; without a
        // catalog price the core's own default stays and the case shows no change.
        const double overheadPerGpu = costDefaults().nodeOverheadUsd / std::max(1, costDefaults().gpusPerNode);
        if (gpuPrice)
            group.nodePriceUsd = group.gpusPerNode * (factor * *gpuPrice + overheadPerGpu);
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
    cases.push_back(atUtilisation(scenario, 0.8, "80 %"));
    cases.push_back(atUtilisation(scenario, 0.6, "60 %"));
    return cases;
}

} // namespace clusterplanner::core::evaluation
