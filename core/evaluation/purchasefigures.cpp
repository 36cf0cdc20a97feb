// SPDX-License-Identifier: GPL-3.0-or-later
// The cluster's derived figures plus the scenario's training run through the engine (docs/methods-cluster.md §7).
#include "core/evaluation/purchasefigures.h"

#include "core/cluster/trainingview.h"
#include "core/evaluation/scenarioevaluation.h"
#include "core/model/gpucatalog.h"

#include <stdexcept>

namespace clusterplanner::core::evaluation {

namespace {

constexpr double kHoursPerYear = 8760;

/// data/costs.json defaults with the scenario's economics overrides.
cluster::CostInputs costInputs(const EconomicsConfig& e)
{
    cluster::CostInputs in;
    in.usdPerKwh = e.electricityUsdPerKwh;
    in.pue = e.pue;
    in.lifetimeYears = e.lifetimeYears.value_or(in.lifetimeYears);
    in.maintenanceFractionPerYear = e.maintenanceFractionPerYear.value_or(in.maintenanceFractionPerYear);
    in.storageUsdPerGpu = e.storageUsdPerGpu.value_or(in.storageUsdPerGpu);
    in.facilityUsdPerKw = e.facilityUsdPerKw.value_or(in.facilityUsdPerKw);
    return in;
}

/// The run on its share of the owned cluster: the cluster's capex spread over its lifetime plus its opex, per hour,
/// times the run's share of the GPUs (docs/methods-cluster.md §7).
double ownedUsdPerHour(const cluster::ClusterFigures& f, double runGpus)
{
    if (f.gpus <= 0 || f.lifetimeYears <= 0)
        return 0;
    const double clusterPerHour = f.capexUsd / (f.lifetimeYears * kHoursPerYear) + f.opexUsdPerYear / kHoursPerYear;
    return clusterPerHour * runGpus / static_cast<double>(f.gpus);
}

TrainingRunFigures trainingRun(const Scenario& s, const cluster::ClusterFigures& f, const ScenarioEvaluation& ev)
{
    TrainingRunFigures run;
    if (!ev.valid()) {
        run.whyNot = ev.firstReason();
        return run;
    }
    const perf::StepTimeResult& t = ev.time;
    run.fits = true;
    run.tokensPerS = t.tokensPerS;
    run.mfu = t.mfu;
    run.timeToTrainDays = t.trainingTimeS / 86400;
    run.energyMwh = t.energyKwh / 1000;
    const double millions = s.economics.trainingTokens / 1e6;
    const double hours = t.trainingTimeS / 3600;
    if (millions > 0) {
        run.ownedUsdPerMillionTokens = ownedUsdPerHour(f, s.cluster.gpuCount) * hours / millions;
        run.cloudUsdPerMillionTokens = s.economics.gpuHourUsd * s.cluster.gpuCount * hours / millions;
    }
    return run;
}

} // namespace

Expected<PurchaseFigures> purchaseFigures(const Scenario& scenario)
{
    Scenario s = scenario;
    cluster::writeViewIntoTopology(s, GpuCatalog::builtin());
    // The site's PUE, where the topology gives one, is the one the run's energy is charged at too.
    if (s.topology.facility.pue)
        s.economics.pue = *s.topology.facility.pue;
    if (auto error = checkScenarioFields(s))
        return *error;
    PurchaseFigures figures;
    try {
        figures.cluster = cluster::clusterFigures(s.topology, GpuCatalog::builtin(), costInputs(s.economics));
    } catch (const std::invalid_argument& error) {
        return EvaluationError {"cluster.node_groups", error.what()};
    }
    EvaluationOptions options;
    options.memoryAdvice = false;
    options.timeline = false;
    // The cluster read: what the engine still refuses is the training run's (a precision its GPU lacks), which the
    // run's figures give as their reason; the cluster's price, power and fabric stand without it.
    figures.run = trainingRun(s, figures.cluster, evaluateScenario(s, options));
    return figures;
}

} // namespace clusterplanner::core::evaluation
