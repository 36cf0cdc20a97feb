// SPDX-License-Identifier: GPL-3.0-or-later
// The family a run belongs to for error reporting and confidence bands: framework × GPU generation × dense/MoE
// (docs/validation.md "Per family"; core/validation/confidence.h).
#pragma once

#include "core/model/scenario.h"

#include <string>

namespace clusterplanner::core {

/// What identifies a model across case files, presets and scenarios, whose names differ ("Llama 3.1 8B",
/// "Llama-3.1-8B"): layers, hidden size, query and KV heads, the dense FFN where the model has dense layers (an
/// all-MoE model's FFN field holds whatever its source wrote there), and for MoE the routed experts, their width and
/// top-k. Vocabulary and sequence length are left out: the same model is run padded or at other lengths.
struct ModelShape
{
    int layers = 0, hidden = 0, heads = 0, kvHeads = 0, denseFfn = 0, experts = 0, expertFfn = 0, topK = 0;
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
