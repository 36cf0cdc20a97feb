// SPDX-License-Identifier: GPL-3.0-or-later
// `clusterplanner cost --scenario FILE`: capex range, opex, TCO, cloud alternative, run cost and energy.
#include "core/cost/scenariocost.h"

#include "core/evaluation/evaluationerror.h"
#include "core/io/scenariojson.h"
#include "core/model/gpucatalog.h"
#include "core/perf/efficiencyparams.h"
#include "core/perf/powercap.h"

#include <nlohmann/json.hpp>

#include <iomanip>
#include <ostream>
#include <stdexcept>

namespace clusterplanner::core::cost {

namespace {

using nlohmann::json;

constexpr const char* kLevelNames[] = {"low", "mid", "high"};

/// Cost-model assumptions that draw power as the engine does (docs/methods-cost.md §8, steptime.cpp): each GPU at
/// gpuPowerUtilization·TDP with no separate idle term, node overhead nodeOverheadPerGpuFraction·TDP per GPU, the
/// scenario's PUE and electricity price. A full node then draws exactly what the engine charges to the run.
cost::CostAssumptions assumptionsFor(
    const Scenario& s, const GpuSpec& gpu, const perf::EfficiencyParams& e, cost::PriceLevel level, double years)
{
    auto a = cost::costAssumptionsFor(gpu, s.cluster.gpuCount, level);
    a.gpusPerNode = s.cluster.gpusPerNode;
    a.gpuIdleW = 0;
    // Under a power limit the GPU draws what the engine charges (core/perf/powercap.h).
    a.gpuUtilization = perf::trainingDrawW(s.cluster.gpuPowerLimitW, gpu.tdpW, e.gpuPowerUtilization) / gpu.tdpW;
    a.nodeOverheadW = e.nodeOverheadPerGpuFraction * gpu.tdpW * s.cluster.gpusPerNode;
    a.pue = s.economics.pue;
    a.usdPerKwh = s.economics.electricityUsdPerKwh;
    a.cloudUsdPerGpuHour = s.economics.gpuHourUsd;
    a.years = years;
    return a;
}

Scenario readScenario(const std::string& path, const std::string& text)
{
    try {
        return readScenarioFile(text);
    } catch (const ScenarioFormatError& error) {
        throw std::runtime_error(path + ": " + error.what());
    }
}

json optionalJson(const std::optional<double>& value)
{
    return value ? json(*value) : json(nullptr);
}

/// {"low": f(model), "mid": …, "high": …}, null where there is no purchase price.
template <typename F>
json byLevel(const ScenarioCost& c, F figure)
{
    json levels = json::object();
    for (int i = 0; i < 3; ++i)
        levels[kLevelNames[i]] = c.owned[i] ? json(figure(*c.owned[i])) : json(nullptr);
    return levels;
}

double hoursOf(const ScenarioCost& c)
{
    return c.run.trainingTimeS / 3600;
}

double perMillionTokens(const ScenarioCost& c, double usd)
{
    return usd / (c.scenario.economics.trainingTokens / 1e6);
}

double cloudOverYearsUsd(const ScenarioCost& c)
{
    return c.scenario.cluster.gpuCount * kHoursPerYear * c.years * c.scenario.economics.gpuHourUsd;
}

void printRow(std::ostream& out, const char* label, double value)
{
    out << "  " << std::left << std::setw(30) << label << std::right << std::setw(18) << value << "\n";
}

void printLevels(std::ostream& out, const ScenarioCost& c, const char* label, double (*figure)(const cost::CostModel&))
{
    out << "  " << std::left << std::setw(30) << label << std::right;
    for (const auto& model : c.owned)
        out << std::setw(18) << (model ? std::to_string(static_cast<long long>(figure(*model))) : std::string("n/a"));
    out << "\n";
}

} // namespace

ScenarioCost scenarioCost(const std::string& path, const std::string& text, double years)
{
    ScenarioCost c;
    c.scenario = readScenario(path, text);
    c.years = years;
    const GpuSpec* gpu = GpuCatalog::builtin().find(c.scenario.cluster.gpuId);
    // The step-time model itself checks neither the GPU nor the precision (FP8 falls back to the 16-bit rate on a GPU
    // without it): a run the engine refuses is not priced.
    if (const auto refused = scenarioInputError(c.scenario, gpu))
        throw std::runtime_error(path + ": " + refused->text());
    const auto& efficiency = perf::EfficiencyTable::builtin().forGpu(gpu->id);
    c.run = perf::estimateStepTime(c.scenario, *gpu, efficiency);
    if (!c.run.valid)
        throw std::runtime_error(path + ": training.layout: " + c.run.error);
    for (int i = 0; i < 3; ++i) {
        const auto level = static_cast<cost::PriceLevel>(i);
        c.assumptions[i] = assumptionsFor(c.scenario, *gpu, efficiency, level, years);
        if (c.assumptions[i].gpuPriceUsd > 0)
            c.owned[i].emplace(c.assumptions[i]);
    }
    c.cloudLowUsdPerGpuHour = gpu->cloudUsdPerGpuHour.lowUsd;
    c.cloudHighUsdPerGpuHour = gpu->cloudUsdPerGpuHour.highUsd;
    return c;
}

json scenarioCostJson(const ScenarioCost& c)
{
    const auto& s = c.scenario;
    const double hours = hoursOf(c);
    return {{"scenario", s.name},
        {"engine",
            {{"step_time_s", c.run.stepTimeS}, {"tokens_per_s", c.run.tokensPerS}, {"mfu", c.run.mfu},
                {"training_tokens", s.economics.trainingTokens}, {"training_hours", hours},
                {"gpu_hours", c.run.gpuHours}}},
        {"price_levels",
            {{"capex_usd", byLevel(c, [](const cost::CostModel& m) { return m.capexUsd(); })},
                {"tco_usd", byLevel(c, [](const cost::CostModel& m) { return m.tcoUsd(); })}}},
        {"cloud",
            {{"usd_per_gpu_hour", s.economics.gpuHourUsd},
                {"catalog_low_usd_per_gpu_hour", optionalJson(c.cloudLowUsdPerGpuHour)},
                {"catalog_high_usd_per_gpu_hour", optionalJson(c.cloudHighUsdPerGpuHour)},
                {"cost_over_years_usd", cloudOverYearsUsd(c)}}},
        {"run",
            {{"cost_usd", c.run.costUsd}, {"usd_per_million_tokens", perMillionTokens(c, c.run.costUsd)},
                {"owned_cost_usd", byLevel(c, [hours](const cost::CostModel& m) { return m.ownedCostUsd(hours); })},
                {"energy_kwh", c.run.energyKwh}, {"energy_cost_usd", c.run.energyCostUsd}}}};
}

void printScenarioCost(std::ostream& out, const ScenarioCost& c)
{
    const auto& s = c.scenario;
    out << s.name << ": " << s.cluster.gpuCount << " x " << s.cluster.gpuId << " in " << s.cluster.nodeCount()
        << " nodes\n"
        << std::setprecision(4) << "  engine: step " << c.run.stepTimeS << " s, " << c.run.tokensPerS
        << " tokens/s, MFU " << c.run.mfu << ", " << s.economics.trainingTokens << " tokens in " << hoursOf(c) << " h\n"
        << std::fixed << std::setprecision(2) << "  owned cluster (catalog price)" << std::setw(19) << "low"
        << std::setw(18) << "mid" << std::setw(18) << "high\n";
    printLevels(out, c, "capex (USD)", [](const cost::CostModel& m) { return m.capexUsd(); });
    printLevels(out, c, "TCO (USD)", [](const cost::CostModel& m) { return m.tcoUsd(); });
    printRow(out, "cloud USD/GPU-h", s.economics.gpuHourUsd);
    printRow(out, "cloud over the years (USD)", cloudOverYearsUsd(c));
    printRow(out, "run GPU-hours", c.run.gpuHours);
    printRow(out, "run cost, cloud (USD)", c.run.costUsd);
    printRow(out, "run USD per million tokens", perMillionTokens(c, c.run.costUsd));
    printRow(out, "run energy (kWh)", c.run.energyKwh);
    printRow(out, "run energy cost (USD)", c.run.energyCostUsd);
    out << std::defaultfloat;
}

} // namespace clusterplanner::core::cost
