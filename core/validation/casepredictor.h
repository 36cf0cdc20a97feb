// SPDX-License-Identifier: GPL-3.0-or-later
// One prediction per validation case: the layout used and every predicted quantity (shared by estimate/validate).
#pragma once

#include "core/io/validationcase.h"
#include "core/memory/memorytypes.h"
#include "core/model/gpucatalog.h"
#include "core/perf/steptime.h"
#include "core/sweep/layoutevaluator.h"
#include "core/sweep/layoutspace.h"

#include <optional>
#include <string>
#include <vector>

namespace clusterplanner::core {

/// Predicted quantities of one case. Optional fields stay empty until a model provides them (time quantities
/// come from the performance model; fill them in predictCase and both commands report them).
struct CasePrediction
{
    std::string id;
    bool ok = false;
    std::string error; ///< why ok is false (unknown GPU, invalid layout: every problem listed)
    TrainingConfig chosen; ///< the complete set-up the prediction is for
    std::vector<std::string> choices; ///< fields the planner filled, e.g. "tp 2"
    std::string gpuReading; ///< how a stated GPU was read otherwise (also among choices); empty when as stated
    MemoryEstimate memory;
    std::vector<std::string> remedies; ///< when it does not fit
    double params = 0;
    double modelFlopsPerToken = 0;
    int maxMicroBatch = 0; ///< largest micro-batch that fits with everything else as chosen

    std::optional<double> peakMemoryGiB; ///< allocated, like torch.cuda.max_memory_allocated
    std::optional<double> peakReservedGiB;
    std::optional<double> tokensPerSPerGpu;
    std::optional<double> stepTimeS;
    std::optional<double> modelTflopsPerGpu;
    std::optional<double> mfu;
    perf::StepTimeResult time; ///< the full step-time breakdown (valid when the time fields are set)
};

/// Chooses the case's null layout fields with the sweep (best fitting layout by tokens/s per GPU; ties keep the
/// first in enumeration order, so the choice is deterministic), falling back to the memory-first chooser when
/// nothing fits, then evaluates memory and step time.
CasePrediction predictCase(const ValidationCase& c, const perf::EfficiencyTable* table = nullptr);

/// The sweep constraints that fix every dimension the case states (and leave its null fields free): what
/// `sweep --case` explores.
SweepConstraints caseConstraints(const ValidationCase& c);

/// caseConstraints(c), and where the source leaves the pipeline split open, what the framework does by default
/// (TorchTitan: one micro-batch per pipeline stage, two chunks per rank; docs/methods-time.md §4.14): what a
/// prediction of the case assumes.
SweepConstraints predictionConstraints(const ValidationCase& c);

/// What a sweep of the case sets per candidate rather than once: the MoE overlap an unstated case of a Megatron-LM or
/// NeMo run had on that layout (docs/methods-time.md §4.41); empty where no such rule applies.
TrainingLayoutEvaluator::TrainingAdjuster publishedRunAdjuster(const ValidationCase& c);

/// The best fitting layout by tokens/s per GPU under predictionConstraints(c), or nothing when none fits.
std::optional<TrainingConfig> sweepChoice(const ValidationCase& c, const perf::EfficiencyTable* table = nullptr);

/// The layout with the case's open software settings (compile, async TP, MoE dispatcher and overlap: the keys the
/// development-set schema lacks) set to the fastest combination the framework offers for it; stated ones kept
/// (docs/methods-time.md §4.27).
TrainingConfig fastestSoftware(
    const ValidationCase& c, const TrainingConfig& layout, const GpuSpec& gpu, const perf::EfficiencyTable* table);

/// Fills the time fields of p (for p.chosen) from the step-time model with the GPU family's efficiency
/// parameters (table nullptr = the built-in table).
void fillTime(CasePrediction& p, const Scenario& scenario, const GpuSpec& gpu, const perf::EfficiencyTable* table);

} // namespace clusterplanner::core
