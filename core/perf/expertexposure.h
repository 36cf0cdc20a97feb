// SPDX-License-Identifier: GPL-3.0-or-later
// What hides a MoE layer's expert all-to-alls when no paired micro-batch runs beside them: the shared experts, in the
// way the framework schedules them (docs/methods-time.md §4.39).
#pragma once

#include "core/model/frameworks.h"

namespace clusterplanner::core {

/// The forward GEMM time of an MLP for one micro-batch, split at the activation: the first projection (gate and up)
/// and the second (down). A MoE layer's shared experts' is what can hide its all-to-alls; 0 without shared experts.
struct MlpGemmTimes
{
    double firstS = 0;
    double secondS = 0;
    double totalS() const { return firstS + secondS; }
};

/// Exposed time of the two forward all-to-alls (dispatch, combine) and the two backward ones of one MoE layer and
/// micro-batch, each all-to-all taking epOneS alone:
/// - None: all four whole.
/// - SideStream (Megatron-Core's moe_shared_expert_overlap): the dispatch hides behind the first projection, the
///   combine behind the second; in the backward each hides behind its projection's backward (twice its forward).
/// - CombineOnly (TorchTitan): the forward combine is waited on only after the whole shared MLP; the dispatch needs
///   the split sizes on the host first, and the backward is taken as exposed.
struct AllToAllExposure
{
    double forwardS = 0;
    double backwardS = 0;
};
AllToAllExposure unpairedAllToAllExposure(double epOneS, const MlpGemmTimes& shared, SharedExpertOverlap mode);

} // namespace clusterplanner::core
