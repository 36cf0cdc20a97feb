// SPDX-License-Identifier: GPL-3.0-or-later
// The family a run belongs to for error reporting and confidence bands: framework × GPU generation × dense/MoE
// (docs/validation.md "Per family"; core/validation/confidence.h).
#pragma once

#include "core/model/scenario.h"

#include <string>

namespace clusterplanner::core {

/// What identifies a model across case files, presets and scenarios, whose names differ ("Llama 3.1 8B",
/// "Llama-3.1-8B"): layers, hidden size, query and KV heads, MLP kind, the dense FFN where the model has dense layers
/// (an all-MoE model's FFN field holds whatever its source wrote there), the vocabulary padded to a multiple of 1,024
/// (Megatron pads to 128 × TP, so 50,257 and 51,200 are one model; 50,368 and 131,072 are not), and for MoE the
/// routed and shared experts, their width, top-k and the MoE layer count (0: every layer). Sequence length is left
/// out: the same model is run at other lengths. Unlike the preset match of a case (modelpresets.h
/// presetOfSameShape), which must ignore the vocabulary a schema case may pad, this tells models apart for reporting.
struct ModelShape
{
    int layers = 0, hidden = 0, heads = 0, kvHeads = 0, denseFfn = 0;
    MlpKind mlp = MlpKind::Gelu;
    int paddedVocab = 0;
    int experts = 0, sharedExperts = 0, expertFfn = 0, topK = 0, moeLayers = 0;
    bool operator==(const ModelShape&) const = default;
};

ModelShape modelShape(const ModelConfig& model);

struct CaseFamily
{
    std::string framework; ///< data/frameworks.json id, e.g. "torchtitan"
    std::string gpuFamily; ///< data/efficiency.json family of the GPU, e.g. "Hopper" ("default" when not listed)
    bool moe = false;
    int gpus = 0; ///< scale of the run (not part of the key; bands report the validated range)
    ModelShape model; ///< the run's model (not part of the key; bands name this model's own runs)
    std::string modelName; ///< as the case names it

    /// "torchtitan · Hopper · dense"
    std::string label() const;
    bool sameKey(const CaseFamily& other) const
    {
        return framework == other.framework && gpuFamily == other.gpuFamily && moe == other.moe;
    }
};

CaseFamily caseFamily(const Scenario& scenario);

} // namespace clusterplanner::core
