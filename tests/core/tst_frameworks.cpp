// SPDX-License-Identifier: GPL-3.0-or-later
// Framework capabilities (data/frameworks.json): what the sweep offers per framework, what unstated case fields
// mean, and the framework-specific communication of the time model.
#include "core/io/validationcase.h"
#include "core/model/enumnames.h"
#include "core/model/frameworks.h"
#include "core/model/gpucatalog.h"
#include "core/model/modelpresets.h"
#include "core/perf/steptime.h"
#include "core/sweep/layoutspace.h"

#include <QTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>

using namespace clusterplanner::core;

namespace {

Scenario gpt3On1024(Framework framework)
{
    Scenario s = defaultScenario();
    s.model = gpt3Padded();
    s.cluster.gpuId = "A100-SXM-80GB";
    s.cluster.gpuCount = 1024;
    s.training.globalBatch = 1536;
    s.training.framework = framework;
    return s;
}

/// GPT-3 175B sharded with ZeRO-3 over 64 DGX A100 nodes (pure data parallelism, as Narayanan 2021 Table 2).
Scenario zero3Case(Framework framework, Recompute recompute)
{
    Scenario s = gpt3On1024(framework);
    s.cluster.gpuCount = 512;
    s.cluster.nicGbps = 200;
    s.training.globalBatch = 512;
    s.training.microBatch = 1;
    s.training.zeroStage = 3;
    s.training.recompute = recompute;
    s.training.layout = ParallelLayout {512, 1, 1, 1, 1, 1, false};
    return s;
}

perf::StepTimeResult estimate(const Scenario& s)
{
    const GpuSpec& gpu = *GpuCatalog::builtin().find(s.cluster.gpuId);
    return perf::estimateStepTime(s, gpu, perf::EfficiencyTable::builtin().forGpu(gpu.id));
}

std::string caseJson(const std::string& gpu, const char* framework)
{
    nlohmann::json c = {{"id", "c"},
        {"model",
            {{"name", "m"}, {"layers", 8}, {"hidden", 1024}, {"heads", 16}, {"kv_heads", 16}, {"ffn_hidden", 4096},
                {"vocab", 32000}, {"seq_len", 2048}, {"mlp", "gelu"}, {"norm", "layernorm"}, {"tied_embeddings", true},
                {"params", nullptr}, {"moe", nullptr}}},
        {"training",
            {{"global_batch_seqs", 64}, {"micro_batch", 1}, {"precision", "amp_bf16"}, {"optimizer", "adamw"},
                {"recompute", nullptr}, {"sequence_parallel", nullptr}, {"zero_stage", 0},
                {"distributed_optimizer", false}, {"attention", nullptr}, {"framework", framework}}},
        {"cluster", {{"gpu", gpu}, {"num_gpus", 16}, {"gpus_per_node", 8}}},
        {"parallelism",
            {{"tp", 2}, {"pp", 2}, {"cp", 1}, {"dp", 4}, {"ep", nullptr}, {"vpp", nullptr}, {"schedule", nullptr}}}};
    return nlohmann::json::array({c}).dump();
}

} // namespace

