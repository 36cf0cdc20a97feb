// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/hf/hfconfig.h"

#include "core/hf/hffamilies.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <utility>

namespace clusterplanner::core::hf {

namespace {

using Reader = void (*)(const JsonFields&, HfImport&);

const std::vector<std::pair<std::string, Reader>>& readers()
{
    static const std::vector<std::pair<std::string, Reader>> table = {
        {"llama", &readLlamaLike},
        {"mistral", &readLlamaLike},
        {"mixtral", &readMixtral},
        {"qwen2", &readLlamaLike},
        {"qwen2_moe", &readQwen2Moe},
        {"qwen3", &readLlamaLike},
        {"qwen3_moe", &readQwen3Moe},
        {"deepseek_v2", &readDeepSeek},
        {"deepseek_v3", &readDeepSeek},
        {"kimi_k2", &readDeepSeek}, // Moonshot's Kimi K2: DeepSeek-V3's architecture under a model_type of its own
        {"gpt_neox", &readGptNeoX},
        {"gpt2", &readGpt2},
        {"gemma", &readLlamaLike},
    };
    return table;
}

[[noreturn]] void throwHfError(const std::string& message)
{
    throw HfConfigError(message);
}

std::string typeList()
{
    std::string names;
    for (const auto& type : supportedModelTypes())
        names += (names.empty() ? "" : ", ") + type;
    return names;
}

Reader readerFor(const std::string& modelType)
{
    for (const auto& [type, reader] : readers())
        if (type == modelType)
            return reader;
    throw HfConfigError("model_type: unsupported value \"" + modelType + "\" (one of " + typeList() + ")");
}

std::string modelName(const nlohmann::json& document, const std::string& fallback, const std::string& type)
{
    const auto name = document.find("_name_or_path");
    if (name != document.end() && name->is_string() && !name->get<std::string>().empty())
        return name->get<std::string>();
    return fallback.empty() ? type : fallback;
}

} // namespace

const std::vector<std::string>& supportedModelTypes()
{
    static const std::vector<std::string> types = [] {
        std::vector<std::string> list;
        for (const auto& entry : readers())
            list.push_back(entry.first);
        return list;
    }();
    return types;
}

HfImport importHfConfig(const std::string& jsonText, const std::string& fallbackName)
{
    const nlohmann::json document = nlohmann::json::parse(jsonText, nullptr, false);
    if (document.is_discarded())
        throw HfConfigError("config.json: not valid JSON");
    const JsonFields fields(document, "", &throwHfError);
    if (!fields.has("model_type"))
        throw HfConfigError("model_type: is missing (one of " + typeList() + ")");
    HfImport result;
    result.modelType = fields.nonEmptyText("model_type", 64);
    readerFor(result.modelType)(fields, result);
    result.model.name = modelName(document, fallbackName, result.modelType);
    if (result.model.headDim == 0 && !result.model.mla.enabled() && result.model.hidden % result.model.heads != 0)
        throw HfConfigError("hidden_size: " + std::to_string(result.model.hidden)
            + " is not a multiple of the number of attention heads " + std::to_string(result.model.heads));
    if (result.model.heads % result.model.kvHeads != 0)
        throw HfConfigError("num_key_value_heads: " + std::to_string(result.model.kvHeads)
            + " does not divide the number of attention heads " + std::to_string(result.model.heads));
    return result;
}

HfImport importHfConfigFile(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
        throw HfConfigError(path + ": cannot read the Hugging Face config");
    std::stringstream text;
    text << in.rdbuf();
    try {
        return importHfConfig(text.str(), path);
    } catch (const HfConfigError& error) {
        throw HfConfigError(path + ": " + error.what());
    }
}

ModelConfig replaceModel(const ModelConfig& current, const HfImport& imported)
{
    ModelConfig model = imported.model;
    model.seqLen = std::min(current.seqLen, imported.model.seqLen);
    return model;
}

} // namespace clusterplanner::core::hf
