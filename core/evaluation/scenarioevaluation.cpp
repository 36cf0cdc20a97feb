// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/evaluation/scenarioevaluation.h"

#include "core/memory/memorycontext.h"
#include "core/memory/memorymodel.h"
#include "core/perf/efficiencyparams.h"

#include <algorithm>

namespace clusterplanner::core {

namespace {

constexpr int kMaxMicroBatchSearched = 1024;

/// Enough micro-batches for warm-up, steady state and cool-down (2·p), not hundreds of slivers; interleaving
/// needs a multiple of the stages, DualPipe an even number of at least 2·p.
int shownMicroBatches(const perf::PipelineParams& p, int requested)
{
    int shown = std::min(p.microBatches, requested > 0 ? requested : std::max(2 * p.stages, 8));
    if (p.schedule == PipelineSchedule::Interleaved)
        shown = std::max(p.stages, shown - shown % p.stages);
    if (p.schedule == PipelineSchedule::DualPipe)
        shown = std::min(p.microBatches, std::max(2 * p.stages, shown - shown % 2));
    return shown;
}

/// The full step's figures from the step time itself, so that a chart's bubble is the engine's bubble.
perf::PipelineSummary summaryOf(const perf::StepTimeResult& time)
{
    const perf::PipelineParams& p = time.pipeline;
    perf::PipelineSummary s;
    s.idealTime = p.microBatches * (p.forward + p.backward + p.weightGrad);
    s.bubbleTime = time.bubbleS;
    s.makespan = s.idealTime + s.bubbleTime;
    s.bubbleFraction = time.bubbleFraction;
    s.bubbleRate = s.makespan > 0 ? s.bubbleTime / s.makespan : 0;
    s.worstPeakInFlight = perf::peakInFlight(p, 0);
    return s;
}

PipelineView pipelineView(const perf::StepTimeResult& time, const EvaluationOptions& options)
{
    PipelineView view;
    view.params = time.pipeline;
    view.summary = summaryOf(time);
    if (!options.timeline)
        return view;
    perf::PipelineParams shown = view.params;
    shown.microBatches = shownMicroBatches(shown, options.timelineMicroBatches);
    if (!perf::isSimulable(shown)) { // checked, so that the replay's own exception never fires
        view.timelineProblem = "too many pipeline operations to draw (" + std::to_string(shown.stages) + " stages × "
            + std::to_string(shown.microBatches) + " micro-batches)";
        return view;
    }
    view.shownMicroBatches = shown.microBatches;
    view.ops = perf::simulatePipeline(shown).ops;
    return view;
}

MemoryView memoryView(const Scenario& s, const TrainingConfig& training, const GpuSpec& gpu, bool advice)
{
    MemoryView view;
    const MemoryContext context = makeMemoryContext(s.model, &gpu);
    view.estimate = evaluateMemory(context, training);
    if (const cluster::NodeGroup* group = s.topology.findGroup(s.trainingGroup); group && group->gpusPerNode > 0)
        view.hostMemoryPerGpuGiB = group->hostMemoryGiB / group->gpusPerNode;
    if (!advice)
        return view;
    view.maxMicroBatch = maxMicroBatch(context, training, kMaxMicroBatchSearched);
    if (!view.estimate.fits)
        view.remedies = fitRemedies(context, training, s.cluster.gpusPerNode);
    return view;
}

ScenarioEvaluation evaluateTraining(const Scenario& s, const TrainingConfig& training, const EvaluationOptions& o)
{
    ScenarioEvaluation e;
    e.training = training;
    e.gpu = GpuCatalog::builtin().find(s.cluster.gpuId);
    if ((e.error = scenarioInputError(s, e.gpu)))
        return e;
    e.problems = checkLayout(s.model, training, s.cluster.gpuCount);
    if (e.problems != 0) {
        e.reasons = describeLayoutProblems(e.problems, s.model, training, s.cluster.gpuCount);
        return e;
    }
    const perf::StepTimeContext context
        = perf::makeStepTimeContext(s, *e.gpu, perf::EfficiencyTable::builtin().forGpu(e.gpu->id));
    e.time = perf::estimateStepTime(context, training);
    if (!e.time.valid) {
        e.reasons.push_back(e.time.error);
        return e;
    }
    e.memory = memoryView(s, training, *e.gpu, o.memoryAdvice);
    e.pipeline = pipelineView(e.time, o);
    return e;
}

} // namespace

std::string ScenarioEvaluation::firstReason() const
{
    if (error)
        return error->text();
    return reasons.empty() ? std::string() : reasons.front();
}

ScenarioEvaluation evaluateScenario(const Scenario& scenario, const EvaluationOptions& options)
{
    return evaluateTraining(scenario, scenario.training, options);
}

ScenarioEvaluation evaluateScenario(
    const Scenario& scenario, const LayoutCandidate& layout, const EvaluationOptions& options)
{
    return evaluateTraining(scenario, applyCandidate(scenario.training, layout), options);
}

} // namespace clusterplanner::core
