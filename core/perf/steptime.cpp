// SPDX-License-Identifier: GPL-3.0-or-later
// Step assembly (docs/methods-time.md §4.5): per-micro-batch stage times with exposed TP/CP/EP/PP communication, the
// pipeline makespan (closed form), then DP synchronisation, the optimizer and fixed costs.
#include "core/perf/steptime.h"

#include "core/memory/activationoffload.h"
#include "core/memory/modelstates.h"
#include "core/model/frameworkrules.h"
#include "core/model/layoutcheck.h"
#include "core/model/modelmath.h"
#include "core/perf/computetime.h"
#include "core/perf/datasync.h"
#include "core/perf/pipeline.h"
#include "core/perf/powercap.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace clusterplanner::core::perf {

namespace {

Fp8CastPath fp8CastPath(const FrameworkCapabilities& caps)
{
    if (!caps.fp8ViaTransformerEngine)
        return Fp8CastPath::Torchao;
    return caps.teFusedNormLinear ? Fp8CastPath::TransformerEngineFusedNorm : Fp8CastPath::TransformerEngine;
}

/// SMs an expert all-to-all's kernels hold while it runs beside compute: DeepEP's in Megatron-Core
/// (TransformerConfig moe_deepep_num_sms, default 20) and DeepSeek's DualPipe all-to-alls ("only 20 SMs are
/// sufficient to fully utilize the bandwidths of IB and NVLink", DeepSeek-V3 report §3.2.2). NCCL's all-to-all is
/// charged the same: no published count of its SMs was found (docs/methods-time.md §4.49).
constexpr double kExpertAllToAllSms = 20;

/// Share of each hidden expert all-to-all second added to the step: the compute it hides behind runs on the SMs the
/// all-to-all leaves. Where the GPU's SM count is unknown, the general rate of any hidden communication.
double expertAllToAllSlowdown(const GpuSpec& gpu, double generalRate)
{
    return gpu.smCount > 0 ? std::max(generalRate, kExpertAllToAllSms / gpu.smCount) : generalRate;
}

/// Per-micro-batch times of the slowest pipeline stage, split the way the schedule needs them.
struct StageTimes
{
    double forwardS = 0, backwardInputS = 0, backwardWeightS = 0, recomputeS = 0;
    double computeForwardS = 0, computeBackwardS = 0, computeRecomputeS = 0; ///< without exposed communication
    double tpTotalS = 0, tpExposedS = 0, cpTotalS = 0, cpExposedS = 0, epTotalS = 0, epExposedS = 0;
    double hiddenCommS = 0;
    double hostForwardS = 0, hostBackwardS = 0; ///< eager PyTorch: host time to issue the ops (0 when fused)
    double layersForwardS = 0, layersBackwardS = 0; ///< compute of the transformer layers alone (no head)
};

struct Setup
{
    const StepTimeContext& c;
    const TrainingConfig& tr;
    const FrameworkCapabilities& caps; ///< of tr.framework, looked up once per evaluation
    Precision precision; ///< what tr.precision trains as in this framework (precisionInEffect)
    OptimizerStates optimizerStates; ///< the optimizer state width in effect (optimizerStatesInEffect)
    LayoutSpans spans;
    LayerShape shape;
    ComputePeaks peaks;
    int microBatches = 1; ///< per pipeline and step
};

/// Exposed time of one forward TP collective under async TP (docs/methods-time.md §4.13): the collective moves in tp
/// chunks, each behind the GEMM on the previous chunk, so the first chunk shows, or all of the transfer that outlasts
/// its GEMM (the pass's collectives share the forward's GEMMs: two in a sequential block, one in a parallel block,
/// §4.50). Without async TP: no bound (the caller keeps its figure).
double asyncTpExposedS(const Setup& s, double tpOneS, double gemmForwardS, double collectivesPerPass)
{
    if (!asyncTpApplies(s.tr, s.caps))
        return std::numeric_limits<double>::infinity();
    return std::max(tpOneS / s.tr.layout.tp, tpOneS - gemmForwardS / collectivesPerPass);
}

/// DualPipe runs: a pipeline of at least two stages (one stage has no pipeline to schedule).
bool dualPipeApplies(const TrainingConfig& tr)
{
    return tr.schedule == PipelineSchedule::DualPipe && tr.layout.pp > 1;
}

/// Exposed time of a MoE layer's expert all-to-alls per micro-batch, the forward's dispatch + combine and the
/// backward's two (docs/methods-time.md §4.25, §4.39). Alone, the layer waits for them except where the framework
/// runs the shared experts beside them (core/perf/expertexposure.h). With paired micro-batches (Megatron-Core's
/// combined 1F1B; DualPipe, whose overlapped forward-backward chunks pair them whatever moe_overlap says) the
/// forward's run under the partner's backward of the layer, the backward's under its forward, each behind half of
/// that; the first forward and the last backward of the m micro-batches have no partner (under DualPipe its warm-up
/// and drain chunks, §4.46).
AllToAllExposure expertExposure(const Setup& s, double epOneS, const LayerTime& lt)
{
    if (!moeOverlapApplies(s.tr, s.caps) && !dualPipeApplies(s.tr))
        return unpairedAllToAllExposure(
            epOneS, lt.sharedExpertForward, sharedExpertOverlapInEffect(s.tr, s.caps, *s.c.model));
    // DualPipe pairs only the chunks of its steady state: of each rank's m forwards (and backwards) 3p/2 − h − 1 run
    // alone, h its distance from the nearer end; rank 0's count (h = 0), the most of any rank.
    const int m = std::max(1, s.microBatches);
    const double unpaired = dualPipeApplies(s.tr) ? std::min(1.0, (1.5 * s.tr.layout.pp - 1) / m) : 1.0 / m;
    const auto paired = [&](double windowS) {
        return 2 * ((1 - unpaired) * std::max(0.0, epOneS - windowS / 2) + unpaired * epOneS);
    };
    return {paired(lt.backwardS()), paired(lt.forwardS)};
}

/// Megatron-Core's recompute_modules in one layer's backward: in a MoE layer "layernorm" and "moe_act"
/// (docs/methods-time.md §4.35), the pre-MLP norm (read the residual, write its output) and the experts' SwiGLU (read
/// gate and up, write the product), memory-bound; under MLA "mla_up_proj" (§4.37), the up-projections to the query,
/// key and value heads and their element-wise work. 0 for any other recompute kind or a framework without the mode.
double moduleRecomputeS(const Setup& s, const LayerTime& lt, bool moe)
{
    if (s.tr.recompute != Recompute::Modules || !s.caps.supports(Recompute::Modules))
        return 0.0;
    const ModelConfig& m = *s.c.model;
    const double tokens = s.shape.microBatch * m.seqLen / s.shape.contextParallel;
    const double beta = s.shape.bytesPerActivation;
    const double normBytes = 2.0 * m.hidden * beta / (s.shape.sequenceParallel ? s.shape.tensorParallel : 1.0);
    // Under MLA the layer's input norm is a module of its own (its down-projections take no fused norm), so the
    // module list's "layernorm", written for a MoE model, recomputes it in every layer.
    const double inputNormS = inputNormRecomputed(m) ? memoryTimeS(tokens * normBytes, s.peaks) : 0.0;
    if (!moe)
        return lt.latentUpProjectionForwardS + inputNormS;
    const double expertF = m.moe->expertFfnHidden * m.moe->topK * m.moe->capacityFactor;
    // Under FP8, Transformer Engine quantizes the recomputed product again for the second expert GEMM's backward
    // (read 2 B, write 1 B per element).
    const double requantizeBytes = s.tr.precision == Precision::Fp8 ? 3.0 : 0.0;
    const double activationBytes = (3.0 * beta + requantizeBytes) * expertF / s.shape.tensorParallel;
    return memoryTimeS(tokens * (normBytes + activationBytes), s.peaks) + lt.latentUpProjectionForwardS + inputNormS;
}

/// A MoE layer's TP collectives on its MLP side, per forward, in place of a dense MLP's (docs/methods-time.md §4.45;
/// Megatron-Core's MoEAlltoAllTokenDispatcher and SharedExpertMLP): the shared experts are a TP-split dense MLP on
/// every token, whose collectives cost what a dense layer's do (hiddenS); the routed rows are all-gathered over the
/// expert-TP group after the dispatch and reduce-scattered before the combine, k·cf rows per token, where expert TP
/// is above 1. (The flex dispatcher, DeepEP, sends those copies to the other expert-TP ranks inside its own dispatch
/// over TP × EP instead: the same bytes, priced here as the gather.) The gathered rows are those of the expert-TP
/// group's ranks, an expert-TP/TP share of the TP group's tokens (all of them where expert TP is TP). With expert TP 1
/// (EP folded over TP, or a layout that sets it) no routed row is gathered.
double moeMlpTensorParallelS(const Setup& s, double tokens, double hiddenS)
{
    const MoeConfig& moe = *s.c.model->moe;
    const double shared = moe.sharedExperts > 0 ? hiddenS : 0.0;
    const double expertTp = s.shape.expertTp();
    if (expertTp <= 1)
        return shared;
    const double gatheredTokens = tokens * expertTp / s.shape.tensorParallel;
    const double routedBytes
        = gatheredTokens * moe.topK * moe.capacityFactor * s.c.model->hidden * s.shape.bytesPerActivation;
    return shared + groupCollectiveS(Collective::AllReduce, routedBytes, s.spans.expertTp, s.c.fabric);
}

/// Adds n layers of one kind (dense or MoE) to the stage, with their TP / CP / EP communication.
void addLayers(StageTimes& st, const Setup& s, double n, bool moe)
{
    if (n <= 0)
        return;
    const ModelConfig& m = *s.c.model;
    const EfficiencyParams& e = s.c.efficiency;
    const LayerTime lt = layerTime(m, s.shape, moe, s.peaks, e);
    const double tokens = s.shape.microBatch * m.seqLen / s.shape.contextParallel;
    const double beta = s.shape.bytesPerActivation;
    const bool full = s.tr.recompute == Recompute::Full;
    const bool selective = s.tr.recompute == Recompute::Selective;
    const double modulesS = moduleRecomputeS(s, lt, moe);
    // TP: 2 all-reduces (or RS + AG with SP, same volume) forward, 2 backward, 2 more when the forward is recomputed
    // (fewer where the recompute stops early; a parallel block: one of each, below), one of each pair on the attention
    // side (a MoE layer's MLP side: moeMlpTensorParallelS). Under MLA (docs/methods-time.md §4.37) that side's gather
    // (SP) or input-gradient all-reduce carries the latents instead of the hidden state, the output side the hidden
    // state: its collective is the mean of the two widths, and tpOne the mean of the two sides.
    const double hiddenS = groupCollectiveS(Collective::AllReduce, tokens * m.hidden * beta, s.spans.tp, s.c.fabric);
    const double mlp = moe ? moeMlpTensorParallelS(s, tokens, hiddenS) : hiddenS;
    // Without a query latent the queries are projected from the gathered hidden state: that side stays h wide.
    const double latents
        = m.mla.qLoraRank > 0 ? double(m.mla.qLoraRank) + m.mla.kvLoraRank + m.mla.qkRopeHeadDim : double(m.hidden);
    const double attention = m.mla.enabled()
        ? groupCollectiveS(Collective::AllReduce, tokens * 0.5 * (m.hidden + latents) * beta, s.spans.tp, s.c.fabric)
        : hiddenS;
    const double tpOne = 0.5 * (attention + mlp);
    // A parallel block's attention and MLP take one gathered (or all-reduced-gradient) input and add their outputs
    // before one reduction: one collective per pass where the sequential block has two (§4.50).
    const double perPass = m.parallelBlock ? 1.0 : 2.0;
    // A checkpoint that stops early (§4.54) does not run a dense layer's last matmul again, nor the reduction after
    // it: the all-reduce, or with sequence parallelism the reduce-scatter, half of an all-gather/reduce-scatter pair.
    const bool stopsEarly = !moe && recomputeStopsEarly(s.tr, s.caps);
    const double skippedCollectives = stopsEarly ? (s.shape.sequenceParallel ? 0.5 : 1.0) : 0.0;
    const double recomputeCollectives = full ? perPass - skippedCollectives : 0.0;
    const double tpCount = 2 * perPass + recomputeCollectives;
    // CP ring: cp−1 KV block passes forward, twice that backward (KV and dKV) (docs/methods-time.md §4.3). Each
    // pass runs under one ring step's attention and shows where it outlasts it (§4.10).
    const double kvBytes = tokens * (kvWidth(m) + valueWidth(m)) * beta / s.shape.tensorParallel;
    const double cpPass
        = s.spans.cp.size > 1 ? groupCollectiveS(Collective::SendRecv, kvBytes, s.spans.cp, s.c.fabric) : 0;
    const double cpSteps = s.spans.cp.size - 1;
    const double cpFwd = cpSteps * cpPass;
    const double cpFwdExposed = cpSteps * std::max(0.0, cpPass - e.cpOverlap * lt.ringStepForwardS);
    const double cpBwdExposed = cpSteps
        * std::max(
            0.0, 2 * cpPass - e.cpOverlap * attentionBackwardOverForward(s.shape, s.peaks) * lt.ringStepForwardS);
    // EP: dispatch + combine all-to-all forward; their gradients travel back the same way, one all-to-all each, in
    // the backward (docs/methods-time.md §4.24); DeepEP sends a token once per destination node (§4.25).
    double epOne = 0;
    if (moe && s.spans.ep.size > 1) {
        const double a2aBytes = tokens * m.moe->topK * m.moe->capacityFactor * m.hidden * beta
            / (s.shape.sequenceParallel ? s.shape.tensorParallel : 1.0);
        const ExpertRoute route {m.moe->topK, s.shape.deepEpDispatch, m.moe->expertGroups, m.moe->groupsPerToken};
        epOne = expertAllToAllS(a2aBytes, route, s.spans.ep, s.c.fabric);
    }
    // Async TP pipelines the forward's collectives (and the recomputed forward's); the backward keeps its exposure.
    const double tpExposedOne = (1 - e.tpOverlap) * tpOne;
    const double tpForwardExposedOne = std::min(tpExposedOne, asyncTpExposedS(s, tpOne, lt.gemmForwardS, perPass));
    const AllToAllExposure ep = expertExposure(s, epOne, lt);
    // One forward with its exposed communication; full recompute runs it again inside the backward.
    const double forwardWithCommS = lt.forwardS + perPass * tpForwardExposedOne + cpFwdExposed + ep.forwardS;
    st.forwardS += n * forwardWithCommS;
    // Backward TP collectives run asynchronously under the weight-gradient GEMMs (Megatron async TP all-reduce).
    const double tpBackwardExposed = std::max(0.0, perPass * tpExposedOne - lt.backwardWeightS);
    st.backwardInputS += n * (lt.backwardInputS + tpBackwardExposed + cpBwdExposed + ep.backwardS);
    st.backwardWeightS += n * lt.backwardWeightS;
    st.computeForwardS += n * lt.forwardS;
    st.computeBackwardS += n * lt.backwardS();
    st.layersForwardS += n * lt.forwardS;
    st.layersBackwardS += n * lt.backwardS();
    // Selective: Megatron recomputes the attention core; op-level checkpointing (TorchTitan) keeps every other
    // matmul's output and attention's, and recomputes the other matmuls and the memory-bound work
    // (docs/methods-time.md §4.7).
    const double selectiveS
        = s.caps.selectiveIsOpLevel ? 0.5 * lt.gemmForwardS + lt.elementwiseForwardS : lt.attentionCoreForwardS;
    const double partialRecomputeS = selective ? selectiveS : modulesS;
    const double skippedS = stopsEarly ? lt.lastGemmForwardS : 0.0;
    const double fullRecomputeS = forwardWithCommS - skippedS - skippedCollectives * tpForwardExposedOne;
    st.recomputeS += n * (full ? fullRecomputeS : partialRecomputeS);
    st.computeRecomputeS += n * (full ? lt.forwardS - skippedS : partialRecomputeS);
    // Eager host: the backward issues about twice the forward's ops; full recompute (checkpointing) issues the
    // forward's ops again inside the backward, plus its per-layer bookkeeping.
    const double checkpointS = s.shape.fusedKernels ? 0.0 : e.recomputeLayerOverheadEagerS;
    st.hostForwardS += n * lt.hostForwardS;
    st.hostBackwardS += n * (2 * lt.hostForwardS + (full ? lt.hostForwardS + checkpointS : 0.0));
    const double epCount = full ? 6 : 4; // 2 forward, 2 backward, 2 more when recomputed
    st.tpTotalS += n * tpCount * tpOne;
    st.tpExposedS += n * ((tpCount - perPass) * tpForwardExposedOne + tpBackwardExposed);
    const double cpTotalS = (full ? 4 : 3) * cpFwd; // per layer and micro-batch; a recompute repeats the forward
    const double cpExposedS = (full ? 2 : 1) * cpFwdExposed + cpBwdExposed;
    st.cpTotalS += n * cpTotalS;
    st.cpExposedS += n * cpExposedS;
    st.epTotalS += n * epCount * epOne;
    const double epExposedS = (full ? 2 : 1) * ep.forwardS + ep.backwardS; // per layer and micro-batch
    st.epExposedS += n * epExposedS;
    // What is not exposed is hidden, each dimension as it is counted above.
    st.hiddenCommS += n
        * (tpCount * tpOne - (tpCount - perPass) * tpForwardExposedOne - tpBackwardExposed + cpTotalS - cpExposedS
            + epCount * epOne - epExposedS);
}

/// Activation offload (docs/methods-time.md §4.32): each offloaded layer's saved activations go to the host on a
/// copy stream while the next layer's forward runs, and come back while the layer above it runs its backward
/// (Transformer Engine's double buffer waits for one copy before the next layer starts). The copy shows where it
/// outlasts that layer's compute.
struct OffloadTimes
{
    double totalS = 0, forwardExposedS = 0, backwardExposedS = 0; ///< per micro-batch
};

OffloadTimes offloadTimes(const Setup& s, const StageTimes& st, int offloaded)
{
    OffloadTimes o;
    const int layers = s.c.counts.denseLayers + s.c.counts.moeLayers;
    if (offloaded <= 0 || layers <= 0)
        return o;
    // A GPU without a host-link figure is given PCIe 4.0 x16, the slowest link of a current training GPU.
    constexpr double kUnknownHostLinkGBsBidir = 64;
    const double linkGBs = s.c.gpu->hostLinkGBsBidir > 0 ? s.c.gpu->hostLinkGBsBidir : kUnknownHostLinkGBsBidir;
    const double rateBps = linkGBs / 2 * 1e9 * s.c.efficiency.hostCopyEfficiency;
    if (rateBps <= 0)
        return o;
    const double copyS = offloadedLayerBytes(s.c.memory, s.tr) / rateBps;
    o.totalS = 2 * offloaded * copyS;
    o.forwardExposedS = offloaded * std::max(0.0, copyS - st.layersForwardS / layers);
    o.backwardExposedS = offloaded * std::max(0.0, copyS - st.layersBackwardS / layers);
    return o;
}

/// Eager PyTorch enqueues kernels asynchronously: each phase (forward; backward with its recompute) takes
/// max(host issue time, GPU time). The host excess is charged to the forward and the input-gradient backward.
void applyHostBound(StageTimes& st, double headHostForwardS)
{
    st.hostForwardS += headHostForwardS;
    st.hostBackwardS += 2 * headHostForwardS;
    const double forwardExcess = std::max(0.0, st.hostForwardS - st.forwardS);
    const double backwardExcess
        = std::max(0.0, st.hostBackwardS - (st.backwardInputS + st.backwardWeightS + st.recomputeS));
    st.forwardS += forwardExcess;
    st.computeForwardS += forwardExcess;
    st.backwardInputS += backwardExcess;
    st.computeBackwardS += backwardExcess;
}

/// Dense and MoE layers of a pipeline stage or rank.
struct StageLayers
{
    double dense = 0, moe = 0;
};

/// The last stage's multi-token-prediction layers, by kind (ParameterCounts::mtpMoeLayers).
StageLayers predictionLayers(const ParameterCounts& counts)
{
    return {double(counts.mtpLayers - counts.mtpMoeLayers), double(counts.mtpMoeLayers)};
}

/// The model's own layers by kind, without the multi-token-prediction modules'.
StageLayers mainLayers(const ParameterCounts& counts)
{
    const StageLayers mtp = predictionLayers(counts);
    return {counts.denseLayers - mtp.dense, counts.moeLayers - mtp.moe};
}

/// The LM head and the loss, share times per micro-batch (the first stage's embedding lookup is smaller).
void addHead(StageTimes& st, const Setup& s, double share)
{
    const LayerTime head = headTime(*s.c.model, s.shape, s.peaks);
    st.forwardS += share * head.forwardS;
    st.backwardInputS += share * head.backwardInputS;
    st.backwardWeightS += share * head.backwardWeightS;
    st.computeForwardS += share * head.forwardS;
    st.computeBackwardS += share * head.backwardS();
}

/// into += k · one, every figure: a stage of k layers whose one-layer times are `one`.
void addScaled(StageTimes& into, const StageTimes& one, double k)
{
    into.forwardS += k * one.forwardS;
    into.backwardInputS += k * one.backwardInputS;
    into.backwardWeightS += k * one.backwardWeightS;
    into.recomputeS += k * one.recomputeS;
    into.computeForwardS += k * one.computeForwardS;
    into.computeBackwardS += k * one.computeBackwardS;
    into.computeRecomputeS += k * one.computeRecomputeS;
    into.tpTotalS += k * one.tpTotalS;
    into.tpExposedS += k * one.tpExposedS;
    into.cpTotalS += k * one.cpTotalS;
    into.cpExposedS += k * one.cpExposedS;
    into.epTotalS += k * one.epTotalS;
    into.epExposedS += k * one.epExposedS;
    into.hiddenCommS += k * one.hiddenCommS;
    into.hostForwardS += k * one.hostForwardS;
    into.hostBackwardS += k * one.hostBackwardS;
    into.layersForwardS += k * one.layersForwardS;
    into.layersBackwardS += k * one.layersBackwardS;
}

/// Dense and MoE layers of pipeline stage `stage` under a contiguous cut: the memory model's split (the first stages
/// one layer more, core/memory/modelstates.h layersOnStage), the model's dense layers first (DeepSeek-V3's three).
StageLayers contiguousStageLayers(const ParameterCounts& counts, int pp, int stage)
{
    const StageLayers main = mainLayers(counts);
    const int layers = int(main.dense + main.moe);
    const int start = stage * (layers / pp) + std::min(stage, layers % pp);
    const int held = layersOnStage(layers, pp, stage);
    const int dense = std::clamp(int(main.dense) - start, 0, held);
    StageLayers cut {double(dense), double(held - dense)};
    if (stage == pp - 1) { // the multi-token-prediction layers after the last stage's share (modelstates.h)
        const StageLayers mtp = predictionLayers(counts);
        cut.dense += mtp.dense;
        cut.moe += mtp.moe;
    }
    return cut;
}

/// The stage the step is timed on: ceil(dense / pp) and ceil(MoE / pp) of the model's layers, or the last stage where
/// its multi-token-prediction layers make it fuller.
StageLayers slowestStageLayers(const ParameterCounts& counts, int pp)
{
    const StageLayers main = mainLayers(counts);
    const StageLayers fullest {std::ceil(main.dense / pp), std::ceil(main.moe / pp)};
    if (counts.mtpLayers <= 0)
        return fullest;
    // The MTP layers sit on the last stage after its share of the cut (Megatron-Core puts them all there): that stage
    // is the one timed where it then holds more layers than the fullest.
    const StageLayers last = contiguousStageLayers(counts, pp, pp - 1);
    return last.dense + last.moe > fullest.dense + fullest.moe ? last : fullest;
}

/// DualPipe: the layers rank d holds, those of stage d of one direction and stage p − 1 − d of the other.
StageLayers dualPipeRankLayers(const ParameterCounts& counts, int pp, int d)
{
    const StageLayers a = contiguousStageLayers(counts, pp, d), b = contiguousStageLayers(counts, pp, pp - 1 - d);
    return {a.dense + b.dense, a.moe + b.moe};
}

/// DualPipe (docs/methods-time.md §4.46): rank d runs stage d of one direction and stage p − 1 − d of the other, half
/// the micro-batches through each, so its times per micro-batch are the mean of its two stages'. Stages are cut
/// contiguously; the LM head is on stage p − 1, with rank 0. The step is timed on the slowest rank.
StageLayers slowestDualPipeRank(
    const Setup& s, const StageTimes& denseOne, const StageTimes& moeOne, const StageTimes& headOne, double& headShare)
{
    const int p = s.tr.layout.pp;
    const auto seconds
        = [](const StageTimes& t) { return t.forwardS + t.backwardInputS + t.backwardWeightS + t.recomputeS; };
    StageLayers slowest;
    double slowestS = -1;
    for (int d = 0; d < p / 2; ++d) {
        const StageLayers both = dualPipeRankLayers(s.c.counts, p, d);
        const StageLayers mean {0.5 * both.dense, 0.5 * both.moe};
        const double head = d == 0 ? 0.5 : 0.0;
        const double rankS = mean.dense * seconds(denseOne) + mean.moe * seconds(moeOne) + head * seconds(headOne);
        if (rankS > slowestS) {
            slowestS = rankS;
            slowest = mean;
            headShare = head;
        }
    }
    return slowest;
}

StageTimes slowestStage(const Setup& s)
{
    StageTimes st;
    if (dualPipeApplies(s.tr)) {
        // Every layer of a kind costs the same: time one of each the model has and the head, then weigh them per rank.
        StageTimes denseOne, moeOne, headOne;
        addLayers(denseOne, s, s.c.counts.denseLayers > 0 ? 1 : 0, false);
        addLayers(moeOne, s, s.c.counts.moeLayers > 0 ? 1 : 0, true);
        addHead(headOne, s, 1);
        double headShare = 0;
        const StageLayers rank = slowestDualPipeRank(s, denseOne, moeOne, headOne, headShare);
        addScaled(st, denseOne, rank.dense);
        addScaled(st, moeOne, rank.moe);
        addScaled(st, headOne, headShare);
        if (!s.shape.fusedKernels)
            applyHostBound(st, headShare * eagerOpsHead(*s.c.model) * s.c.efficiency.hostOpS);
        return st;
    }
    const StageLayers layers = slowestStageLayers(s.c.counts, s.tr.layout.pp);
    addLayers(st, s, layers.dense, false);
    addLayers(st, s, layers.moe, true);
    // The last stage also runs the LM head and the loss.
    addHead(st, s, 1);
    if (!s.shape.fusedKernels)
        applyHostBound(st, eagerOpsHead(*s.c.model) * s.c.efficiency.hostOpS);
    return st;
}

/// Parameters one GPU holds, the routed experts among them (docs/methods-memory.md §3.2).
struct HeldParameters
{
    double all = 0, experts = 0;
};

/// What one GPU of a rank with these layers (and these ends: embedding, head) holds: the experts split over EP and the
/// expert tensor-parallel group (TP, or 1 where EP folds over TP as well), the rest over TP.
HeldParameters heldParameters(const StepTimeContext& c, const ParallelLayout& l, StageLayers layers, double ends)
{
    const ParameterCounts& k = c.counts;
    const double moeLayerReplicated
        = k.attentionPerLayer + k.normsPerLayer + k.expertsPerMoeLayer - k.routedExpertsPerMoeLayer;
    const double experts = layers.moe * k.routedExpertsPerMoeLayer / (double(expertTensorParallel(l)) * l.ep);
    const double dense = layers.dense * k.denseLayerTotal() + layers.moe * moeLayerReplicated;
    return {(dense + ends) / l.tp + experts, experts};
}

/// The parameters of the rank the DP reduction and the optimizer step are timed on, whose gradients are the last to
/// be reduced: the slowest stage's (as slowestStage counts its layers, with the larger end), or under DualPipe the
/// rank holding the most of its two stages (two copies of the model over the pipeline; rank 0 both ends).
HeldParameters gpuParameters(const StepTimeContext& c, const TrainingConfig& tr)
{
    const ParameterCounts& k = c.counts;
    const ParallelLayout& l = tr.layout;
    if (!dualPipeApplies(tr)) {
        // The last stage's end: the head, the multi-token-prediction modules' extras, and the embedding copy a tied
        // head or those modules read (as the memory model holds them, core/memory/modelstates.cpp stageParams).
        const double lastEnd = k.head + k.finalNorm + k.mtpExtras + lastStageEmbeddingCopy(*c.model, k.mtpLayers, l.pp);
        const double ends
            = l.pp == 1 ? k.embedding + k.head + k.finalNorm + k.mtpExtras : std::max(k.embedding, lastEnd);
        return heldParameters(c, l, slowestStageLayers(k, l.pp), ends);
    }
    HeldParameters most;
    for (int d = 0; d < l.pp / 2; ++d) {
        const double ends = d == 0 ? k.embedding + k.head + k.finalNorm + k.mtpExtras : 0.0;
        const HeldParameters rank = heldParameters(c, l, dualPipeRankLayers(k, l.pp, d), ends);
        if (rank.all > most.all)
            most = rank;
    }
    return most;
}

/// Parameters whose optimizer step one GPU runs: its whole shard, or what a sharding optimizer leaves on it.
double optimizerShardParameters(const HeldParameters& held, const TrainingConfig& tr)
{
    return tr.shardsOptimizerStates() ? shardedParameters(held.all, held.experts, tr.layout) : held.all;
}

PipelineParams pipelineParams(const TrainingConfig& tr, const StageTimes& st, double p2pExposedS, int m)
{
    PipelineParams pp;
    const bool interleaved = tr.schedule == PipelineSchedule::Interleaved && tr.layout.virtualStages > 1;
    // Interleaving without virtual stages is 1F1B; DualPipe without a pipeline has nothing to schedule.
    const bool plain = (tr.schedule == PipelineSchedule::Interleaved && !interleaved)
        || (tr.schedule == PipelineSchedule::DualPipe && !dualPipeApplies(tr));
    pp.schedule = interleaved ? PipelineSchedule::Interleaved : (plain ? PipelineSchedule::OneFOneB : tr.schedule);
    pp.stages = tr.layout.pp;
    pp.microBatches = m;
    pp.chunks = interleaved ? tr.layout.virtualStages : 1;
    const double p2p = pp.chunks * p2pExposedS; // one send/recv per chunk per direction
    pp.forward = st.forwardS + p2p;
    if (splitsWeightGradient(pp.schedule)) {
        pp.backward = st.backwardInputS + st.recomputeS + p2p;
        pp.weightGrad = st.backwardWeightS;
    } else {
        pp.backward = st.backwardInputS + st.backwardWeightS + st.recomputeS + p2p;
        pp.weightGrad = 0;
    }
    return pp;
}

/// Closed-form makespan. ZB-H1 outside the range where its closed form is exact (m < p, or W longer than F or
/// B) would need the event replay (~100 µs, too slow for the sweep); there the 1F1B makespan with W folded
/// into B is used: an upper bound, since ZB-H1 is 1F1B with W moved into idle slots. simulatePipeline gives
/// the exact timeline for the Gantt view.
double fastMakespan(PipelineParams p)
{
    const bool zbExact = p.microBatches >= p.stages && p.weightGrad <= p.forward && p.weightGrad <= p.backward;
    // DualPipe is replayed on 2p micro-batches (a few thousand ops at PP 16); beyond what the replay takes, 1F1B
    // bounds it from above.
    PipelineParams least = p;
    least.microBatches = 2 * p.stages;
    const bool dualPipeTooLarge = p.schedule == PipelineSchedule::DualPipe && !isSimulable(least);
    if ((p.schedule == PipelineSchedule::ZbH1 && !zbExact) || dualPipeTooLarge) {
        p.schedule = PipelineSchedule::OneFOneB;
        p.backward += p.weightGrad;
        p.weightGrad = 0;
    }
    return pipelineSummary(p).makespan;
}

void fillRates(StepTimeResult& r, const StepTimeContext& c, const TrainingConfig& tr)
{
    const double gpus = tr.layout.gpuCount();
    const double peak = c.gpu->peakFlops(tr.precision);
    r.tokensPerS = double(tr.globalBatch) * c.model->seqLen / r.stepTimeS;
    r.tokensPerSPerGpu = r.tokensPerS / gpus;
    r.modelTflopsPerGpu = r.tokensPerSPerGpu * c.modelFlopsPerToken / 1e12;
    r.mfu = r.tokensPerSPerGpu * c.modelFlopsPerToken / peak;
    r.hfu = r.tokensPerSPerGpu * c.hardwareFlopsPerToken[int(tr.recompute)] / peak;
    r.trainingTimeS = c.economics.trainingTokens / r.tokensPerS;
    const double hours = r.trainingTimeS / 3600;
    r.gpuHours = gpus * hours;
    const EfficiencyParams& e = c.efficiency;
    // A power limit caps the GPU's draw; the node's other parts draw as before (docs/methods-cluster.md §5).
    const double powerW = trainingDrawW(c.cluster.gpuPowerLimitW, c.gpu->tdpW, e.gpuPowerUtilization)
        + c.gpu->tdpW * e.nodeOverheadPerGpuFraction;
    r.energyKwh = runEnergyKwh(gpus, hours, powerW, c.economics.pue);
    r.energyCostUsd = r.energyKwh * c.economics.electricityUsdPerKwh;
    r.costUsd = runCostUsd(gpus, hours, c.economics.gpuHourUsd);
}

} // namespace

