// SPDX-License-Identifier: GPL-3.0-or-later
// Long-context attention (docs/methods-time.md §4.10): the flash kernel's generation, context parallelism's load
// balance, the ring's per-step merges and the KV transfer that shows where it outlasts a ring step.
#include "core/io/scenariojson.h"
#include "core/io/validationcase.h"
#include "core/model/frameworks.h"
#include "core/model/modelpresets.h"
#include "core/perf/computetime.h"
#include "core/perf/efficiencyparams.h"
#include "core/perf/steptime.h"

#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>

using namespace clusterplanner::core;
using namespace clusterplanner::core::perf;

namespace {

const GpuSpec& gpu(const char* id)
{
    return *GpuCatalog::builtin().find(id);
}

const EfficiencyParams& family(const char* gpuId)
{
    return EfficiencyTable::builtin().forGpu(gpuId);
}

/// Llama 3 8B at a long sequence, one GPU's share of a context-parallel group.
LayerShape longContext(double cp)
{
    LayerShape shape;
    shape.contextParallel = cp;
    return shape;
}

ModelConfig llama8b(int seqLen)
{
    ModelConfig m = modelPreset("Llama 3 8B");
    m.seqLen = seqLen;
    return m;
}

bool near(double a, double b, double tolerance = 1e-9)
{
    return std::abs(a - b) <= tolerance * std::abs(b);
}

/// Llama 3 8B at 256k tokens on 64 H100: TP 8 inside each node, CP 8 across eight nodes (one ring hop per node).
Scenario ringScenario(double nicGbps)
{
    Scenario s;
    s.model = llama8b(262144);
    s.cluster.gpuId = "H100-SXM-80GB";
    s.cluster.gpuCount = 64;
    s.cluster.gpusPerNode = 8;
    s.cluster.nicGbps = nicGbps;
    s.training.framework = Framework::TorchTitan;
    s.training.globalBatch = 1;
    s.training.microBatch = 1;
    s.training.recompute = Recompute::Full;
    s.training.zeroStage = 0; // no data-parallel traffic: the CP ring is the only inter-node communication
    s.training.distributedOptimizer = false;
    s.training.layout = ParallelLayout {1, 8, 1, 8, 1, 1, true};
    return s;
}

} // namespace

