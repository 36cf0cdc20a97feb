// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/evaluation/strongscaling.h"

#include "core/model/scenariofields.h"

#include "core/evaluation/scenarioevaluation.h"
#include "core/model/layoutcheck.h"
#include "core/perf/analytics.h"

#include <cmath>
#include <optional>

namespace clusterplanner::core {

namespace {

constexpr int kMaxPoints = 16;

std::optional<ScalingPoint> pointAt(Scenario scenario, int dp)
{
    auto& layout = scenario.training.layout;
    setDataParallel(layout, dp);
    scenario.cluster.gpuCount = layout.gpuCount();
    const ScenarioEvaluation e = evaluateScenario(scenario, EvaluationOptions {false, false, 0});
    if (!e.valid() || !std::isfinite(e.time.stepTimeS) || e.time.stepTimeS <= 0)
        return std::nullopt; // the fit needs positive finite times
    return ScalingPoint {scenario.cluster.gpuCount, e.time.stepTimeS, e.time.tokensPerS, 0};
}

/// Fills efficiencies and returns Amdahl's parallel fraction, fitted on speed-ups relative to the first point
/// counted in multiples of its GPU count.
double fitPoints(std::vector<ScalingPoint>& points)
{
    std::vector<int> gpus, multiples;
    std::vector<double> times, speedups;
    for (const auto& p : points) {
        gpus.push_back(p.gpus);
        times.push_back(p.stepTimeS);
        multiples.push_back(p.gpus / points.front().gpus);
        speedups.push_back(points.front().stepTimeS / p.stepTimeS);
    }
    const std::vector<double> efficiency = perf::scalingEfficiency(gpus, times);
    for (std::size_t i = 0; i < points.size(); ++i)
        points[i].efficiency = efficiency[i];
    return perf::fitAmdahlParallelFraction(multiples, speedups);
}

} // namespace

StrongScaling strongScaling(const Scenario& scenario)
{
    StrongScaling result;
    const ParallelLayout& l = scenario.training.layout;
    const long long modelParallel = 1LL * l.tp * l.pp * l.cp;
    result.error = evaluateScenario(scenario, EvaluationOptions {false, false, 0}).error;
    if (result.error || modelParallel < 1)
        return result;
    for (long long dp = 1; int(result.points.size()) < kMaxPoints && dp <= scenario.training.globalBatch
         && dp * modelParallel <= kMaxGpus;
         dp *= 2)
        if (auto point = pointAt(scenario, int(dp)))
            result.points.push_back(*point);
    if (result.points.size() >= 2) // valid points have positive times: the fit's preconditions hold
        result.amdahlParallelFraction = fitPoints(result.points);
    return result;
}

} // namespace clusterplanner::core
