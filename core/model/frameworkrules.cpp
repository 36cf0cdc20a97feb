// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/frameworkrules.h"

#include <algorithm>

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

Fp8Recipe fp8RecipeInEffect(const TrainingConfig& training, const FrameworkCapabilities& caps)
{
    const auto& offered = caps.fp8Recipes;
    const bool asked = training.fp8Recipe != Fp8Recipe::FrameworkDefault;
    if (asked && std::find(offered.begin(), offered.end(), training.fp8Recipe) != offered.end())
        return training.fp8Recipe;
    return offered.front(); // never empty: parseFrameworkCapabilities refuses an empty list
}

} // namespace clusterplanner::core
