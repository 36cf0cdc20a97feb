// SPDX-License-Identifier: GPL-3.0-or-later
// Activation and logits memory of one micro-batch: which tensors a framework keeps for backward, per layer.
#pragma once

#include "core/memory/memorycontext.h"

namespace clusterplanner::core {

/// How the framework's kernels keep tensors. Fused (Megatron, NeMo, DeepSpeed and an unnamed production stack)
/// follows K22 Table 2 with fused SwiGLU, fused cross-entropy and bf16 residuals. Eager (Hugging Face, FSDP,
/// TorchTitan) keeps every autograd input of unfused ops; under autocast (Hugging Face over fp32 weights) the
/// residual stream and norms stay fp32 and every linear layer saves its own bf16 cast of its input.
enum class KernelStyle { Fused, Eager };
KernelStyle kernelStyle(Framework framework);

/// Mixed precision as torch.autocast over fp32 weights in an eager framework (data/frameworks.json "autocast"):
/// the fp32 residual stream and the per-forward bf16 weight casts.
bool usesAutocast(const TrainingConfig& training);

/// Bytes one micro-batch keeps for backward in one transformer layer (docs/methods-memory.md §3.3), on one GPU.
/// moeLayer selects the expert MLP; recompute is applied by the caller (full keeps only layerInputBytes).
double layerActivationBytes(const MemoryContext& ctx, const TrainingConfig& training, bool moeLayer);

/// One layer's activations of one micro-batch, dense and MoE layers averaged by their share of the model: what
/// layerActivationBytes keeps, or what op-level selective checkpointing keeps where that is the framework's
/// "selective" (full recompute is applied by the caller).
double meanLayerActivationBytes(const MemoryContext& ctx, const TrainingConfig& training);

/// Full recompute: the checkpointed layer input of one micro-batch (residual-stream precision).
double layerInputBytes(const MemoryContext& ctx, const TrainingConfig& training);

/// Whether "selective" means op-level selective checkpointing for the training's framework (TorchTitan) rather
/// than recomputing the attention core (Megatron), data/frameworks.json "selective_recompute".
bool opLevelCheckpointing(const TrainingConfig& training);
/// Op-level selective checkpointing (docs/methods-memory.md §3.9): what one layer keeps of one micro-batch: its
/// input, the outputs of every other matmul (q, v, the first MLP projection and the down projection: the larger of
/// the two alternating sets) and the attention output with its fp32 log-sum-exp; the rest is recomputed.
double opLevelCheckpointBytes(const MemoryContext& ctx, const TrainingConfig& training, bool moeLayer);

/// First stage: embedding output extras (dropout mask). Last stage: final norm and LM-head input.
double embeddingActivationBytes(const MemoryContext& ctx, const TrainingConfig& training);
double headActivationBytes(const MemoryContext& ctx, const TrainingConfig& training);

/// Logits and loss of one micro-batch on the last stage (docs/methods-memory.md §3.4).
struct LogitsBytes
{
    double peak = 0; ///< at the start of the loss backward: logits, fp32 log-softmax, its grad and input grad
    double forwardPeak = 0; ///< during the loss forward: logits, their fp32 copy and the log-softmax output
    double held = 0; ///< what stays until the step ends (eager code keeps the returned bf16 logits)
};
LogitsBytes logitsBytes(const MemoryContext& ctx, const TrainingConfig& training);

} // namespace clusterplanner::core
