// SPDX-License-Identifier: GPL-3.0-or-later
// Import of a Hugging Face transformers config.json into the engine's ModelConfig.
#pragma once

#include "core/model/scenario.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace clusterplanner::core::hf {

/// A config.json that cannot be imported. what() names the file's field and the problem, e.g.
/// "num_hidden_layers: is missing (required for model_type \"llama\")".
class HfConfigError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

/// The imported model and what the engine could not represent exactly.
struct HfImport
{
    ModelConfig model; ///< model.seqLen is the config's maximum sequence length (max_position_embeddings)
    std::string modelType; ///< the config's model_type, e.g. "llama"
    std::vector<std::string> notes; ///< approximations made (MLA, QKV biases, head_dim), one sentence each
};

/// The model_type values understood, in the order they are listed in messages.
const std::vector<std::string>& supportedModelTypes();

/// Parses the text of a config.json. Unknown fields are ignored; a missing or ill-typed required field throws
/// HfConfigError naming it. `fallbackName` names the model when the file has no _name_or_path.
HfImport importHfConfig(const std::string& jsonText, const std::string& fallbackName = {});

/// Reads and imports the file at `path`; HfConfigError messages start with the path.
HfImport importHfConfigFile(const std::string& path);

/// The model of `current` replaced by the import, keeping the training sequence length of `current` unless the
/// imported model's maximum is shorter (a training run cannot exceed the model's position range).
ModelConfig replaceModel(const ModelConfig& current, const HfImport& imported);

} // namespace clusterplanner::core::hf
