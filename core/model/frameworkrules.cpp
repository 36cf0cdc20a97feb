// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/frameworkrules.h"

namespace clusterplanner::core {

bool fusedKernelsApply(const TrainingConfig& training, const FrameworkCapabilities& caps)
{
    return caps.fusedKernels && (training.compile || !caps.compileFuses);
}

AsyncTpObstacle asyncTpObstacle(const TrainingConfig& training, const FrameworkCapabilities& caps)
{
    using O = AsyncTpObstacle;
    if (!training.asyncTp)
        return O::NotAsked;
    if (!caps.asyncTp)
        return O::NotOffered;
    if (training.layout.tp < 2)
        return O::NoTensorParallel;
    if (!training.layout.sequenceParallel)
        return O::NoSequenceParallel;
    if (!training.compile && caps.compileFuses)
        return O::CompileOff;
    return O::None;
}

bool asyncTpApplies(const TrainingConfig& training, const FrameworkCapabilities& caps)
{
    return asyncTpObstacle(training, caps) == AsyncTpObstacle::None;
}

} // namespace clusterplanner::core
