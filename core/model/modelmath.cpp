// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/modelmath.h"

#include <algorithm>

namespace clusterplanner::core {

namespace {

bool hasBiases(const ModelConfig& m)
{
    return m.norm == NormKind::LayerNorm;
}

/// One norm over `width` elements: a scale, and a bias for LayerNorm.
double normParametersAt(const ModelConfig& m, double width)
{
    return m.norm == NormKind::LayerNorm ? 2 * width : width; // weight (+ bias)
}

double normParameters(const ModelConfig& m)
{
    return normParametersAt(m, m.hidden);
}

double attentionBiases(const ModelConfig& m)
{
    return hasBiases(m) ? (queryWidth(m) + kvWidth(m) + valueWidth(m)) + m.hidden : 0;
}

/// The RMSNorms MLA applies to its query and key/value latents (none without MLA).
double latentNormParameters(const ModelConfig& m)
{
    return m.mla.enabled() ? normParametersAt(m, m.mla.qLoraRank) + normParametersAt(m, m.mla.kvLoraRank) : 0;
}

/// MLA's projections (docs/methods-model.md §2.4): queries h → q_lora → heads·(nope + rope), or h → heads·(nope + rope)
/// without a query latent; keys and values h → kv_lora + rope (the rotary key, shared by the heads) → heads·(nope + v);
/// the output heads·v → h.
double latentAttentionWeights(const ModelConfig& m)
{
    const MlaConfig& a = m.mla;
    const double h = m.hidden;
    const double down = h * (a.qLoraRank + a.kvLoraRank + a.qkRopeHeadDim); // no query down-projection at rank 0
    return down + latentUpProjectionWeights(m) + attentionOutputWidth(m) * h;
}

/// Weights of one MLP with intermediate size f (SwiGLU has gate, up and down; GELU has up and down).
double mlpMatmul(const ModelConfig& m, double f)
{
    return (m.mlp == MlpKind::SwiGlu ? 3 : 2) * m.hidden * f;
}

double mlpBiases(const ModelConfig& m, double f)
{
    return hasBiases(m) ? (m.mlp == MlpKind::SwiGlu ? 2 * f : f) + m.hidden : 0;
}

double mlpParameters(const ModelConfig& m, double f)
{
    return mlpMatmul(m, f) + mlpBiases(m, f);
}

void countMoe(const ModelConfig& m, ParameterCounts& counts)
{
    const MoeConfig& moe = *m.moe;
    const double expert = mlpParameters(m, moe.expertFfnHidden);
    const double router = double(m.hidden) * moe.experts;
    const double shared = moe.sharedExperts * expert;
    counts.routedExpertsPerMoeLayer = moe.experts * expert;
    counts.expertsPerMoeLayer = counts.routedExpertsPerMoeLayer + router + shared;
    counts.activeExpertsPerMoeLayer = moe.topK * expert + router + shared;
}

} // namespace

bool hasLearnedPositions(const ModelConfig& m)
{
    return m.norm == NormKind::LayerNorm && m.ropeBase == 0;
}

int transformerLayers(const ModelConfig& model)
{
    return model.layers + std::max(0, model.mtpLayers);
}

int moeLayerCount(const ModelConfig& model)
{
    if (!model.moe)
        return 0;
    return model.moe->moeLayers > 0 ? model.moe->moeLayers : model.layers;
}

ParameterCounts countParameters(const ModelConfig& m)
{
    ParameterCounts c;
    const double h = m.hidden;
    c.embedding = double(m.vocab) * h + (hasLearnedPositions(m) ? double(m.seqLen) * h : 0);
    c.head = m.tiedEmbeddings ? 0 : double(m.vocab) * h;
    c.finalNorm = normParameters(m);
    c.attentionPerLayer = attentionMatmulWeights(m) + attentionBiases(m);
    // A parallel block's attention and MLP share one norm (PaLM §2, "Parallel Layers").
    c.normsPerLayer = (m.parallelBlock ? 1 : 2) * normParameters(m)
        + (m.qkNorm ? 2 * normParametersAt(m, headDim(m)) : 0) // + q, k norms
        + latentNormParameters(m);
    c.denseMlpPerLayer = mlpParameters(m, m.ffnHidden);
    // A multi-token-prediction module's transformer layer is of the model's last kind (Megatron-Core builds it from
    // the last layer's spec; dense layers come first here, so MoE wherever the model has MoE layers).
    c.mtpLayers = std::max(0, m.mtpLayers);
    c.mtpMoeLayers = m.moe ? c.mtpLayers : 0;
    c.moeLayers = moeLayerCount(m) + c.mtpMoeLayers;
    c.denseLayers = m.layers - moeLayerCount(m) + (c.mtpLayers - c.mtpMoeLayers);
    // Each module's projection of [norm(hidden); norm(embedding)] (2h → h, no bias) and its three norms (the two
    // inputs' and its output's); the embedding and the LM head are the model's own.
    c.mtpExtras = c.mtpLayers * (2.0 * h * h + 3 * normParameters(m));
    if (m.moe)
        countMoe(m, c);

    const double fixed = c.embedding + c.head + c.finalNorm + c.mtpExtras;
    c.total = fixed + c.denseLayers * c.denseLayerTotal() + c.moeLayers * c.moeLayerTotal();
    c.active = fixed + c.denseLayers * c.denseLayerTotal()
        + c.moeLayers * (c.attentionPerLayer + c.normsPerLayer + c.activeExpertsPerMoeLayer);

    double moeMatmulActive = 0;
    if (m.moe) {
        const auto& moe = *m.moe;
        moeMatmulActive = (moe.topK + moe.sharedExperts) * mlpMatmul(m, moe.expertFfnHidden) + h * moe.experts;
    }
    c.matmulActiveLayers = (c.denseLayers + c.moeLayers) * attentionMatmulWeights(m)
        + c.denseLayers * mlpMatmul(m, m.ffnHidden) + c.moeLayers * moeMatmulActive;
    // The LM head is a matmul even when tied, and each MTP module runs it again on its own hidden states, after its
    // projection (Megatron-LM's num_floating_point_operations counts the same).
    c.matmulActive = c.matmulActiveLayers + (1.0 + c.mtpLayers) * double(m.vocab) * h + c.mtpLayers * 2.0 * h * h;
    return c;
}

double headDim(const ModelConfig& m)
{
    return m.headDim > 0 ? double(m.headDim) : double(m.hidden) / m.heads;
}

double queryKeyHeadDim(const ModelConfig& m)
{
    return m.mla.enabled() ? double(m.mla.qkNopeHeadDim) + m.mla.qkRopeHeadDim : headDim(m);
}

double valueHeadDim(const ModelConfig& m)
{
    return m.mla.enabled() ? double(m.mla.vHeadDim) : headDim(m);
}

double keyValueHeads(const ModelConfig& m)
{
    return m.mla.enabled() ? m.heads : m.kvHeads;
}

double queryWidth(const ModelConfig& m)
{
    return m.heads * queryKeyHeadDim(m);
}

double kvWidth(const ModelConfig& m)
{
    return keyValueHeads(m) * queryKeyHeadDim(m);
}

double valueWidth(const ModelConfig& m)
{
    return keyValueHeads(m) * valueHeadDim(m);
}

double attentionOutputWidth(const ModelConfig& m)
{
    return m.heads * valueHeadDim(m);
}

bool inputNormRecomputed(const ModelConfig& m)
{
    return m.mla.enabled() && m.moe.has_value();
}

bool hasRecomputeModules(const ModelConfig& m)
{
    return m.moe.has_value() || m.mla.enabled();
}

double latentQueryInputWidth(const ModelConfig& m)
{
    if (!m.mla.enabled())
        return 0.0;
    return m.mla.qLoraRank > 0 ? double(m.mla.qLoraRank) : double(m.hidden);
}

double latentKeyValueUpWidth(const ModelConfig& m)
{
    return m.mla.enabled() ? m.heads * (double(m.mla.qkNopeHeadDim) + m.mla.vHeadDim) : 0.0;
}

double latentUpProjectionWeights(const ModelConfig& m)
{
    if (!m.mla.enabled())
        return 0.0;
    return latentQueryInputWidth(m) * queryWidth(m) + double(m.mla.kvLoraRank) * latentKeyValueUpWidth(m);
}

double attentionMatmulWeights(const ModelConfig& m)
{
    if (m.mla.enabled())
        return latentAttentionWeights(m);
    const double h = m.hidden;
    return h * (queryWidth(m) + kvWidth(m) + valueWidth(m)) + attentionOutputWidth(m) * h;
}

double attentionFlopsPerToken(const ModelConfig& m)
{
    // Scores over the query/key width, values over the value width (both heads · head_dim unless MLA or head_dim says
    // otherwise): GQA shrinks K/V, not the score computation.
    return 6.0 * transformerLayers(m) * double(m.seqLen) * (queryWidth(m) + attentionOutputWidth(m));
}

double modelFlopsPerToken(const ModelConfig& m)
{
    return 6.0 * countParameters(m).matmulActive + attentionFlopsPerToken(m);
}

double hardwareFlopsPerToken(const ModelConfig& m, Recompute recompute)
{
    const double model = modelFlopsPerToken(m);
    switch (recompute) {
    case Recompute::None:
        return model;
    case Recompute::Modules: // element-wise work, and MLA's up-projections (docs/methods-time.md §4.37)
        return model + 2.0 * transformerLayers(m) * latentUpProjectionWeights(m);
    case Recompute::Selective:
        return model + attentionFlopsPerToken(m); // K22 Eq. 8: s/(6h) becomes s/(3h)
    case Recompute::Full:
        // One extra forward of every layer: 2·N_mm(layers) + the forward third of the attention term.
        return model + 2.0 * countParameters(m).matmulActiveLayers + attentionFlopsPerToken(m) / 3.0;
    }
    return model;
}

int expertTensorParallel(const ParallelLayout& layout)
{
    if (layout.expertTp != kExpertTpDefault)
        return std::max(1, layout.expertTp);
    const long long dpCp = std::max(1LL, 1LL * layout.dp * layout.cp);
    return dpCp % std::max(1, layout.ep) == 0 ? std::max(1, layout.tp) : 1;
}

int expertDataParallel(const ParallelLayout& layout)
{
    const long long stageRanks = 1LL * std::max(1, layout.tp) * std::max(1, layout.dp) * std::max(1, layout.cp);
    return int(std::max(1LL, stageRanks / (1LL * expertTensorParallel(layout) * std::max(1, layout.ep))));
}

bool reducesGradients(const ParallelLayout& layout)
{
    return layout.dp * layout.cp > 1 || expertDataParallel(layout) > 1;
}

int expertShardReplicas(const ParallelLayout& layout)
{
    // The outer DP ranks that replicate a dense shard replicate the experts' too (layoutcheck.cpp requires that
    // they divide the expert-data-parallel group; an unchecked layout where they do not shards the experts whole).
    const int replicas = std::max(1, layout.shardReplicas());
    return expertDataParallel(layout) % replicas == 0 ? replicas : 1;
}

int expertShardRanks(const ParallelLayout& layout)
{
    return std::max(1, expertDataParallel(layout) / expertShardReplicas(layout));
}

double shardedParameters(double parameters, double expertParameters, const ParallelLayout& layout)
{
    const double shardRanks = std::max(1, layout.shardDp() * layout.cp);
    return (parameters - expertParameters) / shardRanks + expertParameters / expertShardRanks(layout);
}

} // namespace clusterplanner::core