StepTimeContext makeStepTimeContext(const Scenario& scenario, const GpuSpec& gpu, const EfficiencyParams& efficiency)
{
    StepTimeContext c;
    c.model = &scenario.model;
    c.gpu = &gpu;
    c.efficiency = efficiency;
    c.counts = countParameters(scenario.model);
    c.modelFlopsPerToken = modelFlopsPerToken(scenario.model);
    for (auto rc : {Recompute::None, Recompute::Selective, Recompute::Full, Recompute::Modules})
        c.hardwareFlopsPerToken[int(rc)] = hardwareFlopsPerToken(scenario.model, rc);
    c.fabric = makeFabric(gpu, scenario.cluster, efficiency.link);
    c.cluster = scenario.cluster;
    c.economics = scenario.economics;
    c.memory = makeMemoryContext(scenario.model, &gpu);
    return c;
}

StepTimeResult estimateStepTime(const StepTimeContext& c, const TrainingConfig& tr, const RankOrder& order)
{
    // The one layout check (core/model/layoutcheck.h), the same rules memory and the sweep apply.
    if (const LayoutProblems problems = checkLayout(*c.model, tr, c.cluster.gpuCount); problems != 0) {
        StepTimeResult r;
        r.problems = problems;
        r.error = layoutProblemSummary(problems);
        return r;
    }
    return estimateValidLayoutStepTime(c, tr, order);
}

