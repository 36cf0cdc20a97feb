// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/validationcase.h"
#include "core/model/frameworks.h"
#include "tests/cli/clitesthelpers.h"

#include <QRegularExpression>
#include <QTest>

#include <nlohmann/json.hpp>

#include <fstream>
#include <set>
#include <sstream>

using namespace clusterplanner::core;
using clitest::readFile;

namespace {

/// Case "p": a 4-layer model on 8 H100s with every optional choice null; `precision` and `framework` are JSON
/// values, the extras are appended inside the training and cluster objects (", \"key\": value").
std::string tinyCase(const std::string& precision, const std::string& framework, const std::string& trainingExtra,
    const std::string& clusterExtra = "")
{
    return R"({"id": "p", "model": {"name": "m", "layers": 4, "hidden": 64, "heads": 4, "kv_heads": 4,
        "ffn_hidden": null, "vocab": 100, "seq_len": 32, "mlp": null, "norm": null, "tied_embeddings": null,
        "params": null, "moe": null},
      "training": {"global_batch_seqs": 8, "micro_batch": 1, "precision": )"
        + precision + R"(, "optimizer": null, "recompute": null, "sequence_parallel": null, "zero_stage": null,
        "distributed_optimizer": null, "attention": null, "framework": )"
        + framework + trainingExtra + R"(},
      "cluster": {"gpu": "H100-SXM-80GB", "num_gpus": 8, "gpus_per_node": 8)"
        + clusterExtra + R"(},
      "parallelism": {"tp": 1, "pp": 1, "cp": 1, "dp": 8, "ep": null, "vpp": null, "schedule": null}})";
}

/// The training settings read from tinyCase(precision, framework, trainingExtra).
TrainingConfig trainingOf(const std::string& precision, const std::string& framework, const std::string& extra)
{
    return readValidationCases(tinyCase(precision, framework, extra)).front().scenario.training;
}

} // namespace

