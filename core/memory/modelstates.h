// SPDX-License-Identifier: GPL-3.0-or-later
// Model states per GPU: bytes per parameter for each precision/optimizer/framework regime, and ZeRO/FSDP sharding.
#pragma once

#include "core/memory/memorycontext.h"

namespace clusterplanner::core {

/// Bytes per parameter before sharding (docs/methods-memory.md §3.1).
struct StateBytesPerParam
{
    double weights = 0; ///< compute copy kept by the model
    double gradients = 0;
    double optimizer = 0; ///< incl. fp32 master weights where the framework keeps a separate copy
    bool persistentGradients = false; ///< framework keeps a gradient buffer across steps (Megatron, DeepSpeed)
    bool autocastCopies = false; ///< PyTorch autocast over fp32 weights: bf16 weight copies live in fwd/bwd
    double computeBytes = 2; ///< bytes of an activation / cast weight element
};

/// Regime of a training set-up: Megatron/NeMo keep bf16 weights, fp32 main grads and fp32 master + Adam m, v
/// (2 + 4 + 12 = 18, MLM dist-opt doc); DeepSpeed 2 + 2 + 12 (ZeRO §3.1); PyTorch autocast (HF, FSDP,
/// TorchTitan, other) keeps fp32 weights that double as master copy: 4 + 4 + 8. Pure bf16: 2 + 2 + 4; fp32:
/// 4 + 4 + 8. SGD keeps one (momentum) or no state per parameter instead of Adam's two.
StateBytesPerParam stateBytesPerParam(const TrainingConfig& training);

/// Parameters held by one GPU of a pipeline stage.
struct StageParams
{
    double total = 0; ///< parameters on this GPU (TP/EP shards)
    double experts = 0; ///< routed-expert parameters among them (sharded over the expert-data-parallel group)
    double matmul = 0; ///< matmul weights among them (autocast casts these)
    double perLayer = 0; ///< one layer's share on this GPU
    double embedding = 0; ///< embedding share on this GPU (first stage, and last stage when tied and pp > 1)
    int layers = 0;
};

/// Transformer layers on pipeline rank `stage`: with `endSlots` 2 (core/model/frameworkrules.h pipelineEndSlots) the
/// embedding and the loss take a layer's slot on the first and the last rank; otherwise uneven splits give the first
/// ranks one layer more.
int layersOnStage(int layers, int pp, int stage, int endSlots = 0);

/// Transformer layers pipeline stage `stage` holds: the model's layers cut as layersOnStage does, and on the last stage
/// the multi-token-prediction modules' layers after them (Megatron-Core puts every MTP layer there; DeepSeek-V3 on the
/// head's rank). MemoryContext::layers counts both.
int stageLayerCount(const MemoryContext& ctx, int pp, int stage, int endSlots = 0);

/// Parameters of Megatron's copy of the word embeddings on the last pipeline stage, kept equal to the first stage's by
/// an all-reduce: held where the head is tied to them or multi-token prediction embeds the shifted tokens there
/// (GPTModel builds its embedding for pre_process or mtp_process); 0 without pipeline stages. The memory and the
/// step-time models both hold it (docs/methods-memory.md §3.19).
double lastStageEmbeddingCopy(const ModelConfig& model, int mtpLayers, int pp);

StageParams stageParams(const MemoryContext& ctx, const ParallelLayout& layout, int stage, int endSlots = 0);

/// Model-state bytes on one GPU after sharding (ZeRO 1/2/3, Megatron distributed optimizer over DP × CP).
struct ModelStateBytes
{
    double weights = 0, gradients = 0, optimizer = 0;
    double shardBuffers = 0; ///< ZeRO-3/FSDP: gathered params of current + prefetched unit and its unsharded grads
};

ModelStateBytes modelStateBytes(const MemoryContext& ctx, const TrainingConfig& training, const StageParams& stage);

} // namespace clusterplanner::core
