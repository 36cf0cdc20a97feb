// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/modelpresets.h"

#include <stdexcept>

namespace clusterplanner::core {

namespace {

std::vector<ModelConfig> makePresets()
{
    // Dimensions from the papers and released configs; the Llama and GPT-3 ones are the docs/methods-model.md §2
    // checks.
    return {
        // Brown et al. 2020, Table 2.1: 96 layers, d 12288, 96 heads, context 2048, tied embeddings.
        {"GPT-3 175B", 96, 12288, 96, 96, 49152, 50257, 2048, MlpKind::Gelu, NormKind::LayerNorm, true, std::nullopt},
        // Llama 3 herd (arXiv 2407.21783), Table 3; pre-training sequence length 8192.
        {"Llama 3 8B", 32, 4096, 32, 8, 14336, 128256, 8192, MlpKind::SwiGlu, NormKind::RmsNorm, false, std::nullopt},
        {"Llama 3 70B", 80, 8192, 64, 8, 28672, 128256, 8192, MlpKind::SwiGlu, NormKind::RmsNorm, false, std::nullopt},
        {"Llama 3 405B", 126, 16384, 128, 8, 53248, 128256, 8192, MlpKind::SwiGlu, NormKind::RmsNorm, false,
            std::nullopt},
        // Mixtral of Experts (arXiv 2401.04088): 8 experts, top-2 routing in every layer, 32k context.
        {"Mixtral 8x7B", 32, 4096, 32, 8, 14336, 32000, 32768, MlpKind::SwiGlu, NormKind::RmsNorm, false,
            MoeConfig {8, 2, 14336, 0, 0, 1.0}},
        // DeepSeek-V3 (arXiv 2412.19437): 61 layers, the first 3 dense (FFN 18432), 58 MoE layers with 256 routed
        // experts (top-8) of FFN 2048 plus 1 shared expert; MLA is approximated as 128 full heads; 4K pre-training.
        {"DeepSeek-V3", 61, 7168, 128, 128, 18432, 129280, 4096, MlpKind::SwiGlu, NormKind::RmsNorm, false,
            MoeConfig {256, 8, 2048, 1, 58, 1.0}},
    };
}

} // namespace

const std::vector<ModelConfig>& modelPresets()
{
    static const std::vector<ModelConfig> presets = makePresets();
    return presets;
}

int findModelPreset(const ModelConfig& model)
{
    const auto& presets = modelPresets();
    for (std::size_t i = 0; i < presets.size(); ++i)
        if (presets[i] == model)
            return static_cast<int>(i);
    return -1;
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
