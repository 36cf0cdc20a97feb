// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/library/keyfigures.h"

#include "core/model/gpucatalog.h"
#include "core/perf/efficiencyparams.h"
#include "core/perf/steptime.h"
#include "core/sweep/layoutevaluator.h"
#include "core/sweep/layoutspace.h"

#include <limits>
#include <stdexcept>

namespace clusterplanner::ui {

namespace {

constexpr double kSecondsPerDay = 86400.0;

nlohmann::json layoutJson(const core::ParallelLayout& layout)
{
    return {{"dp", layout.dp}, {"tp", layout.tp}, {"pp", layout.pp}, {"cp", layout.cp}, {"ep", layout.ep}};
}

} // namespace

core::CachedResult computeKeyFigures(const core::Scenario& scenario)
{
    const core::GpuSpec* gpu = core::GpuCatalog::builtin().find(scenario.cluster.gpuId);
    if (!gpu)
        throw std::invalid_argument("unknown GPU type '" + scenario.cluster.gpuId + "'");
    const core::TrainingLayoutEvaluator evaluator(scenario);
    const core::LayoutResult layout = evaluator.evaluate(core::candidateOf(scenario));
    const double gpus = scenario.training.layout.gpuCount();

    core::CachedResult result;
    result.figures.gpuCount = scenario.training.layout.gpuCount();
    result.detail = {{"valid", layout.valid}, {"fits", layout.fits}, {"peak_memory_gib", layout.peakMemoryGiB},
        {"capacity_gib", layout.capacityGiB}, {"layout", layoutJson(scenario.training.layout)}};
    if (!layout.valid)
        return result;
    result.figures.tokensPerS = layout.tokensPerSPerGpu * gpus;
    result.figures.mfu = layout.mfu;
    result.figures.stepTimeS = layout.stepTimeS;
    result.figures.costUsd = layout.costPerMTokensUsd * scenario.economics.trainingTokens / 1e6;
    result.detail["cost_per_m_tokens_usd"] = layout.costPerMTokensUsd;
    // Energy needs the full estimate. It can refuse set-ups the sweep's fast path accepts; the figures above stand.
    try {
        const core::perf::StepTimeResult time = core::perf::estimateStepTime(
            scenario, *gpu, core::perf::EfficiencyTable::builtin().forGpu(scenario.cluster.gpuId));
        if (time.valid) {
            result.detail["energy_kwh"] = time.energyKwh;
            result.detail["training_days"] = time.trainingTimeS / kSecondsPerDay;
        }
    } catch (const std::exception& error) {
        result.detail["energy_error"] = error.what();
    }
    return result;
}

double energyKwhOf(const core::CachedResult& result)
{
    const auto it = result.detail.find("energy_kwh");
    return it != result.detail.end() && it->is_number() ? it->get<double>() : std::numeric_limits<double>::quiet_NaN();
}

bool fitsOf(const core::CachedResult& result)
{
    const auto it = result.detail.find("fits");
    return it != result.detail.end() && it->is_boolean() && it->get<bool>();
}

} // namespace clusterplanner::ui
