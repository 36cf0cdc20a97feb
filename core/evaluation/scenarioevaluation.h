// SPDX-License-Identifier: GPL-3.0-or-later
// The evaluation facade: everything a panel, the report or a command shows for one layout of a scenario, from one
// call, as values. Callers draw; they do not call the memory, time or pipeline models themselves.
#pragma once

#include "core/evaluation/evaluationerror.h"
#include "core/memory/memorymodel.h"
#include "core/memory/memorytypes.h"
#include "core/model/gpucatalog.h"
#include "core/model/layoutcheck.h"
#include "core/perf/pipeline.h"
#include "core/perf/steptime.h"
#include "core/sweep/layoutspace.h"

#include <optional>
#include <string>
#include <vector>

namespace clusterplanner::core {

/// What to compute beyond validity and step time (the cheap parts); the rest costs allocations or searches.
struct EvaluationOptions
{
    bool memoryAdvice = true; ///< largest micro-batch that fits and, when it does not fit, single-change remedies
    bool timeline = true; ///< the pipeline's op list for a Gantt chart
    int timelineMicroBatches = 0; ///< micro-batches drawn; 0 = enough for warm-up, steady state, cool-down
};

/// Memory per GPU of the layout (docs/methods-memory.md).
struct MemoryView
{
    MemoryEstimate estimate; ///< first and last stage with their breakdowns, peak, fit
    int maxMicroBatch = 0; ///< largest micro-batch (<= 1024) that fits; with EvaluationOptions::memoryAdvice
    std::vector<std::string> remedies; ///< single changes that make a layout fit; with memoryAdvice
    /// Host memory per GPU of the training group's nodes (host_memory_gib / GPUs per node), where the scenario has
    /// a topology: what activation offload may fill (docs/methods-memory.md §3.11).
    std::optional<double> hostMemoryPerGpuGiB;
    /// Offloaded activations need more host memory than the node has per GPU.
    bool hostMemoryShort() const
    {
        return hostMemoryPerGpuGiB && estimate.peakStageMemory().hostActivationBytes / kGiB > *hostMemoryPerGpuGiB;
    }
};

/// The pipeline schedule the step time used (docs/methods-time.md §4.4), and its timeline for drawing.
struct PipelineView
{
    perf::PipelineParams params; ///< the engine's: seconds per op of the slowest stage, all micro-batches
    perf::PipelineSummary summary; ///< of the full step; makespan and bubble equal the step time's
    std::vector<perf::PipelineOp> ops; ///< the first shownMicroBatches of the step, times in s
    int shownMicroBatches = 0;
    std::string timelineProblem; ///< why ops is empty when a timeline was asked for, else empty
};

/// One layout of one scenario, evaluated. error set: nothing else is meaningful. Otherwise problems/reasons say
/// whether the layout can run; when it can, memory, time (cost and energy included) and pipeline are filled.
struct ScenarioEvaluation
{
    std::optional<EvaluationError> error; ///< a field out of range or unknown GPU: the scenario cannot be evaluated
    LayoutProblems problems = 0; ///< layout-check violations
    std::vector<std::string> reasons; ///< why the layout cannot run, one sentence each with the numbers
    const GpuSpec* gpu = nullptr; ///< catalog entry (static storage), null when unknown
    TrainingConfig training; ///< the set-up evaluated (the scenario's, or with the candidate applied)
    MemoryView memory;
    perf::StepTimeResult time; ///< step time, its breakdown, rates, cost and energy of the run
    PipelineView pipeline;

    bool valid() const { return !error && reasons.empty(); }
    /// One line for the first thing wrong, empty when valid.
    std::string firstReason() const;
};

/// Evaluates the scenario's own layout (scenario.training). Never throws: bad input comes back as error or reasons.
ScenarioEvaluation evaluateScenario(const Scenario& scenario, const EvaluationOptions& options = {});
/// Evaluates the scenario with a sweep candidate applied (applyCandidate: the sweep's and the library's figures).
ScenarioEvaluation evaluateScenario(
    const Scenario& scenario, const LayoutCandidate& layout, const EvaluationOptions& options = {});

} // namespace clusterplanner::core
