// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/validation/casefamily.h"

#include "core/model/enumnames.h"
#include "core/perf/efficiencyparams.h"

namespace clusterplanner::core {

std::string CaseFamily::label() const
{
    return framework + " · " + gpuFamily + " · " + (moe ? "MoE" : "dense");
}

ModelShape modelShape(const ModelConfig& m)
{
    constexpr int kVocabPad = 1024; // 128 × TP 8, the widest padding Megatron applies in practice
    ModelShape shape;
    shape.layers = m.layers;
    shape.hidden = m.hidden;
    shape.heads = m.heads;
    shape.kvHeads = m.kvHeads;
    shape.denseFfn = m.ffnHidden;
    shape.mlp = m.mlp;
    shape.paddedVocab = (m.vocab + kVocabPad - 1) / kVocabPad * kVocabPad;
    if (m.moe) {
        const bool allMoe = m.moe->moeLayers <= 0 || m.moe->moeLayers >= m.layers;
        shape.denseFfn = allMoe ? 0 : m.ffnHidden;
        shape.moeLayers = allMoe ? 0 : m.moe->moeLayers;
        shape.experts = m.moe->experts;
        shape.sharedExperts = m.moe->sharedExperts;
        shape.expertFfn = m.moe->expertFfnHidden;
        shape.topK = m.moe->topK;
    }
    return shape;
}

CaseFamily caseFamily(const Scenario& scenario)
{
    CaseFamily family;
    family.framework = toString(scenario.training.framework);
    family.gpuFamily = perf::EfficiencyTable::builtin().forGpu(scenario.cluster.gpuId).family;
    family.moe = scenario.model.moe.has_value();
    family.gpus = scenario.cluster.gpuCount;
    family.model = modelShape(scenario.model);
    family.modelName = scenario.model.name;
    return family;
}

} // namespace clusterplanner::core
