// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/sweep/layoutevaluator.h"

#include "core/evaluation/evaluationerror.h"
#include "core/memory/memorymodel.h"
#include "core/model/layoutcheck.h"

#include <stdexcept>
#include <utility>

namespace clusterplanner::core {

namespace {

const GpuSpec& gpuOf(const Scenario& scenario)
{
    // The models divide by fields the reader keeps >= 1, and need the GPU and a precision it can train in.
    const GpuSpec* gpu = GpuCatalog::builtin().find(scenario.cluster.gpuId);
    if (const auto error = scenarioInputError(scenario, gpu))
        throw std::invalid_argument(error->text());
    return *gpu;
}

} // namespace

TrainingLayoutEvaluator::TrainingLayoutEvaluator(
    const Scenario& scenario, const perf::EfficiencyTable* table, TrainingAdjuster adjust)
    : m_scenario(scenario)
    , m_gpu(&gpuOf(m_scenario))
    , m_memory(makeMemoryContext(m_scenario.model, m_gpu))
    , m_time(perf::makeStepTimeContext(
          m_scenario, *m_gpu, (table ? *table : perf::EfficiencyTable::builtin()).forGpu(m_gpu->id)))
    , m_adjust(std::move(adjust))
{ }

TrainingConfig TrainingLayoutEvaluator::trainingFor(const LayoutCandidate& candidate) const
{
    TrainingConfig training = applyCandidate(m_scenario.training, candidate);
    if (m_adjust)
        m_adjust(training);
    return training;
}

LayoutResult TrainingLayoutEvaluator::evaluate(const LayoutCandidate& candidate) const
{
    LayoutResult result;
    result.candidate = candidate;
    const TrainingConfig training = trainingFor(candidate);
    result.problems = checkLayout(m_scenario.model, training, m_scenario.cluster.gpuCount);
    result.capacityGiB = m_memory.capacityBytes / kGiB;
    if (result.problems != 0)
        return result;
    const MemoryEstimate memory = evaluateMemory(m_memory, training);
    result.peakMemoryGiB = memory.peakReservedBytes / kGiB;
    result.capacityGiB = memory.usableBytes / kGiB;
    result.fits = memory.fits;
    result.offloadedLayers = memory.offloadedLayers;
    // Auto offload was resolved by the memory model (a bisection over memory evaluations); the time takes the count
    // instead of searching again.
    TrainingConfig timed = training;
    if (timed.activationOffloadLayers == kActivationOffloadAuto)
        timed.activationOffloadLayers = memory.offloadedLayers;
    const auto time = perf::estimateValidLayoutStepTime(m_time, timed); // checked above
    result.valid = time.valid;
    if (!time.valid)
        return result;
    result.stepTimeS = time.stepTimeS;
    result.tokensPerSPerGpu = time.tokensPerSPerGpu;
    result.mfu = time.mfu;
    const double gpuSecondsPerMToken = 1e6 / time.tokensPerSPerGpu;
    result.costPerMTokensUsd = gpuSecondsPerMToken / 3600.0 * m_scenario.economics.gpuHourUsd;
    return result;
}

std::unique_ptr<LayoutEvaluator> makeLayoutEvaluator(const Scenario& scenario)
{
    return std::make_unique<TrainingLayoutEvaluator>(scenario);
}

} // namespace clusterplanner::core
