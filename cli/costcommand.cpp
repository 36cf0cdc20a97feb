// SPDX-License-Identifier: GPL-3.0-or-later
// `clusterplanner cost`: capex, opex, TCO, cloud alternative and energy of N GPUs (docs/methods-cost.md §8).
#include "cli/arguments.h"
#include "cli/commandlist.h"
#include "core/cost/costmodel.h"
#include "core/cost/scenariocost.h"
#include "core/model/gpucatalog.h"

#include <nlohmann/json.hpp>

#include <iomanip>
#include <ostream>

namespace clusterplanner::cli {

using namespace clusterplanner::core; // commands are thin wrappers over the engine

namespace {

constexpr double kMaxUsd = 1e12;

const GpuSpec& requireGpu(const std::string& id)
{
    const GpuSpec* gpu = GpuCatalog::builtin().find(id);
    if (!gpu)
        throw UsageError("--gpu: unknown GPU \"" + id + "\" (clusterplanner catalog lists the ids)");
    return *gpu;
}

cost::PriceLevel priceLevel(const std::string& text)
{
    if (text == "low")
        return cost::PriceLevel::Low;
    if (text == "mid")
        return cost::PriceLevel::Mid;
    if (text == "high")
        return cost::PriceLevel::High;
    throw UsageError("--price: \"" + text + "\" is not one of low, mid, high");
}

/// Catalog defaults for the GPU, then each override the user gave.
cost::CostAssumptions readAssumptions(Arguments& arguments, const GpuSpec& gpu, int gpuCount)
{
    auto a = cost::costAssumptionsFor(gpu, gpuCount, priceLevel(arguments.value("--price").value_or("mid")));
    a.gpuPriceUsd = arguments.number("--gpu-price-usd", a.gpuPriceUsd, 0, kMaxUsd);
    a.cloudUsdPerGpuHour = arguments.number("--gpu-hour-usd", a.cloudUsdPerGpuHour, 0, kMaxUsd);
    a.pue = arguments.number("--pue", a.pue, 1, 10);
    a.usdPerKwh = arguments.number("--usd-per-kwh", a.usdPerKwh, 0, 100);
    a.years = arguments.number("--years", a.years, 0.01, 100);
    a.gpuUtilization = arguments.number("--utilization", a.gpuUtilization, 0, 1);
    if (a.gpuPriceUsd <= 0)
        throw UsageError("the catalog has no purchase price for " + gpu.id + "; pass --gpu-price-usd");
    if (a.cloudUsdPerGpuHour <= 0)
        throw UsageError("the catalog has no cloud price for " + gpu.id + "; pass --gpu-hour-usd");
    return a;
}

nlohmann::json toJson(const cost::CostModel& m, const std::string& gpuId, double hours)
{
    const auto& a = m.assumptions();
    return {{"gpu", gpuId}, {"gpus", a.gpuCount}, {"nodes", m.nodeCount()}, {"hours", hours}, {"years", a.years},
        {"capex_usd", m.capexUsd()}, {"opex_per_year_usd", m.opexPerYearUsd()}, {"tco_usd", m.tcoUsd()},
        {"it_power_kw", m.itPowerKw()}, {"facility_power_kw", m.facilityPowerKw()}, {"energy_kwh", m.energyKwh(hours)},
        {"energy_cost_usd", m.energyCostUsd(hours)}, {"owned_cost_usd", m.ownedCostUsd(hours)},
        {"cloud_usd_per_gpu_hour", a.cloudUsdPerGpuHour}, {"cloud_cost_usd", m.cloudCostUsd(hours)},
        {"effective_usd_per_gpu_hour", m.effectiveUsdPerGpuHour()}, {"break_even_hours", m.breakEvenHours()},
        {"assumptions",
            {{"gpu_price_usd", a.gpuPriceUsd}, {"node_overhead_usd", a.nodeOverheadUsd},
                {"network_usd_per_gpu", a.networkUsdPerGpu}, {"gpus_per_node", a.gpusPerNode}, {"gpu_tdp_w", a.gpuTdpW},
                {"gpu_idle_w", a.gpuIdleW}, {"gpu_utilization", a.gpuUtilization}, {"node_overhead_w", a.nodeOverheadW},
                {"pue", a.pue}, {"usd_per_kwh", a.usdPerKwh}}}};
}

void printText(std::ostream& out, const cost::CostModel& m, const std::string& gpuId, double hours)
{
    const auto& a = m.assumptions();
    out << a.gpuCount << " x " << gpuId << " in " << m.nodeCount() << " nodes, " << hours << " h, amortised over "
        << a.years << " years\n"
        << std::fixed << std::setprecision(2);
    const std::pair<const char*, double> rows[]
        = {{"capex (USD)", m.capexUsd()}, {"opex per year (USD)", m.opexPerYearUsd()}, {"TCO (USD)", m.tcoUsd()},
            {"IT power (kW)", m.itPowerKw()}, {"facility power (kW)", m.facilityPowerKw()},
            {"energy (kWh)", m.energyKwh(hours)}, {"energy cost (USD)", m.energyCostUsd(hours)},
            {"owned cost (USD)", m.ownedCostUsd(hours)}, {"cloud cost (USD)", m.cloudCostUsd(hours)},
            {"effective USD/GPU-h", m.effectiveUsdPerGpuHour()}, {"break-even hours", m.breakEvenHours()}};
    for (const auto& [label, value] : rows)
        out << "  " << std::left << std::setw(22) << label << std::right << std::setw(18) << value << "\n";
}

} // namespace

int runCost(const Args& args, std::ostream& out, std::ostream&)
{
    Arguments arguments(args);
    const bool asJson = arguments.flag("--json");
    if (auto path = arguments.value("--scenario")) {
        const double years = arguments.number("--years", 4, 0.01, 100);
        arguments.finish();
        const cost::ScenarioCost result = cost::scenarioCost(*path, readTextFile(*path), years);
        if (asJson)
            out << cost::scenarioCostJson(result).dump(2) << "\n";
        else
            cost::printScenarioCost(out, result);
        return 0;
    }
    const auto gpus = arguments.optionalInteger("--gpus", 1, 10'000'000);
    if (!gpus)
        throw UsageError("missing required option --gpus");
    const GpuSpec& gpu = requireGpu(arguments.required("--gpu"));
    const auto hours = arguments.optionalNumber("--hours", 0, 1e9);
    if (!hours)
        throw UsageError("missing required option --hours");
    const auto assumptions = readAssumptions(arguments, gpu, static_cast<int>(*gpus));
    arguments.finish();
    const cost::CostModel model(assumptions);
    if (asJson)
        out << toJson(model, gpu.id, *hours).dump(2) << "\n";
    else
        printText(out, model, gpu.id, *hours);
    return 0;
}

} // namespace clusterplanner::cli
