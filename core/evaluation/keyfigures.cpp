// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/evaluation/keyfigures.h"

#include "core/evaluation/scenarioevaluation.h"
#include "core/memory/memorycontext.h"
#include "core/memory/memorymodel.h"

namespace clusterplanner::core {

namespace {

constexpr double kSecondsPerDay = 86400.0;

nlohmann::json layoutJson(const ParallelLayout& layout)
{
    return {{"dp", layout.dp}, {"tp", layout.tp}, {"pp", layout.pp}, {"cp", layout.cp}, {"ep", layout.ep}};
}

/// What a layout that cannot run still reports: the capacity it would have had and why it cannot run.
void describeInvalid(CachedResult& result, const Scenario& scenario, const ScenarioEvaluation& e)
{
    result.detail["capacity_gib"] = makeMemoryContext(scenario.model, e.gpu).capacityBytes / kGiB;
    result.detail["reasons"] = e.reasons;
}

void fillValid(CachedResult& result, const Scenario& scenario, const ScenarioEvaluation& e)
{
    const perf::StepTimeResult& time = e.time;
    // Rented cost per million tokens, the sweep's ranking figure (core/sweep/layoutevaluator.cpp).
    const double gpuSecondsPerMToken = 1e6 / time.tokensPerSPerGpu;
    const double costPerMTokensUsd = gpuSecondsPerMToken / 3600.0 * scenario.economics.gpuHourUsd;
    result.figures.tokensPerS = time.tokensPerSPerGpu * e.training.layout.gpuCount();
    result.figures.mfu = time.mfu;
    result.figures.stepTimeS = time.stepTimeS;
    result.figures.costUsd = costPerMTokensUsd * scenario.economics.trainingTokens / 1e6;
    result.detail["fits"] = e.memory.estimate.fits;
    result.detail["peak_memory_gib"] = e.memory.estimate.peakReservedBytes / kGiB;
    result.detail["capacity_gib"] = e.memory.estimate.usableBytes / kGiB;
    result.detail["cost_per_m_tokens_usd"] = costPerMTokensUsd;
    result.detail["energy_kwh"] = time.energyKwh;
    result.detail["training_days"] = time.trainingTimeS / kSecondsPerDay;
}

} // namespace

Expected<CachedResult> keyFigures(const Scenario& scenario)
{
    const ScenarioEvaluation e = evaluateScenario(scenario, candidateOf(scenario), EvaluationOptions {false, false, 0});
    if (e.error)
        return *e.error;
    CachedResult result;
    result.figures.gpuCount = scenario.training.layout.gpuCount();
    result.detail = {{"valid", e.valid()}, {"fits", false}, {"peak_memory_gib", 0.0}, {"capacity_gib", 0.0},
        {"layout", layoutJson(scenario.training.layout)}};
    if (e.valid())
        fillValid(result, scenario, e);
    else
        describeInvalid(result, scenario, e);
    return result;
}

} // namespace clusterplanner::core
