// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/memory/memorycontext.h"

#include <algorithm>

namespace clusterplanner::core {

namespace {

bool isHopperOrNewer(const GpuSpec& gpu)
{
    for (const char* family : {"H100", "H200", "H800", "B200", "GB200", "B300"})
        if (gpu.id.find(family) != std::string::npos)
            return true;
    return false;
}

double matmulWeightsPerLayer(const ModelConfig& m)
{
    const double h = m.hidden;
    const double attention = attentionMatmulWeights(m);
    const double mlpMatrices = m.mlp == MlpKind::SwiGlu ? 3 : 2;
    if (m.moe)
        return attention + mlpMatrices * h * m.moe->expertFfnHidden * (m.moe->topK + m.moe->sharedExperts);
    return attention + mlpMatrices * h * m.ffnHidden;
}

} // namespace

MemoryContext makeMemoryContext(const ModelConfig& model, const GpuSpec* gpu)
{
    MemoryContext c;
    c.model = model;
    c.params = countParameters(model);
    c.h = model.hidden;
    c.heads = model.heads;
    c.hKv = model.heads > 0 ? kvWidth(model) : 0.0;
    c.hQ = model.heads > 0 ? queryWidth(model) : 0.0;
    c.hV = model.heads > 0 ? valueWidth(model) : 0.0;
    c.hO = model.heads > 0 ? attentionOutputWidth(model) : 0.0;
    if (model.mla.enabled()) {
        c.latentQ = model.mla.qLoraRank;
        c.latentKv = model.mla.kvLoraRank; // the rotary key beside it goes into the key heads, not a norm
    }
    c.f = model.ffnHidden;
    c.vocab = model.vocab;
    c.seq = model.seqLen;
    c.layers = transformerLayers(model); // the multi-token-prediction modules' layers too, on the last stage
    if (model.moe) {
        c.expertF = model.moe->expertFfnHidden;
        c.moeTopK = model.moe->topK;
        c.moeCapacity = model.moe->capacityFactor;
    }
    c.layerParamsDense = c.params.denseLayerTotal();
    c.layerParamsMoe = c.params.moeLayerTotal();
    c.matmulPerLayer = matmulWeightsPerLayer(model);
    c.largestUnitParams = std::max(
        {c.layerParamsDense, c.params.moeLayers > 0 ? c.layerParamsMoe : 0.0, c.params.embedding, c.params.head});
    if (gpu) {
        using namespace memoryconstants;
        c.capacityBytes = gpu->memoryBytes() * (1.0 - kDriverReserveFraction);
        c.workspaceBytes
            = kCublasHandles * (isHopperOrNewer(*gpu) ? kCublasWorkspaceHopperBytes : kCublasWorkspaceOlderBytes);
        c.contextReserveBytes = kCudaContextBytes;
    }
    c.valid = gpu != nullptr;
    return c;
}

} // namespace clusterplanner::core
