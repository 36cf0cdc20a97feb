// SPDX-License-Identifier: GPL-3.0-or-later
// Data-parallel synchronisation of one step (docs/methods-time.md §4.5, §4.44, §4.57): the gradient all-reduce, ZeRO's
// reduce-scatter and gather, hybrid sharding's replica all-reduce, and what of each the compute hides.
#pragma once

#include "core/model/frameworks.h"
#include "core/model/scenario.h"
#include "core/perf/collectives.h"
#include "core/perf/efficiencyparams.h"
#include "core/perf/topology.h"

namespace clusterplanner::core::perf {

/// What the synchronisation is timed from, as the step assembly resolved it for the layout.
struct DataSyncSetup
{
    const TrainingConfig& tr;
    const FrameworkCapabilities& caps; ///< of tr.framework
    const Fabric& fabric;
    const EfficiencyParams& efficiency;
    Precision precision; ///< what tr.precision trains as in this framework
    OptimizerStates optimizerStates; ///< the optimizer state width in effect
    const LayoutSpans& spans;
};

/// Per-micro-batch compute of the slowest stage that the collectives can hide behind.
struct MicroBatchWindows
{
    double forwardS = 0, backwardS = 0, recomputeS = 0; ///< backward: input and weight gradients together
};

/// One GPU's parameters by the group that reduces their gradients: the dense ones over DP × CP, the routed experts
/// over the expert-data-parallel group (docs/methods-time.md §4.44).
struct ReductionShares
{
    double denseParams = 0, expertParams = 0;
};

/// Seconds per step: all of the synchronisation, the part the step waits for, and the part compute hides.
struct DataParallelTimes
{
    double totalS = 0, exposedS = 0, hiddenS = 0;
};

/// The step's data-parallel synchronisation over microBatches micro-batches; zero where no group has two ranks.
DataParallelTimes dataParallelTimes(
    const DataSyncSetup& s, const ReductionShares& share, const MicroBatchWindows& window, int microBatches);

} // namespace clusterplanner::core::perf
