// SPDX-License-Identifier: GPL-3.0-or-later
// Field names and class defaults follow Hugging Face transformers v4.46, v4.51 for Qwen3 (LlamaConfig, MistralConfig,
// MixtralConfig, Qwen2Config, Qwen2MoeConfig, Qwen3Config, Qwen3MoeConfig, GPTNeoXConfig, GPT2Config, GemmaConfig) and
// the DeepSeek-V2/V3 repositories' configuration_deepseek.py; docs/hf-import.md lists them.
#include "core/hf/hffamilies.h"

#include "core/hf/hffields.h"
#include "core/model/modelmath.h"

#include <cmath>

namespace clusterplanner::core::hf {

namespace {

std::string count(double value)
{
    // Hostile files can multiply their bounded fields past what a long long holds.
    return value < 9e18 ? std::to_string(static_cast<long long>(value)) : "more than 9e18";
}

/// Families whose config class ties the LM head to the embedding unless the file says otherwise.
bool tiesByDefault(const std::string& modelType)
{
    return modelType == "gemma" || modelType == "gpt2";
}

/// Gemma, Qwen3 and GPT-OSS give their heads a width of their own; the model keeps it only where it differs from
/// hidden_size / heads, so that files of the other families read back unchanged.
void readHeadDim(const JsonFields& f, HfImport& out)
{
    ModelConfig& m = out.model;
    // GemmaConfig and Qwen3Config default head_dim to 256 and 128 where a file leaves it out.
    const int classDefault = out.modelType == "gemma" ? 256 : (out.modelType.starts_with("qwen3") ? 128 : 0);
    const int headDim = positiveOr(f, "head_dim", classDefault);
    m.headDim = headDim > 0 && (m.hidden % m.heads != 0 || headDim != m.hidden / m.heads) ? headDim : 0;
}

void noteQkvBiases(HfImport& out)
{
    const ModelConfig& m = out.model;
    const double perLayer = queryWidth(m) + 2.0 * kvWidth(m);
    out.notes.push_back("the Q, K and V biases (" + count(perLayer * m.layers) + " parameters) are not counted");
}

/// The RoPE base: rope_theta (transformers v4), rope_parameters.rope_theta (v5), GPT-NeoX's rotary_emb_base; else
/// the config class's default where this project knows it (Llama, Mistral, Qwen2/3 and GPT-NeoX 10,000; Mixtral
/// 1,000,000) and 0 otherwise, which the launch configurations then say is unstated.
double ropeBaseOf(const JsonFields& f, const std::string& modelType)
{
    const auto stated
        = [](const JsonFields& fields, const char* key) { return fields.has(key) && fields.field(key).is_number(); };
    if (stated(f, "rope_theta"))
        return f.number("rope_theta", 1, 1e12);
    if (f.has("rope_parameters") && f.field("rope_parameters").is_object()) {
        const JsonFields rope = f.object("rope_parameters");
        if (stated(rope, "rope_theta"))
            return rope.number("rope_theta", 1, 1e12);
    }
    if (stated(f, "rotary_emb_base"))
        return f.number("rotary_emb_base", 1, 1e12);
    if (modelType == "mixtral")
        return 1e6;
    const bool tenThousand
        = modelType == "llama" || modelType == "mistral" || modelType.starts_with("qwen") || modelType == "gpt_neox";
    return tenThousand ? 10000.0 : 0.0;
}

/// The fields every rotary-position decoder shares; MoE readers add their experts afterwards.
void readDecoderCore(const JsonFields& f, HfImport& out)
{
    ModelConfig& m = out.model;
    m.layers = positive(f, "num_hidden_layers");
    m.hidden = positive(f, "hidden_size");
    m.heads = positive(f, "num_attention_heads");
    m.kvHeads = positiveOr(f, "num_key_value_heads", m.heads);
    m.ffnHidden = positive(f, "intermediate_size");
    m.vocab = positive(f, "vocab_size");
    m.seqLen = positive(f, "max_position_embeddings");
    m.ropeBase = ropeBaseOf(f, out.modelType);
    m.tiedEmbeddings = flagOr(f, "tie_word_embeddings", tiesByDefault(out.modelType));
    m.mlp = MlpKind::SwiGlu; // SwiGLU, and Gemma's GeGLU: both gated, three matrices
    m.norm = NormKind::RmsNorm;
    m.moe.reset();
    m.mla = {};
}

/// Qwen2-MoE: layer i is sparse unless listed in mlp_only_layers, and only every decoder_sparse_step-th layer.
int qwenMoeLayers(const JsonFields& f, int layers)
{
    const int step = positiveOr(f, "decoder_sparse_step", 1);
    std::vector<bool> denseOnly(layers, false);
    if (f.has("mlp_only_layers")) {
        for (const auto& index : f.array("mlp_only_layers"))
            if (index.is_number_integer() && index.get<int>() >= 0 && index.get<int>() < layers)
                denseOnly[index.get<int>()] = true;
    }
    int sparse = 0;
    for (int i = 0; i < layers; ++i)
        sparse += !denseOnly[i] && (i + 1) % step == 0;
    return sparse;
}

/// The engine's moeLayers: 0 means every layer, and a model with no sparse layer is dense.
void setMoeLayers(HfImport& out, int sparse)
{
    if (sparse == 0)
        out.model.moe.reset();
    else
        out.model.moe->moeLayers = sparse == out.model.layers ? 0 : sparse;
}

} // namespace

void readLlamaLike(const JsonFields& f, HfImport& out)
{
    readDecoderCore(f, out);
    readHeadDim(f, out);
    // Qwen2 always carries Q/K/V biases; Llama, Mistral and Qwen3 only with attention_bias.
    if (out.modelType == "qwen2" || flagOr(f, "attention_bias", false))
        noteQkvBiases(out);
    out.model.qkNorm = out.modelType.starts_with("qwen3"); // Qwen3Attention's per-head q_norm and k_norm
}

void readMixtral(const JsonFields& f, HfImport& out)
{
    readLlamaLike(f, out);
    const int experts = positive(f, "num_local_experts");
    const int topK = positive(f, "num_experts_per_tok");
    out.model.moe = MoeConfig {experts, topK, out.model.ffnHidden, 0, 0, 1.0};
}

void readQwen2Moe(const JsonFields& f, HfImport& out)
{
    readDecoderCore(f, out);
    readHeadDim(f, out);
    noteQkvBiases(out);
    MoeConfig moe {positive(f, "num_experts"), positive(f, "num_experts_per_tok"), positive(f, "moe_intermediate_size"),
        0, 0, 1.0};
    const int sharedFfn = countOr(f, "shared_expert_intermediate_size", 0);
    // The engine sizes shared experts in units of a routed expert; Qwen's one wide shared expert is k of them.
    moe.sharedExperts = int(std::lround(double(sharedFfn) / moe.expertFfnHidden));
    if (moe.sharedExperts * moe.expertFfnHidden != sharedFfn)
        out.notes.push_back("shared_expert_intermediate_size " + std::to_string(sharedFfn)
            + " is rounded to a whole number of routed experts");
    if (sharedFfn > 0)
        out.notes.push_back("the shared expert's sigmoid gate (" + count(double(out.model.hidden) * out.model.layers)
            + " parameters) is not counted");
    out.model.moe = moe;
    setMoeLayers(out, qwenMoeLayers(f, out.model.layers));
}

void readQwen3Moe(const JsonFields& f, HfImport& out)
{
    readLlamaLike(f, out);
    out.model.moe = MoeConfig {positive(f, "num_experts"), positive(f, "num_experts_per_tok"),
        positive(f, "moe_intermediate_size"), 0, 0, 1.0};
    setMoeLayers(out, qwenMoeLayers(f, out.model.layers));
}

/// DeepSeek's group-limited routing: topk_method "group_limited_greedy" (V2: a token's experts on at most
/// topk_group of n_group device groups) or "noaux_tc" (V3: at most 4 of 8 node groups); "greedy" routes freely.
void readGroupLimitedRouting(const JsonFields& f, HfImport& out)
{
    MoeConfig& moe = *out.model.moe;
    const int groups = countOr(f, "n_group", 0), allowed = countOr(f, "topk_group", 0);
    const bool greedy = f.has("topk_method") && !f.isNull("topk_method") && f.text("topk_method", 64) == "greedy";
    if (greedy || groups <= 1 || allowed <= 0 || allowed >= groups)
        return;
    if (moe.experts % groups != 0) {
        out.notes.push_back("n_group " + std::to_string(groups) + " does not divide the " + std::to_string(moe.experts)
            + " routed experts; routing is taken as unlimited");
        return;
    }
    moe.expertGroups = groups;
    moe.groupsPerToken = allowed;
}

/// Multi-head latent attention as configuration_deepseek.py (V2 and V3) has it: every field defaults to the class's
/// value (q_lora_rank 1536, kv_lora_rank 512, qk_nope_head_dim 128, qk_rope_head_dim 64, v_head_dim 128); a null
/// q_lora_rank projects queries straight from the hidden state (DeepSeek-V2-Lite). Each head has its own key and
/// value, so the key/value heads are the attention heads whatever num_key_value_heads says.
void readLatentAttention(const JsonFields& f, HfImport& out)
{
    MlaConfig& mla = out.model.mla;
    mla.kvLoraRank = positiveOr(f, "kv_lora_rank", 512);
    mla.qLoraRank = f.has("q_lora_rank") && f.isNull("q_lora_rank") ? 0 : countOr(f, "q_lora_rank", 1536);
    mla.qkNopeHeadDim = positiveOr(f, "qk_nope_head_dim", 128);
    mla.qkRopeHeadDim = countOr(f, "qk_rope_head_dim", 64);
    mla.vHeadDim = positiveOr(f, "v_head_dim", 128);
    if (out.model.kvHeads != out.model.heads)
        out.notes.push_back("num_key_value_heads (" + std::to_string(out.model.kvHeads)
            + ") is not used: every latent-attention head has its own key and value");
    out.model.kvHeads = out.model.heads;
    out.model.headDim = 0;
}

void readDeepSeek(const JsonFields& f, HfImport& out)
{
    readDecoderCore(f, out);
    out.model.moe = MoeConfig {positive(f, "n_routed_experts"), positive(f, "num_experts_per_tok"),
        positive(f, "moe_intermediate_size"), countOr(f, "n_shared_experts", 0), 0, 1.0};
    const int firstDense = countOr(f, "first_k_dense_replace", 0);
    const int frequency = positiveOr(f, "moe_layer_freq", 1);
    int sparse = 0;
    for (int i = firstDense; i < out.model.layers; ++i)
        sparse += i % frequency == 0;
    setMoeLayers(out, sparse);
    readGroupLimitedRouting(f, out);
    readLatentAttention(f, out);
    // DeepSeek-V3's checkpoint carries its multi-token-prediction module (num_nextn_predict_layers 1), which its
    // pre-training ran; fine-tuning usually leaves it out, which model.mtp_layers 0 states.
    out.model.mtpLayers = countOr(f, "num_nextn_predict_layers", 0);
    if (out.model.mtpLayers > 0)
        out.notes.push_back("the multi-token-prediction module (num_nextn_predict_layers "
            + std::to_string(out.model.mtpLayers)
            + ") is trained as model.mtp_layers; set it to 0 to train without it");
}

void readGptNeoX(const JsonFields& f, HfImport& out)
{
    readDecoderCore(f, out);
    out.model.kvHeads = out.model.heads;
    out.model.mlp = MlpKind::Gelu;
    out.model.norm = NormKind::LayerNorm;
    // GPTNeoXConfig defaults use_parallel_residual to true (GPT-NeoX-20B, Pythia): attention and MLP side by side.
    out.model.parallelBlock = flagOr(f, "use_parallel_residual", true);
    // Its RoPE base (rotary_emb_base, or the class default) marks the LayerNorm model as rotary: no learned
    // position embedding is counted (core/model/modelmath.h hasLearnedPositions).
    if (out.model.parallelBlock)
        out.notes.push_back(
            "GPT-NeoX's parallel block keeps a LayerNorm per branch; the engine's parallel block has "
            "one, so one norm's parameters, element-wise work and saved output per layer are not counted");
}

void readGpt2(const JsonFields& f, HfImport& out)
{
    ModelConfig& m = out.model;
    m.layers = positive(f, "n_layer");
    m.hidden = positive(f, "n_embd");
    m.heads = positive(f, "n_head");
    m.kvHeads = m.heads;
    m.ffnHidden = positiveOr(f, "n_inner", 4 * m.hidden); // GPT2Config: n_inner null means 4 × n_embd
    m.vocab = positive(f, "vocab_size");
    m.seqLen = positive(f, "n_positions");
    m.tiedEmbeddings = flagOr(f, "tie_word_embeddings", true);
    m.mlp = MlpKind::Gelu;
    m.norm = NormKind::LayerNorm;
    m.moe.reset();
    m.mla = {};
}

} // namespace clusterplanner::core::hf