StepTimeResult estimateValidLayoutStepTime(const StepTimeContext& c, const TrainingConfig& tr, const RankOrder& order)
{
    StepTimeResult r;
    const ParallelLayout& l = tr.layout;
    const int m = tr.globalBatch / (l.dp * tr.microBatch);
    const FrameworkCapabilities& caps = frameworkCapabilities(tr.framework);
    const bool fused = fusedKernelsApply(tr, caps);
    const bool sp = l.sequenceParallel && l.tp > 1;
    const Precision precision = precisionInEffect(tr, caps); // a framework's "bf16" may keep fp32 master weights
    const double beta = precision == Precision::Fp32 ? 4.0 : 2.0;
    const bool autocast = !fused && (precision == Precision::AmpBf16 || precision == Precision::AmpFp16);
    const Setup s {c, tr, caps, precision, optimizerStatesInEffect(tr, caps),
        layoutSpans(l, c.fabric.domainGpus, order),
        LayerShape {double(tr.microBatch), double(l.tp), double(l.cp), sp, fused, autocast, caps.pythonGelu, beta,
            tr.attention, tr.cpLoadBalance, double(l.ep), moeDispatcherInEffect(tr, caps) == MoeDispatcher::DeepEp,
            caps.moeProbsInActivation, double(expertTensorParallel(l)), fusedLossApplies(tr, caps)},
        withPowerCap(computePeaks(*c.gpu, precision, c.efficiency, fp8RecipeInEffect(tr, caps), fp8CastPath(caps)),
            c.cluster.gpuPowerLimitW, c.gpu->tdpW),
        m};
    StageTimes st = slowestStage(s);
    const int offloaded = activationOffloadLayersInEffect(c.memory, tr);
    const OffloadTimes offload = offloadTimes(s, st, offloaded);
    st.forwardS += offload.forwardExposedS;
    st.backwardInputS += offload.backwardExposedS;

    // PP: one activation (or its gradient) per micro-batch per stage boundary each way; scattered over TP with SP.
    const double p2pBytes = tr.microBatch * (double(c.model->seqLen) / l.cp) * c.model->hidden * beta / (sp ? l.tp : 1);
    const double p2pS = l.pp > 1 ? groupCollectiveS(Collective::SendRecv, p2pBytes, s.spans.pp, c.fabric) : 0.0;
    const double ppOverlap = caps.asyncP2p ? c.efficiency.ppOverlap : 0.0;
    const double p2pExposedS = (1 - ppOverlap) * p2pS;
    const PipelineParams pp = pipelineParams(tr, st, p2pExposedS, m);
    if (!isSchedulable(pp)) { // op times not finite and positive: a model beyond double precision
        r.error = "stage times are not finite positive numbers (a model or batch too large, or efficiency parameters "
                  "that make some work endless)";
        return r;
    }
    const double makespan = l.pp > 1 ? fastMakespan(pp) : m * (pp.forward + pp.backward + pp.weightGrad);

    r.valid = true;
    r.pipeline = pp;
    r.microBatches = m;
    r.computeForwardS = m * st.computeForwardS;
    r.computeBackwardS = m * st.computeBackwardS;
    r.recomputeS = m * st.computeRecomputeS;
    r.ppTotalS = 2.0 * m * pp.chunks * p2pS;
    r.ppExposedS = 2.0 * m * pp.chunks * p2pExposedS;
    r.bubbleS = makespan - m * (pp.forward + pp.backward + pp.weightGrad);
    r.bubbleFraction = r.bubbleS / (m * (pp.forward + pp.backward + pp.weightGrad));
    r.tpTotalS = m * st.tpTotalS;
    r.tpExposedS = m * st.tpExposedS;
    r.cpTotalS = m * st.cpTotalS;
    r.cpExposedS = m * st.cpExposedS;
    r.epTotalS = m * st.epTotalS;
    r.epExposedS = m * st.epExposedS;
    r.offloadedLayers = offloaded;
    r.offloadTotalS = m * offload.totalS;
    r.offloadExposedS = m * (offload.forwardExposedS + offload.backwardExposedS);
    const HeldParameters held = gpuParameters(c, tr);
    const DataSyncSetup sync {tr, caps, c.fabric, c.efficiency, s.precision, s.optimizerStates, s.spans};
    const DataParallelTimes dp = dataParallelTimes(sync, {held.all - held.experts, held.experts},
        {st.forwardS, st.backwardInputS + st.backwardWeightS, st.recomputeS}, m);
    r.dpTotalS = dp.totalS;
    r.dpExposedS = dp.exposedS;
    r.optimizerS
        = optimizerStepS(optimizerShardParameters(held, tr), tr.optimizer, s.precision, s.peaks, s.optimizerStates);
    r.overheadS = c.efficiency.stepOverheadS + m * c.efficiency.microBatchOverheadS;
    // Hidden communication slows the compute it hides behind: NCCL kernels in general at comm_compute_slowdown, an
    // expert all-to-all by the share of SMs its kernels hold (§4.49).
    const double epHiddenS = r.epTotalS - r.epExposedS;
    r.overlapSlowdownS
        = c.efficiency.commComputeSlowdown * (m * st.hiddenCommS - epHiddenS + dp.hiddenS + r.ppTotalS - r.ppExposedS)
        + expertAllToAllSlowdown(*c.gpu, c.efficiency.commComputeSlowdown) * epHiddenS;
    r.stepTimeS = makespan + r.dpExposedS + r.optimizerS + r.overheadS + r.overlapSlowdownS;
    fillRates(r, c, tr);
    return r;
}

StepTimeResult estimateValidLayoutStepTime(const StepTimeContext& c, const TrainingConfig& tr)
{
    return estimateValidLayoutStepTime(c, tr, rankOrderOf(tr.layout.rankOrder));
}

StepTimeResult estimateStepTime(const StepTimeContext& c, const TrainingConfig& tr)
{
    return estimateStepTime(c, tr, rankOrderOf(tr.layout.rankOrder));
}

StepTimeResult estimateStepTime(const Scenario& scenario, const GpuSpec& gpu, const EfficiencyParams& efficiency)
{
    const StepTimeContext context = makeStepTimeContext(scenario, gpu, efficiency);
    return estimateStepTime(context, scenario.training);
}

double runEnergyKwh(double gpus, double hours, double powerPerGpuW, double pue)
{
    return gpus * powerPerGpuW * hours / 1000.0 * pue;
}

double runCostUsd(double gpus, double hours, double usdPerGpuHour)
{
    return gpus * hours * usdPerGpuHour;
}

} // namespace clusterplanner::core::perf
