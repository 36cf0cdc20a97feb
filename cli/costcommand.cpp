// SPDX-License-Identifier: GPL-3.0-or-later
// `clusterplanner cost`: capex, opex, TCO, cloud alternative and energy of N GPUs or of a scenario's cluster and
// run (docs/methods-cost.md §8). Both ways print the same cost fields; a scenario adds the engine's run.
#include "cli/commandline.h"
#include "cli/commandlist.h"
#include "core/cost/costmodel.h"
#include "core/cost/scenariocost.h"
#include "core/evaluation/purchasefigures.h"
#include "core/evaluation/purchasefiguresjson.h"
#include "core/model/costdefaults.h"
#include "core/model/gpucatalog.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iomanip>
#include <ostream>

namespace clusterplanner::cli {

using namespace clusterplanner::core; // commands are thin wrappers over the engine

namespace {

constexpr double kMaxUsd = 1e12;
const std::vector<std::string> kLevels = {"low", "mid", "high"};

/// The command line; unset overrides keep the catalog's and data/costs.json's defaults.
struct CostOptions
{
    std::string scenarioPath;
    int gpus = 0;
    std::string gpuId;
    std::optional<double> hours;
    std::string price = "mid";
    std::optional<double> gpuPriceUsd;
    std::optional<double> gpuHourUsd;
    std::optional<double> pue;
    std::optional<double> usdPerKwh;
    double years = costDefaults().amortisationYears;
    std::optional<double> utilization;
    bool json = false;
};

std::vector<std::string> gpuIds()
{
    std::vector<std::string> ids;
    for (const auto& gpu : GpuCatalog::builtin().gpus())
        ids.push_back(gpu.id);
    return ids;
}

void addClusterOptions(CLI::App& app, CostOptions& o)
{
    app.add_option("--scenario", o.scenarioPath, "a *.cplan.json scenario: its cluster, prices and the engine's run")
        ->type_name("FILE");
    app.add_option("--gpus", o.gpus, "GPUs to price (with --gpu and --hours, instead of --scenario)")
        ->check(CLI::Range(1, 10'000'000))
        ->default_str("")
        ->type_name("N");
    app.add_option("--gpu", o.gpuId, "catalog id of the GPU")->check(oneOf(gpuIds()));
    app.add_option("--hours", o.hours, "wall-clock hours of use to price (a scenario: the engine's run time)")
        ->check(CLI::Range(0.0, 1e9))
        ->type_name("HOURS");
    app.add_option("--price", o.price, "which end of the catalog's purchase and cloud price ranges")
        ->check(oneOf(kLevels));
    app.add_option("--years", o.years, "amortisation period of the capex, years")->check(CLI::Range(0.01, 100.0));
}

void addAssumptionOptions(CLI::App& app, CostOptions& o)
{
    app.add_option("--gpu-price-usd", o.gpuPriceUsd, "purchase price per GPU, USD (default: catalog)")
        ->check(CLI::Range(0.0, kMaxUsd));
    app.add_option("--gpu-hour-usd", o.gpuHourUsd, "cloud price per GPU-hour, USD (default: catalog or scenario)")
        ->check(CLI::Range(0.0, kMaxUsd));
    app.add_option("--pue", o.pue, "facility power / IT power (default: data/costs.json or scenario)")
        ->check(CLI::Range(1.0, 10.0));
    app.add_option("--usd-per-kwh", o.usdPerKwh, "electricity price, USD per kWh (default: data/costs.json)")
        ->check(CLI::Range(0.0, 100.0));
    app.add_option("--utilization", o.utilization, "GPU load u in P(u) = P_idle + u (TDP - P_idle), 0..1")
        ->check(CLI::Range(0.0, 1.0));
    app.add_flag("--json", o.json, "JSON output");
}

CostOptions parseOptions(const Args& args, std::ostream& out)
{
    CostOptions o;
    auto app = makeCommandApp("cost",
        "Capex, opex, TCO, power, energy and the cloud alternative of a GPU cluster (docs/methods-cost.md §8). "
        "Defaults: the catalog's prices (data/gpus.json) and data/costs.json; every one can be overridden.",
        {"clusterplanner cost --gpus 1024 --gpu A100-SXM-80GB --hours 240 --gpu-hour-usd 1",
            "clusterplanner cost --scenario data/scenarios/gpt3-175b-1024-a100.cplan.json --years 3 --json"});
    addClusterOptions(*app, o);
    addAssumptionOptions(*app, o);
    parseCommand(*app, args, out);
    if (o.scenarioPath.empty() && o.gpus == 0)
        throw UsageError("give --scenario FILE, or --gpus N --gpu ID --hours H");
    if (o.scenarioPath.empty() && o.gpuId.empty())
        throw UsageError("missing required option --gpu (clusterplanner catalog lists the ids)");
    if (o.scenarioPath.empty() && !o.hours)
        throw UsageError("missing required option --hours");
    if (!o.scenarioPath.empty() && (o.gpus > 0 || !o.gpuId.empty() || o.hours))
        throw UsageError("--scenario takes its GPUs and hours from the file; drop --gpus, --gpu and --hours");
    return o;
}

cost::PriceLevel priceLevel(const std::string& name)
{
    return static_cast<cost::PriceLevel>(std::find(kLevels.begin(), kLevels.end(), name) - kLevels.begin());
}

/// Each override the user gave, over the defaults in a.
void applyOverrides(const CostOptions& o, cost::CostAssumptions& a)
{
    a.gpuPriceUsd = o.gpuPriceUsd.value_or(a.gpuPriceUsd);
    a.cloudUsdPerGpuHour = o.gpuHourUsd.value_or(a.cloudUsdPerGpuHour);
    a.pue = o.pue.value_or(a.pue);
    a.usdPerKwh = o.usdPerKwh.value_or(a.usdPerKwh);
    a.gpuUtilization = o.utilization.value_or(a.gpuUtilization);
    a.years = o.years;
}

void requirePrices(const cost::CostAssumptions& a, const std::string& gpuId)
{
    if (a.gpuPriceUsd <= 0)
        throw UsageError("the catalog has no purchase price for " + gpuId + "; pass --gpu-price-usd");
    if (a.cloudUsdPerGpuHour <= 0)
        throw UsageError("the catalog has no cloud price for " + gpuId + "; pass --gpu-hour-usd");
}

nlohmann::json assumptionsJson(const cost::CostAssumptions& a)
{
    return {{"gpu_price_usd", a.gpuPriceUsd}, {"node_overhead_usd", a.nodeOverheadUsd},
        {"network_usd_per_gpu", a.networkUsdPerGpu}, {"gpus_per_node", a.gpusPerNode}, {"gpu_tdp_w", a.gpuTdpW},
        {"gpu_idle_w", a.gpuIdleW}, {"gpu_utilization", a.gpuUtilization}, {"node_overhead_w", a.nodeOverheadW},
        {"pue", a.pue}, {"usd_per_kwh", a.usdPerKwh}};
}

/// The fields both ways print, in this order.
nlohmann::json costJson(const cost::CostModel& m, const std::string& gpuId, double hours)
{
    const auto& a = m.assumptions();
    return {{"gpu", gpuId}, {"gpus", a.gpuCount}, {"nodes", m.nodeCount()}, {"hours", hours}, {"years", a.years},
        {"capex_usd", m.capexUsd()}, {"opex_per_year_usd", m.opexPerYearUsd()}, {"tco_usd", m.tcoUsd()},
        {"it_power_kw", m.itPowerKw()}, {"facility_power_kw", m.facilityPowerKw()}, {"energy_kwh", m.energyKwh(hours)},
        {"energy_cost_usd", m.energyCostUsd(hours)}, {"owned_cost_usd", m.ownedCostUsd(hours)},
        {"cloud_usd_per_gpu_hour", a.cloudUsdPerGpuHour}, {"cloud_cost_usd", m.cloudCostUsd(hours)},
        {"effective_usd_per_gpu_hour", m.effectiveUsdPerGpuHour()}, {"break_even_hours", m.breakEvenHours()},
        {"assumptions", assumptionsJson(a)}};
}

void printCost(std::ostream& out, const cost::CostModel& m, const std::string& gpuId, double hours)
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
    out << std::defaultfloat;
}

/// The topology's figures in text; `--json` has every one under "cluster".
void printCluster(std::ostream& out, const cluster::ClusterFigures& f)
{
    out << "cluster: " << f.gpus << " GPUs in " << f.nodes << " nodes, " << f.racks << " racks, " << f.switches
        << " switches, " << f.links << " links\n"
        << std::fixed << std::setprecision(2);
    const std::pair<const char*, double> rows[] = {{"bisection (Gb/s)", f.bisectionGbps},
        {"IT power (kW)", f.itPowerKw}, {"facility power (kW)", f.facilityPowerKw}, {"max rack (kW)", f.maxRackKw},
        {"capex (USD)", f.capexUsd}, {"opex per year (USD)", f.opexUsdPerYear}, {"TCO (USD)", f.tcoUsd}};
    for (const auto& [label, value] : rows)
        out << "  " << std::left << std::setw(22) << label << std::right << std::setw(18) << value << "\n";
    out << std::defaultfloat;
    for (const auto& issue : f.issues)
        out << "  issue: " << issue.where << ": " << issue.reason << "\n";
}

int runForGpus(const CostOptions& o, std::ostream& out)
{
    const GpuSpec& gpu = *GpuCatalog::builtin().find(o.gpuId);
    auto a = cost::costAssumptionsFor(gpu, o.gpus, priceLevel(o.price));
    applyOverrides(o, a);
    requirePrices(a, gpu.id);
    const cost::CostModel model(a);
    if (o.json)
        out << costJson(model, gpu.id, *o.hours).dump(2) << "\n";
    else
        printCost(out, model, gpu.id, *o.hours);
    return 0;
}

int runForScenario(const CostOptions& o, std::ostream& out)
{
    const cost::ScenarioCost c = cost::scenarioCost(o.scenarioPath, readTextFile(o.scenarioPath), o.years);
    auto a = c.assumptions[int(priceLevel(o.price))];
    // A training group priced per node (a GPU the catalog has no price for) prices its GPUs: the node less the
    // non-GPU parts the per-GPU model adds back (docs/methods-cost.md §8).
    const auto* group = c.scenario.topology.findGroup(c.scenario.trainingGroup);
    if (a.gpuPriceUsd <= 0 && group && group->nodePriceUsd && group->gpusPerNode > 0)
        a.gpuPriceUsd = std::max(0.0, (*group->nodePriceUsd - a.nodeOverheadUsd) / group->gpusPerNode);
    applyOverrides(o, a);
    requirePrices(a, c.scenario.cluster.gpuId);
    const cost::CostModel model(a);
    const double hours = c.run.trainingTimeS / 3600;
    // The whole cluster (topology, fabric, racks, capex/opex/TCO) and the run on its training group: the same
    // function the topology and purchase panels call (docs/methods-cluster.md §8).
    // --years, --pue and --usd-per-kwh apply to it as well; a lifetime the scenario sets itself wins over --years.
    Scenario priced = c.scenario;
    priced.economics.lifetimeYears = priced.economics.lifetimeYears.value_or(o.years);
    priced.economics.pue = o.pue.value_or(priced.economics.pue);
    priced.economics.electricityUsdPerKwh = o.usdPerKwh.value_or(priced.economics.electricityUsdPerKwh);
    const auto purchase = evaluation::purchaseFigures(priced);
    if (!purchase)
        throw std::runtime_error(o.scenarioPath + ": " + purchase.error().text());
    if (o.json) {
        nlohmann::json document = costJson(model, c.scenario.cluster.gpuId, hours);
        document.update(cost::scenarioCostJson(c));
        document["cluster"] = evaluation::clusterFiguresJson(purchase->cluster);
        document["training_run"] = evaluation::trainingRunJson(purchase->run);
        out << document.dump(2) << "\n";
        return 0;
    }
    // Two models price two things; say which is which, or their capex and power look like a contradiction.
    out << "per-GPU cost model of the run's GPUs (catalog GPU price, a default node and network share per GPU, power"
           " at the run's GPU utilisation; docs/methods-cost.md §8):\n";
    printCost(out, model, c.scenario.cluster.gpuId, hours);
    cost::printScenarioCost(out, c);
    out << "\nwhole cluster as its topology counts it (node prices, switches, optics, storage, facility build-out and"
           " maintenance, power at full load; docs/methods-cluster.md §4-§6; the Purchase panel's figures):\n";
    printCluster(out, purchase->cluster);
    return 0;
}

} // namespace

int runCost(const Args& args, std::ostream& out, std::ostream&)
{
    const CostOptions o = parseOptions(args, out);
    return o.scenarioPath.empty() ? runForGpus(o, out) : runForScenario(o, out);
}

} // namespace clusterplanner::cli