class TestFrameworks : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyFrameworkHasAnEntry()
    {
        for (Framework f : allValues<Framework>()) {
            const FrameworkCapabilities& caps = frameworkCapabilities(f);
            QVERIFY(caps.framework == f);
            QVERIFY(!caps.schedules.empty() && !caps.recomputeModes.empty() && !caps.zeroStages.empty());
            QVERIFY2(!caps.source.empty(), toString(f).data());
        }
        // What the sweep may assume: Megatron has no zero-bubble schedule, DeepSpeed no selective recompute.
        QVERIFY(!frameworkCapabilities(Framework::Megatron).supports(PipelineSchedule::ZbH1));
        QVERIFY(!frameworkCapabilities(Framework::DeepSpeed).supports(Recompute::Selective));
        QVERIFY(frameworkCapabilities(Framework::Other).supports(PipelineSchedule::ZbH1));
        // DualPipe is DeepSeek's own (HAI-LLM; deepseek-ai/DualPipe): no named framework runs it.
        QVERIFY(frameworkCapabilities(Framework::Other).supports(PipelineSchedule::DualPipe));
        QVERIFY(!frameworkCapabilities(Framework::TorchTitan).supports(PipelineSchedule::DualPipe));
    }

    void badDocumentsNameTheEntryAndField()
    {
        auto document = nlohmann::json::parse(R"({"frameworks": [{"id": "deepspeed", "schedules": ["1f1b", "chimera"],
            "recompute": ["full"], "zero_stages": [0], "max_zero_stage_with_pipeline": 1, "max_pipeline_stages": 0,
            "sequence_parallel": false, "distributed_optimizer": false, "default_attention": "math",
            "zero3_gathers_on_recompute": true, "grad_reduce_fp32": false, "fused_kernels": true, "autocast": false, "async_p2p": false, "zero3_overlap": null,
            "zero3_hierarchy": null}]})");
        try {
            parseFrameworkCapabilities(document.dump());
            QFAIL("an unknown schedule was accepted");
        } catch (const std::runtime_error& error) {
            const std::string message = error.what();
            QVERIFY2(message.find("deepspeed") != std::string::npos, error.what());
            QVERIFY2(message.find("schedules") != std::string::npos, error.what());
            QVERIFY2(message.find("chimera") != std::string::npos, error.what());
        }
        document["frameworks"][0]["schedules"] = {"1f1b"};
        document["frameworks"][0]["zero_stages"] = {0, 4};
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, parseFrameworkCapabilities(document.dump()));
        document["frameworks"][0]["zero_stages"] = {0, 1};
        document["frameworks"][0].erase("grad_reduce_fp32");
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, parseFrameworkCapabilities(document.dump()));
        document["frameworks"][0]["grad_reduce_fp32"] = false;
        QCOMPARE(parseFrameworkCapabilities(document.dump()).front().defaultVirtualStages, 0);
        document["frameworks"][0]["default_virtual_stages"] = 1; // one chunk per rank is not interleaving
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, parseFrameworkCapabilities(document.dump()));
        document["frameworks"][0]["default_virtual_stages"] = 2;
        document["frameworks"][0]["default_pipeline_microbatches"] = "per_node";
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, parseFrameworkCapabilities(document.dump()));
        document["frameworks"][0]["default_pipeline_microbatches"] = "stages";
        document["frameworks"][0]["shared_expert_overlap"] = true; // a mode is named, not switched on
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, parseFrameworkCapabilities(document.dump()));
        document["frameworks"][0]["shared_expert_overlap"] = "combine";
        const FrameworkCapabilities parsed = parseFrameworkCapabilities(document.dump()).front();
        QVERIFY(parsed.microBatchesDefaultToStages);
        QCOMPARE(parsed.defaultVirtualStages, 2);
        QCOMPARE(parsed.sharedExpertOverlap, SharedExpertOverlap::CombineOnly);
        // Shipped: Megatron-Core's side stream for Megatron-LM and NeMo, TorchTitan's async combine, none elsewhere.
        QCOMPARE(frameworkCapabilities(Framework::NeMo).sharedExpertOverlap, SharedExpertOverlap::SideStream);
        QCOMPARE(frameworkCapabilities(Framework::TorchTitan).sharedExpertOverlap, SharedExpertOverlap::CombineOnly);
        QCOMPARE(frameworkCapabilities(Framework::DeepSpeed).sharedExpertOverlap, SharedExpertOverlap::None);
    }

    /// Megatron-Bridge runs Llama 3.1 405B on PP 16 with 8 chunks per rank: 126 layers and the embedding's and the
    /// loss's slots in 128 chunks (docs/methods-memory.md §3.25). The sweep offers it where the framework counts
    /// those slots, and only there.
    void sweepOffersChunksTheEndSlotsFill()
    {
        SweepConstraints pinned;
        pinned.pp = 16;
        pinned.tp = 4;
        const auto chunksOffered = [&](Framework framework) {
            Scenario s = gpt3On1024(framework);
            s.model.layers = 126;
            std::set<int> chunks;
            for (const auto& c : enumerateLayouts(s, pinned))
                chunks.insert(c.layout.virtualStages);
            return chunks;
        };
        QVERIFY(chunksOffered(Framework::NeMo).count(8));
        QVERIFY(!chunksOffered(Framework::TorchTitan).count(8));
        QVERIFY(chunksOffered(Framework::TorchTitan).count(7));
    }

    void sweepOffersOnlyWhatTheFrameworkRuns()
    {
        const SweepConstraints free;
        const auto deepspeed = enumerateLayouts(gpt3On1024(Framework::DeepSpeed), free);
        QVERIFY(!deepspeed.empty());
        bool sawPipeline = false;
        for (const auto& c : deepspeed) {
            QVERIFY(c.recompute != Recompute::Selective);
            if (c.layout.pp > 1) {
                sawPipeline = true;
                QVERIFY(c.schedule == PipelineSchedule::OneFOneB);
                QCOMPARE(c.layout.virtualStages, 1);
                QVERIFY(c.zeroStage <= 1); // ZeRO-2/3 do not combine with DeepSpeed's pipeline engine
            }
        }
        QVERIFY(sawPipeline);
        for (const auto& c : enumerateLayouts(gpt3On1024(Framework::HuggingFace), free))
            QCOMPARE(c.layout.pp, 1);
        std::set<PipelineSchedule> megatronSchedules, otherSchedules;
        bool sawMegatronFsdp = false;
        for (const auto& c : enumerateLayouts(gpt3On1024(Framework::Megatron), free)) {
            megatronSchedules.insert(c.schedule);
            QVERIFY(c.zeroStage != 2); // the distributed optimizer (1) or Megatron-FSDP (3), never ZeRO-2
            if (c.zeroStage == 3) {
                sawMegatronFsdp = true;
                QCOMPARE(c.layout.pp, 1); // Megatron-FSDP is not run inside pipeline stages
            }
        }
        QVERIFY(sawMegatronFsdp);
        for (const auto& c : enumerateLayouts(gpt3On1024(Framework::Other), free))
            otherSchedules.insert(c.schedule);
        QVERIFY(megatronSchedules == (std::set {PipelineSchedule::OneFOneB, PipelineSchedule::Interleaved}));
        QCOMPARE(otherSchedules.size(), std::size_t(4)); // every schedule but DualPipe, swept only where asked for
        SweepConstraints dualPipe;
        dualPipe.schedule = PipelineSchedule::DualPipe;
        bool sawDualPipe = false;
        for (const auto& c : enumerateLayouts(gpt3On1024(Framework::Other), dualPipe)) {
            QVERIFY(c.layout.pp == 1 || (c.schedule == PipelineSchedule::DualPipe && c.layout.pp % 2 == 0));
            sawDualPipe = sawDualPipe || c.schedule == PipelineSchedule::DualPipe;
        }
        QVERIFY(sawDualPipe);
    }

    void statedValuesAreTakenAsGiven()
    {
        // A stated set-up is evaluated even where the framework would not offer it by itself.
        SweepConstraints fixed;
        fixed.schedule = PipelineSchedule::Interleaved;
        fixed.virtualStages = 2;
        fixed.recompute = Recompute::Selective;
        const auto candidates = enumerateLayouts(gpt3On1024(Framework::DeepSpeed), fixed);
        QVERIFY(!candidates.empty());
        for (const auto& c : candidates) {
            QVERIFY(c.schedule == PipelineSchedule::Interleaved);
            QVERIFY(c.recompute == Recompute::Selective);
        }
    }

    void deepSpeedGathersAgainOnRecompute()
    {
        // Per micro-batch: forward and backward all-gathers plus one reduce-scatter of equal size (bf16 gradients);
        // DeepSpeed's hooks add a third gather for the recomputed forward.
        const auto full = estimate(zero3Case(Framework::DeepSpeed, Recompute::Full));
        const auto none = estimate(zero3Case(Framework::DeepSpeed, Recompute::None));
        QVERIFY(full.valid && none.valid);
        QVERIFY2(
            std::abs(full.dpTotalS / none.dpTotalS - 4.0 / 3.0) < 0.01, qPrintable(QString::number(full.dpTotalS)));
    }

    void fsdpGathersWholeBlocksOverEveryNic()
    {
        // FSDP gathers a block in one large collective that NCCL spreads over the node's 8 NICs; DeepSpeed's
        // per-parameter collectives were measured at one NIC per rank. Same bytes (bf16 both ways), no recompute.
        const auto ds = estimate(zero3Case(Framework::DeepSpeed, Recompute::None));
        const auto fsdp = estimate(zero3Case(Framework::Fsdp, Recompute::None));
        QVERIFY(ds.valid && fsdp.valid);
        QVERIFY2(fsdp.dpTotalS < ds.dpTotalS / 4, qPrintable(QString::number(ds.dpTotalS / fsdp.dpTotalS)));
        QVERIFY(fsdp.dpExposedS <= ds.dpExposedS);
    }

    void deepSpeedPipelineTransfersAreExposed()
    {
        // DeepSpeed's pipeline engine sends and receives in turn with compute; Megatron overlaps them.
        Scenario s = gpt3On1024(Framework::Megatron);
        s.training.layout = ParallelLayout {16, 8, 8, 1, 1, 1, false};
        s.training.zeroStage = 1;
        s.training.recompute = Recompute::Full;
        const auto megatron = estimate(s);
        s.training.framework = Framework::DeepSpeed;
        const auto deepspeed = estimate(s);
        QVERIFY(megatron.valid && deepspeed.valid);
        QVERIFY(megatron.ppTotalS > 0);
        QCOMPARE(deepspeed.ppExposedS, deepspeed.ppTotalS);
        QVERIFY(megatron.ppExposedS < megatron.ppTotalS);
    }

    void gradientsTravelInTheFrameworksDtype()
    {
        // Mixed precision: Megatron all-reduces fp32 main gradients, DeepSpeed the bf16 ones: half the bytes.
        Scenario s = zero3Case(Framework::Megatron, Recompute::Full);
        s.model.layers = 8; // small enough to fit without sharding
        s.training.zeroStage = 0;
        s.training.distributedOptimizer = false; // a plain all-reduce of the gradients
        const auto megatron = estimate(s);
        s.training.framework = Framework::DeepSpeed;
        const auto deepspeed = estimate(s);
        QVERIFY(megatron.valid && deepspeed.valid);
        QVERIFY2(std::abs(megatron.dpTotalS / deepspeed.dpTotalS - 2.0) < 0.05,
            qPrintable(QString::number(megatron.dpTotalS / deepspeed.dpTotalS)));
    }

    void casesTakeTheFrameworksDefaultsAndTheGpusNetwork()
    {
        const auto ds = readValidationCases(caseJson("A100-SXM-80GB", "deepspeed")).front();
        QVERIFY(ds.scenario.training.attention == AttentionKind::Math); // Megatron-DeepSpeed materialises scores
        QCOMPARE(ds.scenario.training.layout.sequenceParallel, false);
        QCOMPARE(ds.scenario.cluster.nicGbps, 200.0); // DGX A100: one 200 Gb/s HDR NIC per GPU
        const auto megatron = readValidationCases(caseJson("H100-SXM-80GB", "megatron")).front();
        QVERIFY(megatron.scenario.training.attention == AttentionKind::Flash);
        QCOMPARE(megatron.scenario.training.layout.sequenceParallel, true);
        QCOMPARE(megatron.scenario.cluster.nicGbps, 400.0); // DGX H100: 400 Gb/s NDR
    }
};

QTEST_GUILESS_MAIN(TestFrameworks)
#include "tst_frameworks.moc"
