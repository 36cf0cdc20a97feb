// SPDX-License-Identifier: GPL-3.0-or-later
// Step time of MoE layers and what moves their tokens: expert all-to-alls and DeepEP, expert TP and expert-DP
// gradients, DualPipe, paired micro-batches and shared experts, and Megatron-Core's module recompute.
#include "core/io/scenariojson.h"
#include "core/memory/activations.h"
#include "core/memory/memorymodel.h"
#include "core/model/frameworkrules.h"
#include "core/model/modelmath.h"
#include "core/perf/expertexposure.h"
#include "steptimetesthelpers.h"

#include <QTest>

#include <cmath>
#include <fstream>
#include <sstream>

using namespace clusterplanner::core;
using namespace clusterplanner::core::perf;
using namespace clusterplanner::core::steptimetest;

namespace {

/// The Mixtral 8x7B sample: every layer MoE, EP 8 on 64 H100.
Scenario mixtralSample()
{
    std::ifstream in(CLUSTERPLANNER_DATA_DIR "/scenarios/mixtral-8x7b-64-h100.cplan.json");
    std::stringstream text;
    text << in.rdbuf();
    return readScenarioFile(text.str());
}

} // namespace

class TestMoeStepTime : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void moeLayersWithoutADenseMlpHaveAFiniteTime()
    {
        // Every Mixtral layer is MoE (no dense MLP): an absent GEMM must count as zero time, not 0/0.
        Scenario s = mixtralSample();
        s.training.layout.ep = 1;
        const auto withoutEp = estimate(s);
        s.training.layout.ep = 8;
        const auto withEp = estimate(s);
        QVERIFY(withoutEp.valid && withEp.valid);
        QVERIFY(std::isfinite(withEp.stepTimeS) && withEp.stepTimeS > 0);
        QCOMPARE(withoutEp.epTotalS, 0.0);
        QVERIFY(withEp.epTotalS > 0); // the all-to-all of expert parallelism costs time
    }

    void expertGradientsStayInTheirExpertDataParallelGroup()
    {
        // The Mixtral sample folds EP 8 into DP 8: every rank holds experts no other rank of its stage holds, so no
        // collective reduces their gradients and widening the experts leaves the DP time as it was.
        Scenario s = mixtralSample();
        const auto sample = estimate(s);
        Scenario wider = s;
        wider.model.moe->expertFfnHidden *= 2;
        const auto widerExperts = estimate(wider);
        QVERIFY(sample.valid && widerExperts.valid && sample.dpTotalS > 0);
        QCOMPARE(widerExperts.dpTotalS, sample.dpTotalS);
        // A shared expert (and the router) is held by every EP rank like the attention: its gradients are reduced.
        Scenario shared = s;
        shared.model.moe->sharedExperts = 1;
        const auto withShared = estimate(shared);
        QVERIFY(withShared.valid && withShared.dpTotalS > 1.5 * sample.dpTotalS);
        // Without EP the experts' gradients are reduced over DP like the rest, and wider experts cost DP time.
        s.training.layout.ep = wider.training.layout.ep = 1;
        const auto noEp = estimate(s), noEpWider = estimate(wider);
        QVERIFY(noEp.valid && noEpWider.valid);
        QVERIFY(noEpWider.dpTotalS > 1.5 * noEp.dpTotalS);
    }

    void expertGradientsCrossTheNetworkWholeWhenEpFillsTheNode()
    {
        // EP 8 inside each 8-GPU node, DP 64 over 8 nodes: the ranks holding one rank's experts are one per node, so
        // the experts' gradients (reduce-scatter) and weights (all-gather) cross one 400 Gb/s NIC each, 7/8 of them
        // (a hierarchical DP reduction would send an eighth of that).
        Scenario s = mixtralSample();
        s.training.layout = ParallelLayout {64, 1, 1, 1, 8, 1, false};
        const auto r = estimate(s);
        QVERIFY(r.valid);
        const MoeConfig& moe = *s.model.moe;
        const double gate = s.model.mlp == MlpKind::SwiGlu ? 3.0 : 2.0;
        const double expertParams
            = double(s.model.layers) * moe.experts * gate * s.model.hidden * moe.expertFfnHidden / s.training.layout.ep;
        const double nicBytesPerS = 400e9 / 8;
        const double sixteenBitBytes = 2;
        QVERIFY2(r.dpTotalS > 2 * expertParams * sixteenBitBytes * 7.0 / 8 / nicBytesPerS,
            qPrintable(QString::number(r.dpTotalS)));
    }

    void moeLayersMoveRoutedRowsOverExpertTp()
    {
        // Megatron-Core's all-to-all dispatcher all-gathers the routed rows over the expert-TP group after the
        // dispatch and reduce-scatters them before the combine: top-k rows per token where a dense MLP moves one.
        // The Mixtral sample (TP 2 × PP 4 × DP 8, EP 8 inside DP: expert TP 2): per forward the attention side moves
        // one hidden state and the MLP side two, against one and one for the same model without experts: 3/2 of the
        // bytes, a little less in time (each collective's latency is paid once whatever it carries).
        Scenario moe = mixtralSample();
        Scenario dense = moe;
        dense.model.moe.reset();
        dense.training.layout.ep = 1;
        const auto withExperts = estimate(moe), withoutExperts = estimate(dense);
        QVERIFY(withExperts.valid && withoutExperts.valid && withoutExperts.tpTotalS > 0);
        const double gathered = withExperts.tpTotalS / withoutExperts.tpTotalS;
        QVERIFY2(gathered > 1.35 && gathered < 1.5, qPrintable(QString::number(gathered)));
        // The same layout with expert TP 1 stated (NeMo's and Megatron-Bridge's MoE recipes): each rank keeps its own
        // T/TP rows for whole experts, so only the attention's collectives cross TP.
        Scenario statedOne = moe;
        statedOne.training.layout.expertTp = 1;
        const auto own = estimate(statedOne);
        QVERIFY(own.valid);
        const double ownShare = own.tpTotalS / withoutExperts.tpTotalS;
        QVERIFY2(std::abs(ownShare - 0.5) < 0.02, qPrintable(QString::number(ownShare)));
        // Between the two: TP 4 × DP 4 with EP 4 beside DP. Expert TP 2 gathers half the TP group's rows over groups
        // of 2: less than expert TP 4 (= TP, the default) moves over 4, more than expert TP 1 (none).
        Scenario between = mixtralSample();
        between.training.layout = ParallelLayout {4, 4, 4, 1, 4, 1, true};
        const auto full = estimate(between);
        between.training.layout.expertTp = 2;
        const auto half = estimate(between);
        between.training.layout.expertTp = 1;
        const auto none = estimate(between);
        QVERIFY(full.valid && half.valid && none.valid);
        QCOMPARE(expertTensorParallel(ParallelLayout {4, 4, 4, 1, 4, 1, true}), 4);
        QVERIFY2(none.tpTotalS < half.tpTotalS && half.tpTotalS < full.tpTotalS,
            qPrintable(QStringLiteral("%1 %2 %3").arg(none.tpTotalS).arg(half.tpTotalS).arg(full.tpTotalS)));
        // EP 8 folded over TP 2 × DP 4 (expert TP 1): no routed row crosses TP, only the attention's collectives.
        moe.training.layout = dense.training.layout = ParallelLayout {4, 2, 8, 1, 8, 1, true};
        dense.training.layout.ep = 1;
        const auto folded = estimate(moe), foldedDense = estimate(dense);
        QVERIFY(folded.valid && foldedDense.valid);
        QCOMPARE(expertTensorParallel(moe.training.layout), 1);
        const double attentionOnly = folded.tpTotalS / foldedDense.tpTotalS;
        QVERIFY2(std::abs(attentionOnly - 0.5) < 0.02, qPrintable(QString::number(attentionOnly)));
        // A shared expert is a TP-split dense MLP on every token: its collectives are a dense layer's.
        moe.model.moe->sharedExperts = 1;
        const auto shared = estimate(moe);
        QVERIFY(shared.valid);
        QVERIFY2(std::abs(shared.tpTotalS / foldedDense.tpTotalS - 1.0) < 0.02,
            qPrintable(QString::number(shared.tpTotalS / foldedDense.tpTotalS)));
    }

    void dualPipeTimesEachRankOnItsTwoStages()
    {
        // DualPipe (docs/methods-time.md §4.46): rank d runs stage d of one direction and stage p − 1 − d of the other,
        // half the micro-batches each. 8 layers on PP 4: every stage 2 layers; rank 0 also the head (stage 3), so its
        // time per micro-batch is 2 layers + half the head where ZB-H1's last stage takes 2 layers + the whole head.
        Scenario s = denseOnH100("small", 8, 2048, 16, 8192, 8);
        s.training.framework = Framework::Other;
        s.training.globalBatch = 16;
        s.training.microBatch = 1;
        s.training.layout = ParallelLayout {2, 1, 4, 1, 1, 1, false};
        s.training.schedule = PipelineSchedule::ZbH1;
        const auto zb = estimate(s);
        s.training.schedule = PipelineSchedule::DualPipe;
        const auto dual = estimate(s);
        QVERIFY2(zb.valid && dual.valid, dual.error);
        QCOMPARE(dual.pipeline.schedule, PipelineSchedule::DualPipe);
        QCOMPARE(dual.pipeline.microBatches, 8);
        QVERIFY(dual.pipeline.forward < zb.pipeline.forward);
        QVERIFY(dual.bubbleS < zb.bubbleS);
        // Two stages' parameters per rank (two copies of the model over the pipeline): twice the gradients to reduce.
        QVERIFY2(dual.dpTotalS > 1.8 * zb.dpTotalS, qPrintable(QString::number(dual.dpTotalS / zb.dpTotalS)));
        // An odd pipeline cannot meet in the middle; on one stage there is no pipeline and the step is 1F1B's.
        s.training.layout = ParallelLayout {2, 1, 3, 1, 1, 1, false};
        s.cluster.gpuCount = 6;
        s.model.layers = 9;
        QVERIFY(!estimate(s).valid);
        s.training.layout = ParallelLayout {8, 1, 1, 1, 1, 1, false};
        s.cluster.gpuCount = 8;
        const auto single = estimate(s);
        QVERIFY(single.valid);
        QCOMPARE(single.pipeline.schedule, PipelineSchedule::OneFOneB);
    }

    void expertAllToAllsAreTwoEachWay()
    {
        // Dispatch and combine forward; in the backward each one's gradient goes back by one all-to-all of the same
        // size; full recompute runs the forward's two again: 6 against 4 (it was 8 against 6 when the backward was
        // charged twice).
        Scenario s = mixtralSample();
        s.training.recompute = Recompute::None;
        const auto kept = estimate(s);
        s.training.recompute = Recompute::Full;
        const auto recomputed = estimate(s);
        QVERIFY(kept.valid && recomputed.valid && kept.epTotalS > 0);
        QVERIFY(std::abs(recomputed.epTotalS / kept.epTotalS - 1.5) < 1e-9);
    }

    void deepEpSendsOneCopyPerDestination()
    {
        // EP 8 inside one 8-GPU node: DeepEP sends a token once per destination rank (top-2 of 16 experts over 8
        // ranks: 8·(1 − (7/8)²)/2 = 0.9375 of the copies). EP 16 over two nodes: once per remote node.
        Scenario s = mixtralSample();
        s.model.moe->experts = 16;
        s.training.recompute = Recompute::None;
        s.training.layout = ParallelLayout {16, 1, 4, 1, 8, 1, false};
        const auto inNode = estimate(s);
        s.training.moeDispatcher = MoeDispatcher::DeepEp;
        const auto inNodeDeepEp = estimate(s);
        QVERIFY(inNode.valid && inNodeDeepEp.valid && inNode.epTotalS > 0);
        QVERIFY(std::abs(inNodeDeepEp.epTotalS / inNode.epTotalS - 0.9375) < 0.03);
        // Without the regrouping of received rows the MoE layers' memory traffic drops (§4.25).
        QVERIFY(inNodeDeepEp.stepTimeS < inNode.stepTimeS);
        s.training.layout.ep = 16;
        s.training.moeDispatcher = MoeDispatcher::AllToAll;
        const auto acrossNodes = estimate(s);
        s.training.moeDispatcher = MoeDispatcher::DeepEp;
        const auto acrossNodesDeepEp = estimate(s);
        QVERIFY(acrossNodes.valid && acrossNodesDeepEp.valid);
        // Mixtral routes top-2: a plain all-to-all sends 2 · 1/2 copies off the node, DeepEP 1 − 1/4 = 0.75.
        QVERIFY(std::abs(acrossNodesDeepEp.epTotalS / acrossNodes.epTotalS - 0.75) < 0.03);
        // A framework that does not offer DeepEP runs the all-to-all.
        s.training.framework = Framework::DeepSpeed;
        s.training.moeDispatcher = MoeDispatcher::AllToAll;
        const auto deepSpeed = estimate(s);
        s.training.moeDispatcher = MoeDispatcher::DeepEp;
        const auto deepSpeedAsked = estimate(s);
        QVERIFY(deepSpeed.valid && deepSpeedAsked.valid && deepSpeed.epTotalS > 0);
        QCOMPARE(deepSpeedAsked.epTotalS, deepSpeed.epTotalS);
    }

    void pairedMicroBatchesHideTheExpertAllToAlls()
    {
        Scenario s = mixtralSample();
        s.training.recompute = Recompute::Selective;
        s.training.layout = ParallelLayout {64, 1, 1, 1, 8, 1, false};
        s.training.schedule = PipelineSchedule::OneFOneB;
        const auto alone = estimate(s);
        s.training.moeOverlap = true;
        const auto paired = estimate(s);
        QVERIFY(alone.valid && paired.valid && alone.epExposedS > 0);
        QCOMPARE(paired.epTotalS, alone.epTotalS); // the same traffic, hidden
        QVERIFY(paired.epExposedS < alone.epExposedS);
        QVERIFY(paired.stepTimeS < alone.stepTimeS);
        // The hidden all-to-all holds 20 of the H100's 132 SMs (§4.49), a share of the compute it hides behind; the
        // same GPU with its SM count unknown is charged the general rate of hidden communication instead.
        const Scenario pairedScenario = s; // the context points into it
        GpuSpec unknownSms = *GpuCatalog::builtin().find(s.cluster.gpuId);
        QCOMPARE(unknownSms.smCount, 132);
        unknownSms.smCount = 0;
        const EfficiencyParams efficiency = EfficiencyTable::builtin().forGpu(s.cluster.gpuId);
        const auto general = estimateStepTime(makeStepTimeContext(pairedScenario, unknownSms, efficiency), s.training);
        const double hidden = paired.epTotalS - paired.epExposedS;
        const double extra = (20.0 / 132 - efficiency.commComputeSlowdown) * hidden;
        QVERIFY(hidden > 0 && extra > 0);
        QVERIFY2(std::abs(paired.overlapSlowdownS - general.overlapSlowdownS - extra) < 1e-9 * paired.stepTimeS,
            qPrintable(QString::number(paired.overlapSlowdownS - general.overlapSlowdownS)));
        QVERIFY(paired.stepTimeS < alone.stepTimeS); // still faster than the exposed all-to-all
        // One micro-batch per step has no partner: every all-to-all shows (and the flex dispatcher's schedule has no
        // shared-expert overlap to credit either).
        s.training.globalBatch = 64;
        const auto single = estimate(s);
        QVERIFY(single.valid && single.epTotalS > 0);
        QVERIFY(std::abs(single.epExposedS / single.epTotalS - 1) < 1e-9);
        s.training.globalBatch = 1024;
        // Full recompute leaves nothing to pair with; Megatron pairs interleaved chunks only when pipelined.
        s.training.recompute = Recompute::Full;
        QCOMPARE(moeOverlapObstacle(s.training, frameworkCapabilities(s.training.framework)),
            MoeOverlapObstacle::FullRecompute);
        s.training.recompute = Recompute::Selective;
        s.training.precision = Precision::Fp32;
        QCOMPARE(moeOverlapObstacle(s.training, frameworkCapabilities(s.training.framework)), MoeOverlapObstacle::Fp32);
        s.training.precision = Precision::AmpBf16;
        s.training.layout = ParallelLayout {32, 1, 2, 1, 8, 1, false};
        QCOMPARE(moeOverlapObstacle(s.training, frameworkCapabilities(Framework::Megatron)),
            MoeOverlapObstacle::NoVirtualStages);
        QCOMPARE(moeOverlapObstacle(s.training, frameworkCapabilities(Framework::Other)), MoeOverlapObstacle::None);
        s.training.layout.virtualStages = 2; // still the 1F1B schedule: its chunks are not interleaved
        QCOMPARE(moeOverlapObstacle(s.training, frameworkCapabilities(Framework::Megatron)),
            MoeOverlapObstacle::NoVirtualStages);
        s.training.schedule = PipelineSchedule::Interleaved;
        QCOMPARE(moeOverlapObstacle(s.training, frameworkCapabilities(Framework::Megatron)), MoeOverlapObstacle::None);
        QCOMPARE(moeOverlapObstacle(s.training, frameworkCapabilities(Framework::TorchTitan)),
            MoeOverlapObstacle::NotOffered);
    }

    /// What the shared experts hide of a layer's four unpaired all-to-alls of 1 s each (docs/methods-time.md §4.39).
    void sharedExpertsHideWhatTheirScheduleAllows()
    {
        const MlpGemmTimes shared {0.6, 0.3}; // first projection (gate + up), second (down)
        const auto none = unpairedAllToAllExposure(1.0, shared, SharedExpertOverlap::None);
        QCOMPARE(none.forwardS, 2.0);
        QCOMPARE(none.backwardS, 2.0);
        // Side stream: dispatch behind the first projection, combine behind the second; backward behind twice each.
        const auto side = unpairedAllToAllExposure(1.0, shared, SharedExpertOverlap::SideStream);
        QVERIFY(std::abs(side.forwardS - (0.4 + 0.7)) < 1e-12);
        QVERIFY(std::abs(side.backwardS - (0.4 + 0.0)) < 1e-12);
        // TorchTitan: only the forward combine, behind the whole shared MLP.
        const auto combine = unpairedAllToAllExposure(1.0, shared, SharedExpertOverlap::CombineOnly);
        QVERIFY(std::abs(combine.forwardS - (1.0 + 0.1)) < 1e-12);
        QCOMPARE(combine.backwardS, 2.0);
        // Without shared experts nothing hides.
        const auto empty = unpairedAllToAllExposure(1.0, MlpGemmTimes {}, SharedExpertOverlap::SideStream);
        QCOMPARE(empty.forwardS, 2.0);
        QCOMPARE(empty.backwardS, 2.0);
    }

    /// Unpaired, an expert all-to-all holds its layer up whole unless the framework runs the shared experts beside
    /// it: Megatron-Core's side stream with the all-to-all dispatcher, TorchTitan's async combine.
    void onlySharedExpertsHideAnUnpairedAllToAll()
    {
        Scenario s = mixtralSample(); // no shared experts
        s.model.moe->expertFfnHidden = 512; // fine-grained: one shared expert hides part of an all-to-all, not all
        s.training.framework = Framework::Megatron;
        s.training.recompute = Recompute::Selective;
        s.training.layout = ParallelLayout {64, 1, 1, 1, 8, 1, false};
        const auto plain = estimate(s);
        QVERIFY(plain.valid && plain.epTotalS > 0);
        QVERIFY(std::abs(plain.epExposedS / plain.epTotalS - 1) < 1e-9);

        s.model.moe->sharedExperts = 1;
        auto mode = [&s] {
            return sharedExpertOverlapInEffect(s.training, frameworkCapabilities(s.training.framework), s.model);
        };
        QCOMPARE(mode(), SharedExpertOverlap::SideStream);
        const auto shared = estimate(s);
        QVERIFY(shared.valid);
        QCOMPARE(shared.epTotalS, plain.epTotalS); // the same traffic, partly hidden
        QVERIFY(shared.epExposedS < 0.99 * shared.epTotalS);
        QVERIFY(shared.epExposedS > 0);

        // Megatron-Core has the side stream with the all-to-all dispatcher only.
        s.training.moeDispatcher = MoeDispatcher::DeepEp;
        QCOMPARE(mode(), SharedExpertOverlap::None);
        const auto flex = estimate(s);
        QVERIFY(flex.valid && flex.epTotalS > 0);
        QVERIFY(std::abs(flex.epExposedS / flex.epTotalS - 1) < 1e-9);
        // TorchTitan hides the forward combine only: less than the side stream, more than nothing.
        s.training.moeDispatcher = MoeDispatcher::AllToAll;
        s.training.framework = Framework::TorchTitan;
        QCOMPARE(mode(), SharedExpertOverlap::CombineOnly);
        const auto titan = estimate(s);
        QVERIFY(titan.valid && titan.epTotalS > 0);
        QVERIFY(titan.epExposedS / titan.epTotalS < 0.99);
        QVERIFY(titan.epExposedS / titan.epTotalS > shared.epExposedS / shared.epTotalS);
        s.training.framework = Framework::DeepSpeed;
        QCOMPARE(mode(), SharedExpertOverlap::None);
        // Paired micro-batches replace it (Megatron-Core asserts the two apart).
        s.training.framework = Framework::Megatron;
        s.training.moeOverlap = true;
        QVERIFY(moeOverlapApplies(s.training, frameworkCapabilities(s.training.framework)));
        QCOMPARE(mode(), SharedExpertOverlap::None);
    }

    void moduleRecomputeDropsTheMoeNormAndActivation()
    {
        // Megatron-Core's recompute_modules "layernorm" and "moe_act": the MoE layers keep neither the pre-MLP norm's
        // output nor the experts' activation output, and recompute both (element-wise) in the backward.
        Scenario s = mixtralSample();
        s.training.recompute = Recompute::None;
        Scenario modules = s;
        modules.training.recompute = Recompute::Modules;
        const GpuSpec* gpu = GpuCatalog::builtin().find(s.cluster.gpuId);
        const MemoryContext ctx = makeMemoryContext(s.model, gpu);
        const double tokens = double(s.training.microBatch) * s.model.seqLen / s.training.layout.cp;
        const double tp = s.training.layout.tp, sp = s.training.layout.sequenceParallel ? tp : 1.0;
        const double f = s.model.moe->expertFfnHidden * s.model.moe->topK * s.model.moe->capacityFactor;
        const double kept
            = layerActivationBytes(ctx, s.training, true) - layerActivationBytes(ctx, modules.training, true);
        QVERIFY(qAbs(kept - tokens * 2.0 * (s.model.hidden / sp + f / tp)) < 1e-6 * kept); // bf16 GEMM inputs
        QCOMPARE(layerActivationBytes(ctx, modules.training, false), layerActivationBytes(ctx, s.training, false));
        QVERIFY(evaluateMemory(ctx, modules.training).peakAllocatedBytes
            < evaluateMemory(ctx, s.training).peakAllocatedBytes);
        // The price is memory-bound recompute: some, and far below selective's or full recompute's.
        const StepTimeResult none = estimate(s), recomputed = estimate(modules);
        QVERIFY(recomputed.recomputeS > 0 && recomputed.stepTimeS > none.stepTimeS);
        Scenario full = s;
        full.training.recompute = Recompute::Full;
        QVERIFY(recomputed.recomputeS < 0.1 * estimate(full).recomputeS);
        // A dense model has no such module: the mode changes nothing there.
        Scenario dense = gpt3Case();
        dense.training.recompute = Recompute::None;
        Scenario denseModules = dense;
        denseModules.training.recompute = Recompute::Modules;
        QCOMPARE(estimate(denseModules).stepTimeS, estimate(dense).stepTimeS);
    }

    /// Under multi-head latent attention the module list also recomputes the up-projections (Megatron-Core's
    /// "mla_up_proj", docs/methods-time.md §4.37): the query, key and value heads are not kept, a dense MLA model gets
    /// the mode too, and the backward runs the up-projection GEMMs again, which the hardware FLOPs count.
    void moduleRecomputeRunsTheLatentUpProjectionsAgain()
    {
        Scenario s = gpt3Case();
        s.training.recompute = Recompute::None;
        s.model.mla = MlaConfig {512, 1536, 128, 64, 128};
        Scenario modules = s;
        modules.training.recompute = Recompute::Modules;
        const GpuSpec* gpu = GpuCatalog::builtin().find(s.cluster.gpuId);
        const MemoryContext ctx = makeMemoryContext(s.model, gpu);
        const double tokens = double(s.training.microBatch) * s.model.seqLen;
        const double tp = s.training.layout.tp;
        // bf16: the heads' Q, K, V (96 × 192, 96 × 192, 96 × 128) split by TP, and the latents' norm outputs
        // (1,536 + 512) split by SP.
        const double dropped = tokens * 2.0 * (96.0 * (192 + 192 + 128) / tp + (1536.0 + 512) / tp);
        const double kept
            = layerActivationBytes(ctx, s.training, false) - layerActivationBytes(ctx, modules.training, false);
        QVERIFY2(qAbs(kept - dropped) < 1e-9 * dropped, qPrintable(QString::number(kept / dropped)));
        const StepTimeResult none = estimate(s), recomputed = estimate(modules);
        QVERIFY(recomputed.recomputeS > 0 && recomputed.stepTimeS > none.stepTimeS);
        Scenario full = s;
        full.training.recompute = Recompute::Full;
        QVERIFY(recomputed.recomputeS < 0.25 * estimate(full).recomputeS);
        // A MoE model's list has "layernorm", which under MLA also recomputes every layer's input norm (a module of
        // its own there): its output, the down-projections' input, is not kept either.
        Scenario moe = s;
        moe.model.moe = MoeConfig {8, 2, 4096, 0, 0, 1.0};
        Scenario moeModules = moe;
        moeModules.training.recompute = Recompute::Modules;
        const MemoryContext moeCtx = makeMemoryContext(moe.model, gpu);
        const double denseKept = layerActivationBytes(moeCtx, moe.training, false)
            - layerActivationBytes(moeCtx, moeModules.training, false);
        QVERIFY2(qAbs(denseKept - dropped - tokens * 2.0 * s.model.hidden / tp) < 1e-9 * denseKept,
            qPrintable(QString::number(denseKept / dropped)));
        // TP collectives: on the attention side the latents travel instead of the hidden state.
        Scenario plain = s;
        plain.model.mla = {};
        QVERIFY(none.tpTotalS < estimate(plain).tpTotalS);
        const double upProjection = 1536.0 * 96 * 192 + 512.0 * 96 * 256;
        QCOMPARE(hardwareFlopsPerToken(s.model, Recompute::Modules) - hardwareFlopsPerToken(s.model, Recompute::None),
            2.0 * s.model.layers * upProjection);
    }

    /// A parallel block adds attention and MLP outputs before one reduction and feeds both from one gathered input:
    /// half the TP collectives of the sequential block, with or without recompute; the step is shorter, the
    /// model's FLOPs the same (docs/methods-time.md §4.50).
};

QTEST_GUILESS_MAIN(TestMoeStepTime)
#include "tst_moesteptime.moc"
