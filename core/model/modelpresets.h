// SPDX-License-Identifier: GPL-3.0-or-later
// Published model architectures: the scenario form's preset menu, sample scenarios, tests and benchmarks.
#pragma once

#include "core/model/scenario.h"

#include <string>
#include <vector>

namespace clusterplanner::core {

/// The presets in menu order (data/models.json, compiled in, each with its source); each preset's name is
/// ModelConfig::name.
const std::vector<ModelConfig>& modelPresets();
/// Each preset's source (data/models.json), in the order of modelPresets(): where its dimensions come from and what
/// of the architecture the engine does not model.
const std::vector<std::string>& modelPresetSources();
/// Parses the data/models.json format; throws std::runtime_error naming the model and the field that is wrong.
std::vector<ModelConfig> modelPresetsFromJson(const std::string& text);
/// Index into modelPresets() of the preset equal to `model`, or -1 for a custom model.
int findModelPreset(const ModelConfig& model);
/// GPT-3 175B with the vocabulary padded to 51,200 as Megatron trains it: the model of the seeds' case study,
/// Narayanan et al. 2021 and Korthikanti et al. 2022 (docs/methods-test-values.md §11 items 3 and 5).
ModelConfig gpt3Padded();
/// The preset whose shape `model` has: the same layers, hidden size, query and KV heads and, for MoE, experts, top-k,
/// expert FFN and shared experts (and, when `compareFfn`, the dense FFN of a preset that has dense layers); nothing
/// when none or several match. Names and vocabularies are not compared: sources spell names their own way and pad
/// vocabularies (docs/methods-time.md §4.42).
const ModelConfig* presetOfSameShape(const ModelConfig& model, bool compareFfn);
/// The preset of that name; throws std::out_of_range for an unknown name.
const ModelConfig& modelPreset(const std::string& name);

} // namespace clusterplanner::core
