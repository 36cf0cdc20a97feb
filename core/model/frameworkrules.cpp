// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/frameworkrules.h"

namespace clusterplanner::core {

bool fusedKernelsApply(const TrainingConfig& training, const FrameworkCapabilities& caps)
{
    return caps.fusedKernels && (training.compile || !caps.compileFuses);
}

bool asyncTpApplies(const TrainingConfig& training, const FrameworkCapabilities& caps)
{
    const ParallelLayout& l = training.layout;
    const bool compiled = training.compile || !caps.compileFuses;
    return training.asyncTp && caps.asyncTp && l.tp > 1 && l.sequenceParallel && compiled;
}

} // namespace clusterplanner::core