class TestRingAttention : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void flash2KernelsRunAtTheFamilyRatioOnHopper()
    {
        // Anchor: FlashAttention-2 over cuDNN's fused attention on an H100, head dimension 128, causal, 2k-16k tokens:
        // 0.61-0.63 forward and backward (Shah et al. 2024, FlashAttention-3, Figures 5 and 6; methods-time §4.17).
        const EfficiencyParams& hopper = family("H100-SXM-80GB");
        QVERIFY(near(hopper.flash2AttentionRatio, 0.62, 1e-3));
        QCOMPARE(family("A100-SXM-80GB").flash2AttentionRatio, 1.0); // FA2 is Ampere's best kernel
        const ModelConfig m = llama8b(32768);
        const auto peaks = computePeaks(gpu("H100-SXM-80GB"), Precision::AmpBf16, hopper);
        LayerShape fused;
        LayerShape flash2;
        flash2.attention = AttentionKind::Flash2;
        const auto a = layerTime(m, fused, false, peaks, hopper);
        const auto b = layerTime(m, flash2, false, peaks, hopper);
        QVERIFY(near(b.attentionCoreForwardS / a.attentionCoreForwardS, 1.0 / hopper.flash2AttentionRatio));
        QVERIFY(b.backwardS() > a.backwardS());
        // Causal attention FLOPs: 4·s·s·h/2 per layer forward at the fused kernel's efficiency.
        const double flops = 0.5 * 4.0 * 32768.0 * 32768.0 * 4096;
        QVERIFY(near(a.attentionCoreForwardS, flops / (peaks.attentionFlops * peaks.attentionPeakFraction)));

        const EfficiencyParams& ampere = family("A100-SXM-80GB");
        const auto ampPeaks = computePeaks(gpu("A100-SXM-80GB"), Precision::AmpBf16, ampere);
        QCOMPARE(layerTime(m, flash2, false, ampPeaks, ampere).attentionCoreForwardS,
            layerTime(m, fused, false, ampPeaks, ampere).attentionCoreForwardS);
    }

    void unbalancedRingLastRankDoesNearlyTwiceTheMean()
    {
        const EfficiencyParams& e = family("H100-SXM-80GB");
        const auto peaks = computePeaks(gpu("H100-SXM-80GB"), Precision::AmpBf16, e);
        const ModelConfig m = llama8b(262144);
        for (double cp : {2.0, 4.0, 8.0}) {
            LayerShape balanced = longContext(cp);
            LayerShape contiguous = balanced;
            contiguous.cpLoadBalanced = false;
            const double ratio = layerTime(m, contiguous, false, peaks, e).ringStepForwardS
                / layerTime(m, balanced, false, peaks, e).ringStepForwardS;
            // Rank cp−1 computes cp − ½ blocks of (s/cp)², the mean rank cp/2: 1.5, 1.75, 1.875.
            QVERIFY2(near(ratio, (2 * cp - 1) / cp), qPrintable(QString::number(ratio)));
        }
        LayerShape single = longContext(1);
        single.cpLoadBalanced = false; // nothing to balance without CP
        const ModelConfig shortModel = llama8b(8192);
        QCOMPARE(layerTime(shortModel, single, false, peaks, e).attentionCoreForwardS,
            layerTime(shortModel, longContext(1), false, peaks, e).attentionCoreForwardS);
        QCOMPARE(layerTime(shortModel, single, false, peaks, e).ringStepForwardS, 0.0);
    }

    void ringMergesAreMemoryBoundPassesPerStep()
    {
        const EfficiencyParams& e = family("H100-SXM-80GB");
        const auto peaks = computePeaks(gpu("H100-SXM-80GB"), Precision::AmpBf16, e);
        const ModelConfig m = llama8b(262144);
        LayerShape fused = longContext(8);
        LayerShape eager = fused;
        eager.fusedKernels = false;
        // 7 later steps each merge the 32,768 × 4,096 output: 10 B per element fused, 40 B eager.
        const double elements = 32768.0 * 4096;
        const auto f = layerTime(m, fused, false, peaks, e);
        QVERIFY(near(f.attentionCoreForwardS - 8 * f.ringStepForwardS, memoryTimeS(7 * elements * 10, peaks)));
        const auto g = layerTime(m, eager, false, peaks, e);
        QVERIFY(near(g.attentionCoreForwardS - 8 * g.ringStepForwardS, memoryTimeS(7 * elements * 40, peaks)));
        // The merges are small beside the blocks they merge (a few per cent at 32k tokens per rank).
        QVERIFY(f.attentionCoreForwardS < 1.05 * 8 * f.ringStepForwardS);
    }

    void kvTransferShowsOnlyWhereItOutlastsTheStep()
    {
        const EfficiencyParams& e = family("H100-SXM-80GB");
        const Scenario fast = ringScenario(400);
        const auto covered = estimateStepTime(fast, gpu("H100-SXM-80GB"), e);
        QVERIFY2(covered.valid, covered.error);
        QVERIFY(covered.cpTotalS > 0);
        QCOMPARE(covered.cpExposedS, 0.0); // a 16.8 MB KV block takes ~0.4 ms; a ring step computes ~3 ms
        const Scenario slow = ringScenario(0.5); // 0.5 Gb/s: each pass takes far longer than its step
        const auto exposed = estimateStepTime(slow, gpu("H100-SXM-80GB"), e);
        QVERIFY(exposed.cpExposedS > 0);
        QVERIFY(exposed.cpExposedS < exposed.cpTotalS);
        QVERIFY(exposed.stepTimeS > covered.stepTimeS + 0.9 * exposed.cpExposedS);
    }

    void loadBalanceIsAScenarioSettingThatOlderFilesLeaveOn()
    {
        Scenario s = ringScenario(400);
        s.training.cpLoadBalance = false;
        const Scenario back = readScenarioFile(writeScenarioFile(s));
        QCOMPARE(back.training.cpLoadBalance, false);
        auto json = nlohmann::json::parse(writeScenarioFile(s));
        json["scenario"]["training"].erase("cp_load_balance");
        QCOMPARE(readScenarioFile(json.dump()).training.cpLoadBalance, true);
        const auto e = family("H100-SXM-80GB");
        const auto unbalanced = estimateStepTime(s, gpu("H100-SXM-80GB"), e);
        const auto balanced = estimateStepTime(ringScenario(400), gpu("H100-SXM-80GB"), e);
        QVERIFY(unbalanced.stepTimeS > 1.5 * balanced.stepTimeS); // attention is most of a 256k-token step
    }

    void validationCasesMayStateTheLoadBalance()
    {
        const std::string base = R"({"id": "x", "model": {"name": "m", "layers": 2, "hidden": 256, "heads": 4,
            "kv_heads": 4, "ffn_hidden": 1024, "vocab": 1000, "seq_len": 4096, "mlp": "swiglu", "norm": "rmsnorm",
            "tied_embeddings": false, "params": null, "moe": null},
            "training": {"global_batch_seqs": 2, "micro_batch": 1, "precision": "amp_bf16", "optimizer": "adamw",
            "recompute": "none", "sequence_parallel": false, "zero_stage": 0, "distributed_optimizer": false,
            "attention": "flash", "framework": "torchtitan" LOADBALANCE},
            "cluster": {"gpu": "H100-SXM-80GB", "num_gpus": 4, "gpus_per_node": 4},
            "parallelism": {"tp": 1, "pp": 1, "cp": 2, "dp": 2, "ep": null, "vpp": null, "schedule": null}})";
        auto with = [&](const std::string& field) {
            std::string text = base;
            text.replace(text.find("LOADBALANCE"), 11, field);
            return readValidationCases(text).front().scenario.training.cpLoadBalance;
        };
        QCOMPARE(with(""), true);
        QCOMPARE(with(R"(, "cp_load_balance": null)"), true);
        QCOMPARE(with(R"(, "cp_load_balance": false)"), false);
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, with(R"(, "cp_load_balance": "no")"));
    }
};

QTEST_GUILESS_MAIN(TestRingAttention)
#include "tst_ringattention.moc"
