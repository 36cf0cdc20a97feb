// SPDX-License-Identifier: GPL-3.0-or-later
// Exact parameter counts and training FLOPs of GPT-style, Llama-style and MoE transformers.
#pragma once

#include "core/model/scenario.h"

namespace clusterplanner::core {

/// Parameter counts of one model, split the way the memory and time models need them. Doubles hold exact
/// integers (all counts stay far below 2^53).
///
/// Conventions (docs/methods-model.md §2): LayerNorm models are GPT-style (biases on every linear layer, learned
/// position embeddings of seqLen rows, unless a RoPE base is stated: GPT-NeoX, PaLM); RMSNorm models are Llama-style
/// (no biases, rotary positions).
struct ParameterCounts
{
    double total = 0; ///< every parameter
    double active = 0; ///< parameters one token uses (MoE: top-k experts instead of all)
    double embedding = 0; ///< input token (+ position) embedding
    double head = 0; ///< LM head; 0 when tied to the embedding
    double finalNorm = 0;
    double attentionPerLayer = 0; ///< Q, K, V, O (+ biases)
    double normsPerLayer = 0; ///< the per-layer norms: two, one in a parallel block (+ QK and latent norms)
    double denseMlpPerLayer = 0; ///< MLP of a dense layer
    double expertsPerMoeLayer = 0; ///< all routed experts + router + shared experts of one MoE layer
    double activeExpertsPerMoeLayer = 0; ///< top-k routed experts + router + shared experts
    /// The routed experts of one MoE layer alone, what EP (and expert TP) split; its router and shared experts are
    /// held like its attention (docs/methods-memory.md §3.2).
    double routedExpertsPerMoeLayer = 0;
    /// Transformer layers by kind, the multi-token-prediction modules' layers among them (ModelConfig::mtpLayers):
    /// every figure that runs or holds a layer counts those too.
    int denseLayers = 0;
    int moeLayers = 0;
    int mtpLayers = 0; ///< multi-token-prediction modules
    /// Those of the MoE kind: each module's layer is of the model's last kind, MoE wherever the model has experts
    /// (Megatron-Core builds it from the decoder's last layer spec).
    int mtpMoeLayers = 0;
    double mtpExtras = 0; ///< their projections and norms, held on the head's stage beside the LM head
    /// N_mm: active matmul weights without the input embedding, with the LM head (once more per multi-token-prediction
    /// module, and its projection): what the model FLOPs count.
    double matmulActive = 0;
    double matmulActiveLayers = 0; ///< N_mm of the transformer layers alone

