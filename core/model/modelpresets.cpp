// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/modelpresets.h"

#include "core/model/enumnames.h"

#include <nlohmann/json.hpp>

#include <stdexcept>

namespace clusterplanner::core {

extern const char* const kBuiltinModelsJson; // generated from data/models.json at build time

namespace {

using nlohmann::json;

template <typename Enum>
Enum enumField(const json& entry, const char* key)
{
    const auto value = enumFromString<Enum>(entry.at(key).get<std::string>());
    if (!value)
        throw std::runtime_error(std::string(key) + ": unknown value \"" + entry.at(key).get<std::string>() + "\"");
    return *value;
}

MoeConfig parseMoe(const json& m)
{
    MoeConfig moe {m.at("experts").get<int>(), m.at("top_k").get<int>(), m.at("expert_ffn_hidden").get<int>(),
        m.at("shared_experts").get<int>(), m.at("moe_layers").get<int>(), m.at("capacity_factor").get<double>()};
    // Optional: group-limited routing (DeepSeek).
    moe.expertGroups = m.value("expert_groups", 0);
    moe.groupsPerToken = m.value("groups_per_token", 0);
    return moe;
}

MlaConfig parseMla(const json& a)
{
    MlaConfig mla {a.at("kv_lora_rank").get<int>(), a.at("q_lora_rank").get<int>(), a.at("qk_nope_head_dim").get<int>(),
        a.at("qk_rope_head_dim").get<int>(), a.at("v_head_dim").get<int>()};
    if (!mla.enabled())
        throw std::runtime_error("mla.kv_lora_rank: must be positive");
    return mla;
}

ModelConfig parseModel(const json& e)
{
    if (!e.contains("source") || e.at("source").get<std::string>().empty())
        throw std::runtime_error("needs a source");
    ModelConfig m {e.at("name").get<std::string>(), e.at("layers").get<int>(), e.at("hidden").get<int>(),
        e.at("heads").get<int>(), e.at("kv_heads").get<int>(), e.at("ffn_hidden").get<int>(), e.at("vocab").get<int>(),
        e.at("seq_len").get<int>(), enumField<MlpKind>(e, "mlp"), enumField<NormKind>(e, "norm"),
        e.at("tied_embeddings").get<bool>(), std::nullopt};
    if (!e.at("moe").is_null())
        m.moe = parseMoe(e.at("moe"));
    // Optional: models whose heads are not hidden / heads wide.
    if (e.contains("head_dim") && !(e.at("head_dim").is_number_integer() && e.at("head_dim").get<int>() > 0))
        throw std::runtime_error("head_dim: must be a positive whole number");
    m.headDim = e.value("head_dim", 0);
    m.qkNorm = e.value("qk_norm", false); // optional: Qwen3's per-head query and key norms
    if (e.contains("parallel_block") && !e.at("parallel_block").is_boolean())
        throw std::runtime_error("parallel_block: must be true or false");
    m.parallelBlock = e.value("parallel_block", false); // optional: PaLM's and GPT-NeoX's parallel attention and MLP
    // optional: DeepSeek-V3's multi-token-prediction module, as its pre-training ran it
    if (e.contains("mtp_layers")
        && !(e.at("mtp_layers").is_number_integer() && e.at("mtp_layers").get<int>() >= 0
            && e.at("mtp_layers").get<int>() <= kMaxMtpLayers))
        throw std::runtime_error("mtp_layers: must be a whole number from 0 to " + std::to_string(kMaxMtpLayers));
    m.mtpLayers = e.value("mtp_layers", 0);
    if (e.contains("rope_base")
        && !(e.at("rope_base").is_number() && e.at("rope_base").get<double>() >= 0
            && e.at("rope_base").get<double>() <= 1e12))
        throw std::runtime_error("rope_base: must be a number from 0 to 1e12");
    m.ropeBase = e.value("rope_base", 0.0);
    if (e.contains("mla") && !e.at("mla").is_null()) // optional: DeepSeek's multi-head latent attention
        m.mla = parseMla(e.at("mla"));
    // The scenario file's rules (core/io/scenariojson.cpp): validation cases copy these flags without a second check.
    if (m.mla.enabled() && m.qkNorm)
        throw std::runtime_error("qk_norm: must be false with mla");
    if (m.parallelBlock && (m.moe || m.mla.enabled()))
        throw std::runtime_error("parallel_block: must be false with moe or mla");
    return m;
}

/// The presets of a models document and, in the same order, their sources: parsed once for both.
struct PresetList
{
    std::vector<ModelConfig> models;
    std::vector<std::string> sources;
};

PresetList parsePresetList(const std::string& text)
{
    const json document = json::parse(text);
    PresetList list;
    for (const json& entry : document.at("models")) {
        try {
            list.models.push_back(parseModel(entry));
            list.sources.push_back(entry.at("source").get<std::string>()); // parseModel refuses an entry without
        } catch (const std::exception& error) {
            throw std::runtime_error("models.json: model " + std::to_string(list.models.size() + 1) + " ("
                + entry.value("name", std::string("unnamed")) + "): " + error.what());
        }
    }
    return list;
}

const PresetList& builtinPresetList()
{
    // Dimensions from the papers and released configs, each with its source in data/models.json; the Llama and
    // GPT-3 ones are the docs/methods-model.md §2 checks.
    static const PresetList list = parsePresetList(kBuiltinModelsJson);
    return list;
}

} // namespace

std::vector<ModelConfig> modelPresetsFromJson(const std::string& text)
{
    return parsePresetList(text).models;
}

const std::vector<std::string>& modelPresetSources()
{
    return builtinPresetList().sources;
}

const std::vector<ModelConfig>& modelPresets()
{
    return builtinPresetList().models;
}

int findModelPreset(const ModelConfig& model)
{
    const auto& presets = modelPresets();
    for (std::size_t i = 0; i < presets.size(); ++i)
        if (presets[i] == model)
            return static_cast<int>(i);
    return -1;
}

const ModelConfig* presetOfSameShape(const ModelConfig& model, bool compareFfn)
{
    const auto sameRouting = [](const std::optional<MoeConfig>& a, const std::optional<MoeConfig>& b) {
        if (a.has_value() != b.has_value())
            return false;
        return !a
            || (a->experts == b->experts && a->topK == b->topK && a->expertFfnHidden == b->expertFfnHidden
                && a->sharedExperts == b->sharedExperts);
    };
    // A model whose every layer is MoE has no dense FFN: sources write the config's unused intermediate size, the
    // expert width or null there, so only a dense FFN that exists is compared.
    const auto hasDenseFfn
        = [](const ModelConfig& m) { return !m.moe || (m.moe->moeLayers > 0 && m.moe->moeLayers < m.layers); };
    const ModelConfig* found = nullptr;
    for (const auto& preset : modelPresets()) {
        const bool ffnCompared = compareFfn && hasDenseFfn(preset);
        const bool same = preset.layers == model.layers && preset.hidden == model.hidden && preset.heads == model.heads
            && preset.kvHeads == model.kvHeads && (!ffnCompared || preset.ffnHidden == model.ffnHidden)
            && sameRouting(preset.moe, model.moe);
        if (!same)
            continue;
        if (found)
            return nullptr; // ambiguous: say nothing rather than pick one
        found = &preset;
    }
    return found;
}

ModelConfig gpt3Padded()
{
    ModelConfig model = modelPreset("GPT-3 175B");
    model.vocab = 51200; // Megatron pads V to a multiple of 128 × TP
    return model;
}

const ModelConfig& modelPreset(const std::string& name)
{
    for (const auto& preset : modelPresets())
        if (preset.name == name)
            return preset;
    throw std::out_of_range("no model preset named \"" + name + "\"");
}

} // namespace clusterplanner::core
