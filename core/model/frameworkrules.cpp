// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/frameworkrules.h"

#include <algorithm>

namespace clusterplanner::core {

bool fusedKernelsApply(const TrainingConfig& training, const FrameworkCapabilities& caps)
{
    return caps.fusedKernels && (training.compile || !caps.compileFuses);
}

bool blocksCompiled(const TrainingConfig& training, const FrameworkCapabilities& caps)
{
    return caps.compileFuses && training.compile;
}

bool compiledLossApplies(const TrainingConfig& training, const FrameworkCapabilities& caps)
{
    return blocksCompiled(training, caps) && training.compileLoss;
}

namespace {

/// DTensor's loss parallelism composes its own fp32 ops over vocabulary-sharded logits (§3.10), and a model that
/// upcasts its logits hands any loss kernel fp32 ones: neither takes a 16-bit fused or compiled cross-entropy.
bool lossTakesNo16BitKernel(const TrainingConfig& training, const FrameworkCapabilities& caps)
{
    return (training.layout.tp > 1 && caps.dtensorLossParallel) || caps.upcastsLogitsBeforeLoss;
}

} // namespace

bool fusedLossApplies(const TrainingConfig& training, const FrameworkCapabilities& caps)
{
    if (lossTakesNo16BitKernel(training, caps))
        return false;
    return training.fusedLoss || compiledLossApplies(training, caps);
}

bool compileLossIsRead(const TrainingConfig& training, const FrameworkCapabilities& caps)
{
    return !lossTakesNo16BitKernel(training, caps) && blocksCompiled(training, caps);
}

bool fusedLossIsRead(const TrainingConfig& training, const FrameworkCapabilities& caps)
{
    const bool eagerLoss = !caps.fusedKernels || caps.compileFuses; // Megatron-style stacks run their own loss kernels
    return eagerLoss && !lossTakesNo16BitKernel(training, caps) && !compiledLossApplies(training, caps);
}

int pipelineEndSlots(int layers, const TrainingConfig& training, const FrameworkCapabilities& caps)
{
    const ParallelLayout& l = training.layout;
    const bool interleaved = training.schedule == PipelineSchedule::Interleaved;
    // Megatron-Core's split: only its two schedules, and only where a pipeline has ends apart.
    if (!caps.pipelineEndsTakeLayerSlots || l.pp < 2
        || (!interleaved && training.schedule != PipelineSchedule::OneFOneB))
        return 0;
    return pipelineEndSlots(layers, l.pp * (interleaved ? std::max(1, l.virtualStages) : 1), caps);
}

int pipelineEndSlots(int layers, int chunks, const FrameworkCapabilities& caps)
{
    const bool evens = chunks > 1 && layers % chunks != 0 && (layers + 2) % chunks == 0;
    return caps.pipelineEndsTakeLayerSlots && evens ? 2 : 0;
}

int pipelineEndSlots(int layers, const TrainingConfig& training)
{
    return pipelineEndSlots(layers, training, frameworkCapabilities(training.framework));
}

bool recomputeStopsEarly(const TrainingConfig& training, const FrameworkCapabilities& caps)
{
    if (training.recompute != Recompute::Full || !caps.checkpointStopsEarly || !training.checkpointEarlyStop)
        return false;
    return precisionInEffect(training, caps) != Precision::Fp8 || blocksCompiled(training, caps);
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

OptimizerStatesObstacle optimizerStatesObstacle(const TrainingConfig& training, const FrameworkCapabilities& caps)
{
    using O = OptimizerStatesObstacle;
    if (training.optimizerStates == OptimizerStates::Fp32)
        return O::NotAsked;
    const auto& offered = caps.optimizerStates;
    if (std::find(offered.begin(), offered.end(), training.optimizerStates) == offered.end())
        return O::NotOffered;
    if (training.optimizer != Optimizer::Adam && training.optimizer != Optimizer::AdamW)
        return O::NotAdam;
    if (!training.shardsOptimizerStates())
        return O::NotSharded;
    const Precision precision = precisionInEffect(training, caps);
    if (precision == Precision::Bf16)
        return O::PureBf16;
    const bool delayedFp8 = precision == Precision::Fp8 && fp8RecipeInEffect(training, caps) == Fp8Recipe::Delayed;
    if (precision != Precision::AmpBf16 && !delayedFp8)
        return O::NoBf16Master;
    return O::None;
}

OptimizerStates optimizerStatesInEffect(const TrainingConfig& training, const FrameworkCapabilities& caps)
{
    return optimizerStatesObstacle(training, caps) == OptimizerStatesObstacle::None ? training.optimizerStates
                                                                                    : OptimizerStates::Fp32;
}

MoeDispatcher moeDispatcherInEffect(const TrainingConfig& training, const FrameworkCapabilities& caps)
{
    // Megatron's flex dispatcher refuses TP × EP = 1: with nothing to dispatch to it is the all-to-all's no-op.
    const bool offered = caps.deepEp && training.layout.tp * training.layout.ep > 1;
    return training.moeDispatcher == MoeDispatcher::DeepEp && offered ? MoeDispatcher::DeepEp : MoeDispatcher::AllToAll;
}

MoeOverlapObstacle moeOverlapObstacle(const TrainingConfig& training, const FrameworkCapabilities& caps)
{
    using O = MoeOverlapObstacle;
    if (!training.moeOverlap)
        return O::NotAsked;
    if (!caps.moeOverlap)
        return O::NotOffered;
    if (training.layout.ep < 2)
        return O::NoExpertParallel;
    if (training.recompute == Recompute::Full)
        return O::FullRecompute;
    if (training.precision == Precision::Fp32)
        return O::Fp32;
    const bool interleaved = training.schedule == PipelineSchedule::Interleaved && training.layout.virtualStages > 1;
    if (caps.moeOverlapNeedsVirtualStages && training.layout.pp > 1 && !interleaved)
        return O::NoVirtualStages;
    return O::None;
}

bool moeOverlapApplies(const TrainingConfig& training, const FrameworkCapabilities& caps)
{
    return moeOverlapObstacle(training, caps) == MoeOverlapObstacle::None;
}

SharedExpertOverlap sharedExpertOverlapInEffect(
    const TrainingConfig& training, const FrameworkCapabilities& caps, const ModelConfig& model)
{
    const bool applies = model.moe && model.moe->sharedExperts > 0 && training.layout.ep > 1
        && !moeOverlapApplies(training, caps)
        && (caps.sharedExpertOverlap != SharedExpertOverlap::SideStream
            || moeDispatcherInEffect(training, caps) == MoeDispatcher::AllToAll);
    return applies ? caps.sharedExpertOverlap : SharedExpertOverlap::None;
}

ActivationOffloadObstacle activationOffloadObstacle(
    const TrainingConfig& training, const FrameworkCapabilities& caps, int modelLayers)
{
    using O = ActivationOffloadObstacle;
    const int layers = training.activationOffloadLayers;
    if (layers == 0 || (layers < 0 && layers != kActivationOffloadAuto))
        return O::NotAsked;
    if (!caps.activationOffload)
        return O::NotOffered;
    if (training.layout.pp > 1)
        return O::Pipeline;
    if (training.recompute != Recompute::None)
        return O::Recompute;
    if (layers >= modelLayers)
        return O::TooManyLayers;
    return O::None;
}

} // namespace clusterplanner::core