    double denseLayerTotal() const { return attentionPerLayer + normsPerLayer + denseMlpPerLayer; }
    double moeLayerTotal() const { return attentionPerLayer + normsPerLayer + expertsPerMoeLayer; }
};

ParameterCounts countParameters(const ModelConfig& model);

/// Whether the model learns a position embedding of seqLen rows (GPT-style LayerNorm models) rather than rotating
/// positions (RMSNorm models, and LayerNorm models with a stated ModelConfig::ropeBase).
bool hasLearnedPositions(const ModelConfig& model);

/// Width of one attention head: the model's head_dim where it sets one, else hidden / heads.
double headDim(const ModelConfig& model);

/// Width of one query or key head: head_dim, or under multi-head latent attention its non-rotary and rotary parts.
double queryKeyHeadDim(const ModelConfig& model);

/// Width of one value head (and of one head of the attention output): head_dim, or MLA's v_head_dim.
double valueHeadDim(const ModelConfig& model);

/// Heads that carry their own keys and values: kv_heads, or every head under MLA.
double keyValueHeads(const ModelConfig& model);

/// Width of the queries, heads · query/key head width (hidden unless head_dim or MLA says otherwise).
double queryWidth(const ModelConfig& model);

/// Width of the keys, key/value heads · query/key head width.
double kvWidth(const ModelConfig& model);

/// Width of the values, key/value heads · value head width (the keys' width outside MLA).
double valueWidth(const ModelConfig& model);

/// Width of the attention output, the output projection's input: heads · value head width.
double attentionOutputWidth(const ModelConfig& model);

/// What MLA's query up-projection reads: the query latent, or the hidden state where the model has none
/// (DeepSeek-V2-Lite); 0 without MLA.
double latentQueryInputWidth(const ModelConfig& model);

/// What MLA's key/value up-projection writes: every head's non-rotary key and its value, heads · (nope + v); 0
/// without MLA (the rotary key comes from the down-projection, shared by the heads).
double latentKeyValueUpWidth(const ModelConfig& model);

/// MLA's weights that produce the query, key and value heads from the latents (from the hidden state for queries
/// without a latent): what Megatron-Core's "mla_up_proj" module recompute runs again; 0 without MLA.
double latentUpProjectionWeights(const ModelConfig& model);

/// Whether Megatron-Core's module recompute ("layernorm" in its list, which the engine writes for a MoE model) drops
/// and recomputes every layer's input norm: under MLA that norm is a module of its own (TENorm before plain
/// down-projections); elsewhere Transformer Engine fuses it into the QKV projection and only the MoE layers'
/// pre-MLP norm is a separate module.
bool inputNormRecomputed(const ModelConfig& model);

/// Whether Megatron-Core's module recompute has anything to recompute in this model: MoE layers (their separate norm
/// and expert activation) or multi-head latent attention (its up-projections).
bool hasRecomputeModules(const ModelConfig& model);

/// Q, K, V and output projection weights of one layer, h·(h_q + h_k + h_v) + h_o·h (no biases); under MLA the down-
/// and up-projections of the query and key/value latents and the output projection (docs/methods-model.md §2.4).
double attentionMatmulWeights(const ModelConfig& model);

/// Number of MoE layers of the main model (moeLayers == 0 in the config means all of them), without the
/// multi-token-prediction modules' (ParameterCounts::moeLayers counts those too).
int moeLayerCount(const ModelConfig& model);

/// Transformer layers that run per token: the model's and its multi-token-prediction modules'.
int transformerLayers(const ModelConfig& model);

/// Attention FLOPs per token for training (fwd + bwd), counting the full s×s score matrix: scores over the query/key
/// width and the weighted values over the value width, 6·L·s·(h_q + h_o) = 12·L·s·h_q where they are equal (PaLM
/// App. B "12LHQT"). Causal kernels do half of it.
double attentionFlopsPerToken(const ModelConfig& model);

/// Model FLOPs per trained token: 6·N_mm + 12·L·s·h_q (PaLM App. B; K22 Eq. 7). MFU is stated against this.
double modelFlopsPerToken(const ModelConfig& model);

/// Hardware FLOPs per token including recompute: selective adds the attention term again (K22 Eq. 8),
/// full adds one forward pass of every layer (N21 Eq. 3: 96·B·L·s·h²·(1 + s/6h + V/16hL)).
double hardwareFlopsPerToken(const ModelConfig& model, Recompute recompute);

/// Tensor parallelism inside the experts (Megatron-Core's expert_tensor_parallel_size): the layout's expertTp where
/// it states one; by default the layout's TP where its EP group fits beside it (EP divides DP × CP; Megatron-Core's
/// default, ETP = TP, needs world % (ETP·EP·PP) == 0), else 1: an EP group that spans the TP ranks is MoE parallel
/// folding, whose experts are not split by TP (docs/methods-memory.md §3.2, docs/methods-time.md §4.48).
int expertTensorParallel(const ParallelLayout& layout);

/// The expert-data-parallel size per pipeline stage, TP × DP × CP / (expert TP × EP): the ranks holding one rank's
/// routed experts (Megatron-Core's world / (ETP · EP · PP)); at least 1.
int expertDataParallel(const ParallelLayout& layout);

/// Whether the step reduces gradients across ranks: DP × CP or the experts' data-parallel group holds more than one
/// (a MoE layout of DP 1 can still reduce its experts' gradients over the TP ranks that EP does not use).
bool reducesGradients(const ParallelLayout& layout);

/// Copies of each routed expert's shard under hybrid sharding: the layout's shard copies where they divide the
/// expert-data-parallel group, else 1.
int expertShardReplicas(const ParallelLayout& layout);

/// The ranks that shard one routed expert's states: its expert-data-parallel group, less the copies hybrid
/// sharding keeps (ParallelLayout::shardReplicas); at least 1.
int expertShardRanks(const ParallelLayout& layout);

/// What a sharding optimizer (ZeRO, FSDP, Megatron's distributed optimizer) leaves on one GPU of a shard holding
/// `parameters`, `expertParameters` of them routed experts: the dense part split over the shard group, DP × CP or
/// under hybrid sharding its dpShard × CP (CP ranks hold equal weights), the experts over expertShardRanks
/// (docs/methods-memory.md §3.2, §3.22).
double shardedParameters(double parameters, double expertParameters, const ParallelLayout& layout);

} // namespace clusterplanner::core
