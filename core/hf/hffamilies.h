// SPDX-License-Identifier: GPL-3.0-or-later
// Per-family readers of config.json: each maps one model_type's field names onto ModelConfig.
#pragma once

#include "core/hf/hfconfig.h"
#include "core/io/jsonfields.h"

namespace clusterplanner::core::hf {

/// Llama 1-3.x, Mistral, Qwen2, Qwen3 and Gemma: RMSNorm, gated MLP, rotary positions.
void readLlamaLike(const JsonFields& f, HfImport& out);
/// Mixtral: Llama-like with num_local_experts / num_experts_per_tok in every layer.
void readMixtral(const JsonFields& f, HfImport& out);
/// Qwen2-MoE: routed experts of moe_intermediate_size plus one shared expert of shared_expert_intermediate_size.
void readQwen2Moe(const JsonFields& f, HfImport& out);
/// Qwen3-MoE: Qwen3's attention (heads of head_dim) with routed experts of moe_intermediate_size, no shared expert.
void readQwen3Moe(const JsonFields& f, HfImport& out);
/// DeepSeek-V2/V3: first_k_dense_replace dense layers, then routed + shared experts; MLA approximated.
void readDeepSeek(const JsonFields& f, HfImport& out);
/// GPT-NeoX (Pythia, GPT-NeoX-20B): LayerNorm, GELU, biases.
void readGptNeoX(const JsonFields& f, HfImport& out);
/// GPT-2: n_layer / n_embd / n_head / n_inner / n_positions, learned positions, tied head.
void readGpt2(const JsonFields& f, HfImport& out);

} // namespace clusterplanner::core::hf
