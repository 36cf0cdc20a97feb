// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/evaluation/purchasesensitivity.h"

#include "core/cluster/clusterfigures.h"
#include "core/model/gpucatalog.h"

namespace clusterplanner::core::evaluation {

namespace {

enum class Input { GpuPrice, EnergyPrice, Utilisation };

/// The strip's cases in display order.
struct CaseSpec
{
    const char* assumption;
    const char* change;
    Input input;
    double factor;
};
constexpr CaseSpec kCases[] = {
    {"GPU price", "-20 %", Input::GpuPrice, 0.8},
    {"GPU price", "+20 %", Input::GpuPrice, 1.2},
    {"energy price", "-50 %", Input::EnergyPrice, 0.5},
    {"energy price", "+50 %", Input::EnergyPrice, 1.5},
    {"utilisation", "80 %", Input::Utilisation, 0.8},
    {"utilisation", "60 %", Input::Utilisation, 0.6},
};

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
/// token of the run carries 1/utilisation of the cost (docs/methods-cost.md §8, U_billable). TCO does not change,
/// so the base figures serve and the engine does not run again.
SensitivityCase atUtilisation(
    const Scenario& scenario, const PurchaseFigures& base, double utilisation, std::string change)
{
    SensitivityCase result {"utilisation", std::move(change), scenario, base, {}};
    result.figures->run.ownedUsdPerMillionTokens /= utilisation;
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
        // Only the GPU share of the default node price moves; without a catalog price the core's own default
        // stays and the case shows no change.
        if (gpuPrice)
            group.nodePriceUsd = cluster::defaultNodePriceUsd(group.gpusPerNode, factor * *gpuPrice);
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
    const auto base = purchaseFigures(scenario);
    if (base)
        return purchaseSensitivity(scenario, *base);
    // Nothing to vary: every case carries the base scenario's error.
    std::vector<SensitivityCase> cases;
    for (const auto& spec : kCases)
        cases.push_back({spec.assumption, spec.change, scenario, std::nullopt, base.error().text()});
    return cases;
}

std::vector<SensitivityCase> purchaseSensitivity(const Scenario& scenario, const PurchaseFigures& base)
{
    std::vector<SensitivityCase> cases;
    for (const auto& spec : kCases) {
        switch (spec.input) {
        case Input::GpuPrice:
            cases.push_back(evaluateCase(spec.assumption, spec.change, withGpuPriceFactor(scenario, spec.factor)));
            break;
        case Input::EnergyPrice:
            cases.push_back(evaluateCase(spec.assumption, spec.change, withEnergyPriceFactor(scenario, spec.factor)));
            break;
        case Input::Utilisation:
            cases.push_back(atUtilisation(scenario, base, spec.factor, spec.change));
            break;
        }
    }
    return cases;
}

} // namespace clusterplanner::core::evaluation
