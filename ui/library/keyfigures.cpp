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
    // The evaluator gives the per-GPU view; the run's energy and total cost come from the full step-time estimate.
    const core::perf::StepTimeResult time = core::perf::estimateStepTime(
        scenario, *gpu, core::perf::EfficiencyTable::builtin().forGpu(scenario.cluster.gpuId));
    const bool valid = layout.valid && time.valid;

    core::CachedResult result;
    result.figures.gpuCount = scenario.training.layout.gpuCount();
    if (valid) {
        result.figures.tokensPerS = time.tokensPerS;
        result.figures.costUsd = time.costUsd;
        result.figures.mfu = layout.mfu;
        result.figures.stepTimeS = layout.stepTimeS;
    }
    result.detail = {{"valid", valid}, {"fits", layout.fits}, {"peak_memory_gib", layout.peakMemoryGiB},
        {"capacity_gib", layout.capacityGiB}, {"energy_kwh", valid ? time.energyKwh : 0.0},
        {"cost_per_m_tokens_usd", valid ? layout.costPerMTokensUsd : 0.0},
        {"training_days", valid ? time.trainingTimeS / kSecondsPerDay : 0.0},
        {"layout", layoutJson(scenario.training.layout)}};
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
