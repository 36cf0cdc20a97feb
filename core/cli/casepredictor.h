// SPDX-License-Identifier: GPL-3.0-or-later
// One prediction per validation case: the layout used and every predicted quantity (shared by estimate/validate).
#pragma once

#include "core/io/validationcase.h"
#include "core/memory/memorytypes.h"

#include <optional>
#include <string>
#include <vector>

namespace clusterplanner::core::cli {

/// Predicted quantities of one case. Optional fields stay empty until a model provides them (time quantities
/// come from the performance model; fill them in predictCase and both commands report them).
struct CasePrediction
{
    std::string id;
    bool ok = false;
    std::string error; ///< why ok is false (unknown GPU, invalid layout: every problem listed)
    TrainingConfig chosen; ///< the complete set-up the prediction is for
    std::vector<std::string> choices; ///< fields the planner filled, e.g. "tp 2"
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
};

CasePrediction predictCase(const ValidationCase& c);

} // namespace clusterplanner::core::cli