class TestValidationCase : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void readsTheDevelopmentSet()
    {
        const auto cases = readValidationCases(readFile(CLUSTERPLANNER_DATA_DIR "/validation/dev_cases.json"));
        const auto truths = readValidationTruths(readFile(CLUSTERPLANNER_DATA_DIR "/validation/dev_truth.json"));
        QCOMPARE(cases.size(), truths.size());
        QVERIFY(cases.size() >= 77);
        for (const auto& c : cases) {
            const auto& l = c.scenario.training.layout;
            QVERIFY2(c.unknown.anyLayout() || l.gpuCount() == c.scenario.cluster.gpuCount, c.id.c_str());
        }
    }

    void nullsAreRecordedAndDefaulted()
    {
        const auto cases = readValidationCases(R"({"id": "x",
          "model": {"name": "m", "layers": 4, "hidden": 64, "heads": 4, "kv_heads": 4, "ffn_hidden": null,
                    "vocab": 100, "seq_len": 32, "mlp": null, "norm": null, "tied_embeddings": null, "params": null,
                    "moe": null},
          "training": {"global_batch_seqs": null, "micro_batch": 2, "precision": null, "optimizer": null,
                       "recompute": "full", "sequence_parallel": null, "zero_stage": null,
                       "distributed_optimizer": null, "attention": null, "framework": "megatron"},
          "cluster": {"gpu": "A100-SXM-80GB", "num_gpus": 16, "gpus_per_node": null},
          "parallelism": {"tp": 2, "pp": 2, "cp": null, "dp": null, "ep": null, "vpp": null, "schedule": null}})");
        QCOMPARE(cases.size(), std::size_t(1));
        const auto& c = cases.front();
        QVERIFY(c.unknown.ffnHidden && c.unknown.globalBatch && c.unknown.dp && !c.unknown.tp);
        QCOMPARE(c.scenario.model.ffnHidden, 256);
        QCOMPARE(c.scenario.training.layout.dp, 4);
        QCOMPARE(c.scenario.training.globalBatch, 8);
        QVERIFY(c.scenario.training.layout.sequenceParallel);
        QCOMPARE(c.scenario.training.recompute, Recompute::Full);
    }

    /// fp8_recipe is optional (cases written before it leave it out) and, when given, one of the recipe names.
    void fp8RecipeIsOptionalAndChecked()
    {
        const auto recipe
            = [](const std::string& extra) { return trainingOf(R"("fp8")", R"("torchtitan")", extra).fp8Recipe; };
        QCOMPARE(recipe(""), Fp8Recipe::FrameworkDefault);
        QCOMPARE(recipe(R"(, "fp8_recipe": "rowwise")"), Fp8Recipe::Rowwise);
        try {
            recipe(R"(, "fp8_recipe": "fastest")");
            QFAIL("expected an error");
        } catch (const std::runtime_error& error) {
            QVERIFY2(QString::fromUtf8(error.what()).contains(QLatin1String("fp8_recipe")), error.what());
        }
    }

    /// optimizer_states is optional (fp32 states) and, when given, one of its names.
    void optimizerStatesAreOptionalAndChecked()
    {
        const auto states
            = [](const std::string& extra) { return trainingOf(R"("amp_bf16")", R"("nemo")", extra).optimizerStates; };
        QCOMPARE(states(""), OptimizerStates::Fp32);
        QCOMPARE(states(R"(, "optimizer_states": "bf16")"), OptimizerStates::Bf16);
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, states(R"(, "optimizer_states": "int8")"));
    }

    /// model.qk_norm and model.parallel_block are optional (absent or null: off) and must be booleans when given; a
    /// parallel block is refused with experts (it is modelled for dense layers only).
    void modelFlagsAreOptionalAndChecked()
    {
        const auto read = [](const std::string& key, const std::string& value, bool moe = false) {
            std::string text = tinyCase(R"("bf16")", R"("megatron")", "");
            if (!value.empty())
                text.replace(text.find(R"("params": null)"), 14, R"("params": null, ")" + key + R"(": )" + value);
            if (moe)
                text.replace(text.find(R"("moe": null)"), 11,
                    R"("moe": {"experts": 8, "top_k": 2, "expert_ffn_hidden": 64, "shared_experts": 0, "moe_layers": 0})");
            const ModelConfig m = readValidationCases(text).front().scenario.model;
            return key == "qk_norm" ? m.qkNorm : m.parallelBlock;
        };
        for (const std::string key : {"qk_norm", "parallel_block"}) {
            QVERIFY(!read(key, ""));
            QVERIFY(read(key, "true"));
            QVERIFY(!read(key, "null"));
            QVERIFY_THROWS_EXCEPTION(std::runtime_error, read(key, R"("yes")"));
        }
        QVERIFY(read("qk_norm", "true", true));
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, read("parallel_block", "true", true));
        QVERIFY(!read("parallel_block", "false", true));
    }

    /// model.mla is optional (standard attention), read with DeepSeek's widths, bounded, and needs kv_heads = heads;
    /// the development-set schema does not have it.
    void latentAttentionIsOptionalAndChecked()
    {
        const auto read = [](const std::string& value, CaseKeys keys = CaseKeys::All) {
            std::string text = tinyCase(R"("bf16")", R"("megatron")", "");
            if (!value.empty())
                text.replace(text.find(R"("params": null)"), 14, R"("params": null, "mla": )" + value);
            return readValidationCases(text, keys).front().scenario.model.mla;
        };
        QVERIFY(!read("").enabled());
        QVERIFY(!read("null").enabled());
        const std::string deepSeek = R"({"kv_lora_rank": 512, "q_lora_rank": 1536, "qk_nope_head_dim": 128,
            "qk_rope_head_dim": 64, "v_head_dim": 128})";
        QVERIFY(read(deepSeek) == (MlaConfig {512, 1536, 128, 64, 128}));
        QVERIFY(!read(deepSeek, CaseKeys::DevelopmentSchema).enabled());
        const auto rejects
            = [&read](std::string mla, const std::string& from, const std::string& to, const char* named) {
                  mla.replace(mla.find(from), from.size(), to);
                  try {
                      read(mla);
                  } catch (const std::runtime_error& error) {
                      return QString::fromUtf8(error.what()).contains(QLatin1String(named));
                  }
                  return false;
              };
        QVERIFY(rejects(deepSeek, R"("kv_lora_rank": 512)", R"("kv_lora_rank": 0)", "mla.kv_lora_rank"));
        QVERIFY(rejects(deepSeek, R"("kv_lora_rank": 512)", R"("kv_lora_rank": null)", "mla.kv_lora_rank"));
        QVERIFY(rejects(deepSeek, R"("q_lora_rank": 1536)", R"("q_lora_rank": 200000)", "mla.q_lora_rank"));
        std::string tooWide = deepSeek;
        tooWide.replace(tooWide.find(R"("v_head_dim": 128)"), 17, R"("v_head_dim": 1000000)");
        try {
            read(tooWide);
            QFAIL("expected an error");
        } catch (const std::runtime_error& error) {
            QVERIFY2(QString::fromUtf8(error.what()).contains(QLatin1String("mla.v_head_dim")), error.what());
        }
        std::string grouped = tinyCase(R"("bf16")", R"("megatron")", "");
        grouped.replace(grouped.find(R"("params": null)"), 14, R"("params": null, "mla": )" + deepSeek);
        grouped.replace(grouped.find(R"("kv_heads": 4)"), 13, R"("kv_heads": 2)");
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, readValidationCases(grouped));
    }

    /// moe_dispatcher and moe_overlap are optional (the all-to-all without overlap) and checked when given.
    void moeCommunicationIsOptionalAndChecked()
    {
        const auto training = [](const std::string& extra) { return trainingOf(R"("bf16")", R"("megatron")", extra); };
        QCOMPARE(training("").moeDispatcher, MoeDispatcher::AllToAll);
        QVERIFY(!training("").moeOverlap);
        const TrainingConfig stated = training(R"(, "moe_dispatcher": "deepep", "moe_overlap": true)");
        QCOMPARE(stated.moeDispatcher, MoeDispatcher::DeepEp);
        QVERIFY(stated.moeOverlap);
        try {
            training(R"(, "moe_dispatcher": "pigeon")");
            QFAIL("expected an error");
        } catch (const std::runtime_error& error) {
            QVERIFY2(QString::fromUtf8(error.what()).contains(QLatin1String("moe_dispatcher")), error.what());
        }
    }

    /// compile_loss is optional: unstated, what the framework's published runs did (TorchTitan's 2024 runs: eager).
    void compileLossIsOptionalWithThePublishedRunsDefault()
    {
        const auto training
            = [](const std::string& extra) { return trainingOf(R"("bf16")", R"("torchtitan")", extra); };
        QVERIFY(!frameworkCapabilities(Framework::TorchTitan).compiledLossInPublishedRuns);
        QVERIFY(!training("").compileLoss);
        QVERIFY(training(R"(, "compile_loss": true)").compileLoss);
        QVERIFY(!training(R"(, "compile_loss": false)").compileLoss);
    }

    /// fused_loss is optional: unstated, what the framework's published runs used (llm-foundry's benchmarks, read as
    /// PyTorch FSDP: flash-attn's fused cross-entropy; Hugging Face: the eager loss); stated, as stated.
    void fusedLossIsOptionalWithThePublishedRunsDefault()
    {
        const auto fsdp = [](const std::string& extra) { return trainingOf(R"("amp_bf16")", R"("fsdp")", extra); };
        QVERIFY(fsdp("").fusedLoss);
        QVERIFY(!fsdp(R"(, "fused_loss": false)").fusedLoss);
        const auto hf = [](const std::string& extra) { return trainingOf(R"("amp_bf16")", R"("hf")", extra); };
        QVERIFY(!hf("").fusedLoss);
        QVERIFY(hf(R"(, "fused_loss": true)").fusedLoss);
    }

    /// checkpoint_early_stop is optional: unstated, what the framework's published runs' PyTorch did (TorchTitan's and
    /// PyTorch FSDP's: stops early, llm-foundry's H100 and A100-80GB DEFAULT tables ran a PyTorch 2.1 nightly; Hugging
    /// Face's: reran the layer); stated, as stated (llm-foundry's first tables on PyTorch 1.13 state false). A
    /// scenario is planned for today's software, which stops early.
    void checkpointEarlyStopIsOptionalWithThePublishedRunsDefault()
    {
        const auto of = [](const std::string& framework, const std::string& extra) {
            return trainingOf(R"("amp_bf16")", framework, extra).checkpointEarlyStop;
        };
        QVERIFY(of(R"("torchtitan")", ""));
        QVERIFY(of(R"("fsdp")", ""));
        QVERIFY(!of(R"("hf")", ""));
        QVERIFY(!of(R"("fsdp")", R"(, "checkpoint_early_stop": false)"));
        QVERIFY(of(R"("hf")", R"(, "checkpoint_early_stop": true)"));
        QVERIFY(!of(R"("torchtitan")", R"(, "checkpoint_early_stop": false)"));
        QVERIFY(TrainingConfig {}.checkpointEarlyStop);
    }

    /// parallelism.etp is optional: unstated, what the framework's published runs set (NeMo's and Megatron-Bridge's
    /// MoE recipes: 1; Megatron-LM: Megatron-Core's default); stated, the degree; below 1 named.
    void expertTpIsOptionalWithThePublishedRunsDefault()
    {
        const auto layoutOf = [](const std::string& framework, const std::string& etp) {
            std::string text = tinyCase(R"("bf16")", framework, "");
            const std::string last = R"("schedule": null})";
            if (!etp.empty())
                text.replace(text.find(last), last.size(), R"("schedule": null, "etp": )" + etp + "}");
            return readValidationCases(text).front().scenario.training.layout;
        };
        QCOMPARE(frameworkCapabilities(Framework::NeMo).expertTpInPublishedRuns, 1);
        QCOMPARE(layoutOf(R"("nemo")", "").expertTp, 1);
        QCOMPARE(layoutOf(R"("nemo")", "null").expertTp, 1);
        QCOMPARE(layoutOf(R"("megatron")", "").expertTp, kExpertTpDefault);
        QCOMPARE(layoutOf(R"("megatron")", "2").expertTp, 2);
        QCOMPARE(layoutOf(R"("nemo")", "4").expertTp, 4);
        try {
            layoutOf(R"("nemo")", "0");
            QFAIL("expected an error");
        } catch (const std::runtime_error& error) {
            QVERIFY2(QString::fromUtf8(error.what()).contains(QLatin1String("parallelism.etp")), error.what());
        }
    }

    /// activation_offload_layers is optional: unstated, the planner's (auto); stated, the count; out of range named.
    void activationOffloadIsOptionalAndChecked()
    {
        const auto training = [](const std::string& extra) { return trainingOf(R"("bf16")", R"("megatron")", extra); };
        QCOMPARE(training("").activationOffloadLayers, kActivationOffloadAuto);
        QCOMPARE(training(R"(, "activation_offload_layers": null)").activationOffloadLayers, kActivationOffloadAuto);
        QCOMPARE(training(R"(, "activation_offload_layers": 3)").activationOffloadLayers, 3);
        QCOMPARE(training(R"(, "activation_offload_layers": 0)").activationOffloadLayers, 0);
        try {
            training(R"(, "activation_offload_layers": -1)");
            QFAIL("expected an error");
        } catch (const std::runtime_error& error) {
            QVERIFY2(
                QString::fromUtf8(error.what()).contains(QLatin1String("activation_offload_layers")), error.what());
        }
    }

    /// nic_gbps_per_gpu is optional: absent, the GPU's reference system (DGX H100: 400 Gb/s per GPU).
    void networkIsOptionalAndChecked()
    {
        const auto nic = [](const std::string& extra) {
            return readValidationCases(tinyCase(R"("bf16")", R"("megatron")", "", extra))
                .front()
                .scenario.cluster.nicGbps;
        };
        QCOMPARE(nic(""), 400.0);
        QCOMPARE(nic(R"(, "nic_gbps_per_gpu": 50)"), 50.0);
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, nic(R"(, "nic_gbps_per_gpu": 0)"));
    }

    void headDimIsOptionalAndChecked()
    {
        const auto headDim = [](const std::string& value) {
            std::string text = tinyCase(R"("bf16")", R"("megatron")", "");
            if (!value.empty())
                text.replace(text.find(R"("kv_heads": 4,)"), 14, R"("kv_heads": 4, "head_dim": )" + value + ",");
            return readValidationCases(text).front().scenario.model.headDim;
        };
        QCOMPARE(headDim(""), 0); // the shared schema has no such key: hidden / heads
        QCOMPARE(headDim("null"), 0);
        QCOMPARE(headDim("32"), 32);
        try {
            headDim("-8");
            QFAIL("expected an error");
        } catch (const std::runtime_error& error) {
            QVERIFY2(QString::fromUtf8(error.what()).contains(QLatin1String("p.model.head_dim")), error.what());
        }
    }

    void powerLimitIsOptionalAndChecked()
    {
        const auto limit = [](const std::string& extra) {
            return readValidationCases(tinyCase("null", "null", "", extra)).front().scenario.cluster.gpuPowerLimitW;
        };
        QVERIFY(!limit(""));
        QVERIFY(!limit(R"(, "gpu_power_limit_w": null)"));
        QCOMPARE(limit(R"(, "gpu_power_limit_w": 500)"), std::optional(500.0));
        for (const char* bad : {R"("500 W")", "0", "-1", "1e9"}) {
            try {
                limit(std::string(", \"gpu_power_limit_w\": ") + bad);
                QFAIL(bad);
            } catch (const std::runtime_error& error) {
                const QString message = QString::fromUtf8(error.what());
                QVERIFY2(message.startsWith(QLatin1String("p.cluster.gpu_power_limit_w: must be")), error.what());
            }
        }
    }

    /// Settings the development-set schema has no key for are recorded as open when absent or null, and a named
    /// framework runs its default there (NeMo's performance recipes overlap TP communication; Megatron-LM does
    /// not unless asked).
    void softwareSettingsOutsideTheSchemaAreOpen()
    {
        const auto read = [](const char* framework, const std::string& extra) {
            return readValidationCases(tinyCase(R"("bf16")", framework, extra)).front();
        };
        const ValidationCase open = read(R"("nemo")", "");
        QVERIFY(open.unknown.compile && open.unknown.asyncTp && open.unknown.moeDispatcher && open.unknown.moeOverlap);
        QVERIFY(open.scenario.training.asyncTp);
        QVERIFY(!read(R"("megatron")", "").scenario.training.asyncTp);
        const ValidationCase stated = read(
            R"("nemo")", R"(, "compile": false, "async_tp": false, "moe_dispatcher": "deepep", "moe_overlap": null)");
        QVERIFY(!stated.unknown.compile && !stated.unknown.asyncTp && !stated.unknown.moeDispatcher);
        QVERIFY(stated.unknown.moeOverlap);
        QVERIFY(!stated.scenario.training.asyncTp && !stated.scenario.training.compile);
    }

    /// CaseKeys::DevelopmentSchema reads a case as one written to the schema of data/validation/README.md: what a
    /// file adds beyond it (here a power limit, a network and an FP8 recipe) is not read.
    void schemaKeysOnlyIgnoresTheRest()
    {
        const std::string text = tinyCase(R"("fp8")", R"("torchtitan")",
            R"(, "fp8_recipe": "rowwise", "compile": false)", R"(, "gpu_power_limit_w": 500, "nic_gbps_per_gpu": 50)");
        const ValidationCase all = readValidationCases(text).front();
        const ValidationCase schema = readValidationCases(text, CaseKeys::DevelopmentSchema).front();
        QCOMPARE(all.scenario.training.fp8Recipe, Fp8Recipe::Rowwise);
        QCOMPARE(schema.scenario.training.fp8Recipe, Fp8Recipe::FrameworkDefault);
        QVERIFY(!all.scenario.training.compile && !all.unknown.compile);
        QVERIFY(schema.scenario.training.compile && schema.unknown.compile);
        QCOMPARE(all.scenario.cluster.gpuPowerLimitW, std::optional(500.0));
        QVERIFY(!schema.scenario.cluster.gpuPowerLimitW);
        QCOMPARE(schema.scenario.cluster.nicGbps, 400.0);
        QCOMPARE(schema.scenario.model.layers, all.scenario.model.layers); // the schema's own keys are read
        QCOMPARE(schema.scenario.training.precision, Precision::Fp8);
        // Inside model.moe too: the schema's five keys stay, group-limited routing goes.
        std::string moeText = text;
        moeText.replace(moeText.find(R"("moe": null)"), 11,
            R"("moe": {"experts": 8, "top_k": 2, "expert_ffn_hidden": null, "shared_experts": null, "moe_layers": null,
                "expert_groups": 4, "groups_per_token": 2})");
        QCOMPARE(readValidationCases(moeText).front().scenario.model.moe->groupsPerToken, 2);
        const MoeConfig schemaMoe
            = *readValidationCases(moeText, CaseKeys::DevelopmentSchema).front().scenario.model.moe;
        QCOMPARE(schemaMoe.topK, 2);
        QCOMPARE(schemaMoe.expertGroups, 0);
        QCOMPARE(schemaMoe.groupsPerToken, 0);
        moeText.replace(moeText.find(R"("expert_groups": 4)"), 18, R"("expert_groups": 3)");
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, readValidationCases(moeText));
        // A required key missing is still named, whatever is dropped.
        QVERIFY_THROWS_EXCEPTION(
            std::runtime_error, readValidationCases(R"({"id": "q", "model": {}})", CaseKeys::DevelopmentSchema));
    }

    /// A case written to the development-set schema takes the architecture the schema cannot state from the preset
    /// of its shape (docs/methods-time.md §4.42): DeepSeek-V3 its latent attention and node-limited routing, Qwen3
    /// its heads of 128 and QK norm, whatever the case calls the model; a case that states any of those keys, or
    /// whose shape is no preset's, is read as written.
    void schemaCaseTakesTheArchitectureOfItsPreset()
    {
        const auto withModel = [](const std::string& model) {
            std::string text = tinyCase(R"("bf16")", R"("megatron")", "");
            const std::size_t from = text.find(R"("model": {)");
            const std::size_t to = text.find(R"("training")");
            text.replace(from, to - from, R"("model": )" + model + ", ");
            return readValidationCases(text, CaseKeys::All).front();
        };
        const std::string deepSeek = R"({"name": "deepseek-v3-671b", "layers": 61, "hidden": 7168, "heads": 128,
            "kv_heads": 128, "ffn_hidden": 18432, "vocab": 129280, "seq_len": 4096, "mlp": "swiglu", "norm": "rmsnorm",
            "tied_embeddings": false, "params": null, "moe": {"experts": 256, "top_k": 8, "expert_ffn_hidden": 2048,
            "shared_experts": 1, "moe_layers": 58}})";
        const ValidationCase ds = withModel(deepSeek);
        QVERIFY(ds.scenario.model.mla == (MlaConfig {512, 1536, 128, 64, 128}));
        QCOMPARE(ds.scenario.model.moe->expertGroups, 8);
        QCOMPARE(ds.scenario.model.moe->groupsPerToken, 4);
        QCOMPARE(ds.architecturePreset, std::string("DeepSeek-V3"));
        QVERIFY(ds.architectureAdded.find("multi-head latent attention") != std::string::npos);

        const std::string qwen = R"({"name": "Qwen3 30B", "layers": 48, "hidden": 2048, "heads": 32, "kv_heads": 4,
            "ffn_hidden": null, "vocab": 151936, "seq_len": 4096, "mlp": "swiglu", "norm": "rmsnorm",
            "tied_embeddings": false, "params": null, "moe": {"experts": 128, "top_k": 8, "expert_ffn_hidden": 768,
            "shared_experts": 0, "moe_layers": 48})";
        const ValidationCase q = withModel(qwen + "}");
        QCOMPARE(q.scenario.model.headDim, 128);
        QVERIFY(q.scenario.model.qkNorm);
        QCOMPARE(q.architectureAdded, std::string("head_dim 128, QK norm"));
        // Every layer MoE: whatever the case writes as the dense FFN (here the expert width) is not compared.
        std::string expertWidth = qwen + "}";
        expertWidth.replace(expertWidth.find(R"("ffn_hidden": null)"), 18, R"("ffn_hidden": 768)");
        QCOMPARE(withModel(expertWidth).scenario.model.headDim, 128);
        // A stated architecture key: the case speaks for itself (no QK norm, heads of hidden / heads).
        const ValidationCase stated = withModel(qwen + R"(, "qk_norm": false})");
        QVERIFY(!stated.scenario.model.qkNorm);
        QCOMPARE(stated.scenario.model.headDim, 0);
        QVERIFY(stated.architecturePreset.empty());
        // Another shape (one layer fewer): nothing is taken.
        std::string other = qwen + "}";
        other.replace(other.find(R"("layers": 48)"), 12, R"("layers": 47)");
        QCOMPARE(withModel(other).scenario.model.headDim, 0);
        QVERIFY(withModel(other).architecturePreset.empty());
        // Presets with nothing beyond the schema (Llama 3 8B) add nothing and say nothing.
        const std::string llama = R"({"name": "Llama-3.1-8B", "layers": 32, "hidden": 4096, "heads": 32,
            "kv_heads": 8, "ffn_hidden": 14336, "vocab": 128256, "seq_len": 8192, "mlp": "swiglu", "norm": "rmsnorm",
            "tied_embeddings": false, "params": null, "moe": null})";
        QVERIFY(withModel(llama).architecturePreset.empty());
        // PaLM's shape (multi-query attention over heads of 256) takes the head width and the parallel block; a case
        // that states parallel_block speaks for itself.
        const std::string palm = R"({"name": "PaLM", "layers": 118, "hidden": 18432, "heads": 48, "kv_heads": 1,
            "ffn_hidden": 73728, "vocab": 256000, "seq_len": 2048, "mlp": "swiglu", "norm": "layernorm",
            "tied_embeddings": true, "params": null, "moe": null)";
        const ValidationCase p = withModel(palm + "}");
        QVERIFY(p.scenario.model.parallelBlock);
        QCOMPARE(p.scenario.model.headDim, 256);
        QCOMPARE(p.architectureAdded, std::string("head_dim 256, parallel attention and MLP"));
        QVERIFY(!withModel(palm + R"(, "parallel_block": false})").scenario.model.parallelBlock);
    }

    /// An unstated attention kernel is the framework's, on the GPU generation where that differs: Megatron-LM's
    /// published A100 runs materialise the scores, its H100 runs use fused attention.
    void unstatedAttentionFollowsFrameworkAndGeneration()
    {
        const auto attention = [](const char* framework, const char* gpu) {
            std::string text = tinyCase(R"("bf16")", framework, "");
            text.replace(text.find("H100-SXM-80GB"), 13, gpu);
            return readValidationCases(text).front().scenario.training.attention;
        };
        QCOMPARE(attention(R"("megatron")", "A100-SXM-80GB"), AttentionKind::Math);
        QCOMPARE(attention(R"("megatron")", "H100-SXM-80GB"), AttentionKind::Flash);
        QCOMPARE(attention(R"("nemo")", "A100-SXM-80GB"), AttentionKind::Flash);
        QCOMPARE(attention(R"("deepspeed")", "H100-SXM-80GB"), AttentionKind::Math);
        // TorchTitan's unstated kernel (flash: SDPA's flash backend) ran FlashAttention-2 in its published Hopper runs.
        QCOMPARE(attention(R"("torchtitan")", "H100-SXM-80GB"), AttentionKind::Flash2);
        QCOMPARE(attention(R"("torchtitan")", "A100-SXM-80GB"), AttentionKind::Flash);
    }

    /// developmentSchemaSections() is the schema of data/validation/README.md: every development case has exactly
    /// those keys ("Every case has exactly these keys"), so --schema-keys-only drops nothing a schema case says.
    void schemaSectionsAreTheDevelopmentSetsKeys()
    {
        const auto cases = nlohmann::json::parse(readFile(CLUSTERPLANNER_DATA_DIR "/validation/dev_cases.json"));
        QVERIFY(cases.size() >= 77);
        for (const auto& c : cases) {
            std::set<std::string> sections;
            for (const auto& [key, value] : c.items())
                if (key != "id")
                    sections.insert(key);
            QCOMPARE(sections.size(), developmentSchemaSections().size());
            for (const auto& section : developmentSchemaSections()) {
                std::set<std::string> keys;
                for (const auto& [key, value] : c.at(section.name).items())
                    keys.insert(key);
                QVERIFY2(keys == std::set<std::string>(section.keys.begin(), section.keys.end()),
                    (c.at("id").get<std::string>() + "." + section.name).c_str());
            }
        }
    }

    /// A GPU id the catalog has renamed still reads, as the entry's current id (Meta's 96 GB H100 was
    /// H100-SXM-96GB-HBM2e until 2026-11).
    void renamedGpuReadsAsItsCurrentId()
    {
        std::string text = tinyCase(R"("bf16")", R"("torchtitan")", "");
        text.replace(text.find("H100-SXM-80GB"), 13, "H100-SXM-96GB-HBM2e");
        QCOMPARE(readValidationCases(text).front().scenario.cluster.gpuId, std::string("H100-SXM-96GB"));
    }

    /// A model shape, the GPU or the GPU count stated as null is refused by name: read as 1 (or an empty GPU id) it
    /// gave a nonsense case or a complaint about another field (a null head count read "kv_heads must be at most 1").
    void nullEssentialsAreRequiredByName_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("path");
        for (const char* key : {"layers", "hidden", "heads", "vocab", "seq_len"})
            QTest::newRow(key) << QString::fromLatin1(key) << QStringLiteral("p.model.%1").arg(QLatin1String(key));
        QTest::newRow("gpu") << QStringLiteral("gpu") << QStringLiteral("p.cluster.gpu");
        for (const char* key : {"experts", "top_k"})
            QTest::newRow(key) << QString::fromLatin1(key) << QStringLiteral("p.model.moe.%1").arg(QLatin1String(key));
        QTest::newRow("num_gpus") << QStringLiteral("num_gpus") << QStringLiteral("p.cluster.num_gpus");
    }

    void nullEssentialsAreRequiredByName()
    {
        QFETCH(QString, field);
        QFETCH(QString, path);
        auto text = QString::fromStdString(tinyCase(R"("bf16")", R"("torchtitan")", ""));
        text.replace(QStringLiteral("\"moe\": null"),
            QStringLiteral("\"moe\": {\"experts\": 8, \"top_k\": 2, \"expert_ffn_hidden\": null, "
                           "\"shared_experts\": null, \"moe_layers\": null}"));
        QVERIFY(!readValidationCases(text.toStdString()).front().scenario.model.moe->sharedExperts);
        const QRegularExpression value(QStringLiteral("\"%1\": (\"[^\"]*\"|\\d+)").arg(field));
        QVERIFY2(value.match(text).hasMatch(), qPrintable(field));
        text.replace(value, QStringLiteral("\"%1\": null").arg(field));
        try {
            readValidationCases(text.toStdString());
            QFAIL("a null essential field was accepted");
        } catch (const std::runtime_error& error) {
            QCOMPARE(QString::fromUtf8(error.what()),
                path + QStringLiteral(": is required")
                    + (field == QLatin1String("gpu") ? QStringLiteral(", got null")
                                                     : QStringLiteral(" (a whole number of at least 1), got null")));
        }
        // An empty GPU id is named the same way.
        if (field == QLatin1String("gpu")) {
            text.replace(QStringLiteral("\"gpu\": null"), QStringLiteral("\"gpu\": \"\""));
            QVERIFY_THROWS_EXCEPTION(std::runtime_error, readValidationCases(text.toStdString()));
        }
    }

    /// parallelism.dp_shard (hybrid sharding) is optional, read where stated and dropped with the schema's keys only.
    void hybridShardIsOptional()
    {
        std::string text = tinyCase(R"("bf16")", R"("torchtitan")", "");
        QCOMPARE(readValidationCases(text).front().scenario.training.layout.dpShard, kDpShardAll);
        const std::string dp = R"("dp": 8)";
        text.replace(text.find(dp), dp.size(), R"("dp": 8, "dp_shard": 4)");
        QCOMPARE(readValidationCases(text).front().scenario.training.layout.dpShard, 4);
        QCOMPARE(readValidationCases(text, CaseKeys::DevelopmentSchema).front().scenario.training.layout.dpShard,
            kDpShardAll);
        const std::string shard = R"("dp_shard": 4)";
        text.replace(text.find(shard), shard.size(), R"("dp_shard": -1)");
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, readValidationCases(text));
    }

    void badCaseNamesIdAndField()
    {
        try {
            readValidationCases(R"([{"id": "broken", "model": {"layers": -1}}])");
            QFAIL("expected an error");
        } catch (const std::runtime_error& error) {
            QVERIFY2(QString::fromUtf8(error.what()).contains(QLatin1String("broken")), error.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestValidationCase)
#include "tst_validationcase.moc"
