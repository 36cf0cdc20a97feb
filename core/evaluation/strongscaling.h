// SPDX-License-Identifier: GPL-3.0-or-later
// Strong scaling of a scenario's layout: the global batch fixed, data parallelism doubled, with Amdahl's fit.
#pragma once

#include "core/evaluation/evaluationerror.h"
#include "core/model/scenario.h"

#include <optional>
#include <vector>

namespace clusterplanner::core {

/// One point of the strong-scaling curve.
struct ScalingPoint
{
    int gpus = 0;
    double stepTimeS = 0;
    double tokensPerS = 0;
    double efficiency = 0; ///< T₁/(n·Tₙ), relative to the smallest GPU count (docs/methods-time.md §4.5)
};

struct StrongScaling
{
    std::vector<ScalingPoint> points; ///< by increasing GPU count; at least 2 for a fit
    double amdahlParallelFraction = 0; ///< least-squares fit on the speed-ups, 0..1; 0 with fewer than 2 points
    /// Why there are no points at all: the scenario itself cannot be evaluated (an unknown GPU, a field out of range,
    /// a precision the GPU lacks). Empty where the scenario reads, even if fewer than two of its layouts are valid.
    std::optional<EvaluationError> error;
};

/// Keeps the scenario's TP, PP, CP and EP and doubles DP from 1 while the global batch divides DP × micro-batch,
/// up to 16 valid points and the reader's largest cluster (10⁷ GPUs); layouts the engine rejects are skipped.
/// Never throws; an unknown GPU or out-of-range field gives no points.
StrongScaling strongScaling(const Scenario& scenario);

} // namespace clusterplanner::core
