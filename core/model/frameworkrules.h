// SPDX-License-Identifier: GPL-3.0-or-later
// Which of a training config's framework-dependent settings are in effect, decided once for the time model and for
// every launch-config writer, so that an estimate and the config it exports never disagree.
#pragma once

#include "core/model/frameworks.h"

namespace clusterplanner::core {

/// Whether the framework runs fused kernels: always where it ships them, and only with TrainingConfig::compile
/// where they come from torch.compile (TorchTitan; docs/methods-time.md §4.12).
bool fusedKernelsApply(const TrainingConfig& training, const FrameworkCapabilities& caps);

/// The precision a run trains in (docs/methods-memory.md §3.13): pure bf16 where the framework offers it, else its
/// bf16, which keeps fp32 master weights and optimizer states (bf16 mixed precision); every other precision as asked.
inline Precision precisionInEffect(const TrainingConfig& training, const FrameworkCapabilities& caps)
{
    return training.precision == Precision::Bf16 && !caps.pureBf16 ? Precision::AmpBf16 : training.precision;
}
/// The same, looking the framework up only for bf16: the memory model asks for every stage of every micro-batch
/// of every layout a sweep evaluates.
inline Precision precisionInEffect(const TrainingConfig& training)
{
    return training.precision == Precision::Bf16
        ? precisionInEffect(training, frameworkCapabilities(training.framework))
        : training.precision;
}

/// Whether the transformer blocks run compiled: compile on in a framework whose fusion comes from torch.compile.
/// A compiled block's partitioner saves for the backward only what the backward reads (docs/methods-memory.md §3.24).
bool blocksCompiled(const TrainingConfig& training, const FrameworkCapabilities& caps);

/// Whether the loss runs compiled (docs/methods-memory.md §3.12): compile on in a framework whose fusion comes from
/// torch.compile, and the loss asked to be compiled with it.
bool compiledLossApplies(const TrainingConfig& training, const FrameworkCapabilities& caps);

/// Whether the loss runs as fused kernels that keep no fp32 copy of the logits (docs/methods-memory.md §3.21): a
/// fused cross-entropy asked for (TrainingConfig::fusedLoss), or a compiled loss; never over DTensor's
/// loss-parallel logits (TP > 1 where the framework uses it) or logits the model upcasts (Hugging Face).
bool fusedLossApplies(const TrainingConfig& training, const FrameworkCapabilities& caps);

/// Whether the settings change a figure at all, for a form to grey out what the framework does not read: a compiled
/// loss needs a framework whose fusion is torch.compile, with compile on; a fused cross-entropy an eager loss (not a
/// hand-fused stack's own loss kernels, not a compiled loss) over 16-bit logits that DTensor does not shard.
bool compileLossIsRead(const TrainingConfig& training, const FrameworkCapabilities& caps);
bool fusedLossIsRead(const TrainingConfig& training, const FrameworkCapabilities& caps);

/// Full recompute stops before a dense block's last matmul (docs/methods-time.md §4.54): the framework checkpoints with
/// PyTorch's non-reentrant checkpoint, whose early stop ends the recomputed forward once the last saved tensors (that
/// matmul's inputs) are packed again, which autograd does before the op runs. FP8 linear layers (Transformer Engine,
/// torchao's Float8Linear) are autograd Functions that pack after computing, so under FP8 only a compiled block,
/// whose graph leaves out what the backward does not read, skips it.
bool recomputeStopsEarly(const TrainingConfig& training, const FrameworkCapabilities& caps);

/// Layer slots the embedding and the loss take in the pipeline split (docs/methods-memory.md §3.25): 2 where the
/// framework counts them and the transformer layers alone do not divide into the model chunks (PP, times the chunks
/// per rank under the interleaved schedule) but with the two slots do; else 0, and an uneven split gives the first
/// ranks one layer more.
int pipelineEndSlots(int layers, const TrainingConfig& training, const FrameworkCapabilities& caps);
/// The same for `chunks` model chunks of a pipelined Megatron-Core schedule (the layout sweep asks before it has one).
int pipelineEndSlots(int layers, int chunks, const FrameworkCapabilities& caps);
/// The same, looking the framework up.
int pipelineEndSlots(int layers, const TrainingConfig& training);

/// What keeps async TP, asked for, from applying (docs/methods-time.md §4.13): it needs a framework that offers it,
/// TP > 1 with sequence parallelism (it pipelines the sequence-parallel collectives), and torch.compile on where
/// async TP is a compiler pass (TorchTitan refuses enable_async_tensor_parallel without [compile] enable).
enum class AsyncTpObstacle { None, NotAsked, NoTensorParallel, NoSequenceParallel, CompileOff, NotOffered };
AsyncTpObstacle asyncTpObstacle(const TrainingConfig& training, const FrameworkCapabilities& caps);

/// Whether async TP is in effect: asked for and nothing in its way.
bool asyncTpApplies(const TrainingConfig& training, const FrameworkCapabilities& caps);

/// The FP8 recipe a run uses: the one asked for where the framework offers it, else the framework's default
/// (docs/methods-time.md §4.16). Never FrameworkDefault.
Fp8Recipe fp8RecipeInEffect(const TrainingConfig& training, const FrameworkCapabilities& caps);

/// What keeps 16-bit optimizer states, asked for, from applying (docs/methods-memory.md §3.15): a framework that
/// offers them; Adam or AdamW sharded over the data-parallel ranks (Megatron-Core's precision-aware optimizer asserts
/// both, Apex's DistributedFusedAdam is both); and bf16 weights beside an fp32 master copy, i.e. mixed bf16 or FP8 with
/// delayed scaling (Transformer Engine's remainder bits need bf16 parameters; fp16 and current-scaling FP8 keep the
/// fp32 master shards). PureBf16: the states are 16-bit already.
enum class OptimizerStatesObstacle { None, NotAsked, NotOffered, NotAdam, NotSharded, PureBf16, NoBf16Master };
OptimizerStatesObstacle optimizerStatesObstacle(const TrainingConfig& training, const FrameworkCapabilities& caps);

/// The optimizer state width a run uses: 16-bit where asked for and nothing in its way, else fp32.
OptimizerStates optimizerStatesInEffect(const TrainingConfig& training, const FrameworkCapabilities& caps);

/// The MoE dispatcher a run uses: DeepEP where asked for and offered (and TP × EP > 1), else the all-to-all
/// (docs/methods-time.md §4.25).
MoeDispatcher moeDispatcherInEffect(const TrainingConfig& training, const FrameworkCapabilities& caps);

/// What keeps the paired-micro-batch expert overlap, asked for, from applying (docs/methods-time.md §4.25): a
/// framework that offers it, EP > 1, no full recompute and 16-bit training (Megatron-Core refuses both), and an
/// interleaved schedule where the framework pairs its chunks (Megatron-Core's combined 1F1B).
enum class MoeOverlapObstacle { None, NotAsked, NotOffered, NoExpertParallel, FullRecompute, Fp32, NoVirtualStages };
MoeOverlapObstacle moeOverlapObstacle(const TrainingConfig& training, const FrameworkCapabilities& caps);

/// Whether the expert overlap is in effect: asked for and nothing in its way.
bool moeOverlapApplies(const TrainingConfig& training, const FrameworkCapabilities& caps);

/// How the shared experts hide part of each unpaired expert all-to-all (docs/methods-time.md §4.39): the
/// framework's way (FrameworkCapabilities::sharedExpertOverlap) where the model has shared experts, EP > 1 and no
/// paired-micro-batch overlap; Megatron-Core's side stream also needs the all-to-all dispatcher (it refuses the option
/// with the flex dispatcher). None otherwise.
SharedExpertOverlap sharedExpertOverlapInEffect(
    const TrainingConfig& training, const FrameworkCapabilities& caps, const ModelConfig& model);

/// What keeps activation offload, asked for, from applying (docs/methods-memory.md §3.11): a framework that offers
/// it, and what Megatron-Core's TransformerConfig refuses beside it: pipeline parallelism, activation recompute,
/// and as many offloaded layers as the model has (one must stay to hide the last copy behind).
enum class ActivationOffloadObstacle { None, NotAsked, NotOffered, Pipeline, Recompute, TooManyLayers };
ActivationOffloadObstacle activationOffloadObstacle(
    const TrainingConfig& training, const FrameworkCapabilities& caps, int modelLayers);

} // namespace clusterplanner::core
