// SPDX-License-Identifier: GPL-3.0-or-later
// Hugging Face config.json import: the files in tests/data/hf/ carry the published values of each family; the
// imported model's engine parameter count is checked against the published total.
#include "core/hf/hfconfig.h"
#include "core/model/modelmath.h"
#include "core/model/modelpresets.h"
#include "tests/cli/clitesthelpers.h"

#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>

using namespace clusterplanner::core;
using clusterplanner::core::hf::HfConfigError;
using clusterplanner::core::hf::HfImport;
using clusterplanner::core::hf::importHfConfig;

namespace {

std::string hfFile(const char* name)
{
    return std::string(CLUSTERPLANNER_SOURCE_DIR) + "/tests/data/hf/" + name;
}

HfImport importFile(const char* name)
{
    return importHfConfig(clitest::readFile(hfFile(name)), name);
}

double totalParams(const char* name)
{
    return countParameters(importFile(name).model).total;
}

bool mentions(const std::vector<std::string>& notes, const std::string& word)
{
    for (const auto& note : notes)
        if (note.find(word) != std::string::npos)
            return true;
    return false;
}

/// The Llama 3.1 8B file with one field removed or changed.
std::string llamaWith(const std::string& field, const std::string& replacement)
{
    std::string text = clitest::readFile(hfFile("llama-3.1-8b.json"));
    const auto start = text.find("\"" + field + "\"");
    const auto end = text.find('\n', start);
    return text.replace(start, end - start, replacement);
}

} // namespace

class TestHfConfig : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void exactCounts_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<double>("published");
        // Totals from the model cards / safetensors metadata of each release.
        QTest::newRow("llama-3.1-8b") << "llama-3.1-8b.json" << 8'030'261'248.0;
        QTest::newRow("llama-3.2-1b tied") << "llama-3.2-1b.json" << 1'235'814'400.0;
        QTest::newRow("llama-1-7b no kv field") << "llama-1-7b.json" << 6'738'415'616.0;
        QTest::newRow("mistral-7b") << "mistral-7b-v0.1.json" << 7'241'732'096.0;
        QTest::newRow("mixtral-8x7b") << "mixtral-8x7b-v0.1.json" << 46'702'792'704.0;
        QTest::newRow("gpt2") << "gpt2.json" << 124'439'808.0;
        QTest::newRow("gemma-2b") << "gemma-2b.json" << 2'506'172'416.0;
    }
    void exactCounts()
    {
        QFETCH(QString, file);
        QFETCH(double, published);
        QCOMPARE(totalParams(file.toUtf8().constData()), published);
    }

    void llamaFields()
    {
        const HfImport imported = importFile("llama-3.1-8b.json");
        const ModelConfig& m = imported.model;
        QCOMPARE(imported.modelType, std::string("llama"));
        QCOMPARE(m.layers, 32);
        QCOMPARE(m.hidden, 4096);
        QCOMPARE(m.heads, 32);
        QCOMPARE(m.kvHeads, 8);
        QCOMPARE(m.ffnHidden, 14336);
        QCOMPARE(m.vocab, 128256);
        QCOMPARE(m.seqLen, 131072);
        QVERIFY(!m.tiedEmbeddings);
        QVERIFY(!m.moe);
        QCOMPARE(m.ropeBase, 500000.0);
        QVERIFY(imported.notes.empty());
    }

    void llama1DefaultsKvHeadsToHeads() { QCOMPARE(importFile("llama-1-7b.json").model.kvHeads, 32); }

    /// rope_theta is read where the file states it and takes LlamaConfig's class default, 10,000, where not.
    void ropeBaseFallsBackToTheClassDefault()
    {
        std::string text = clitest::readFile(hfFile("llama-3.1-8b.json"));
        const auto at = text.find("\"rope_theta\"");
        QVERIFY(at != std::string::npos);
        text.replace(at, text.find(',', at) + 1 - at, "");
        QCOMPARE(importHfConfig(text, "no-theta").model.ropeBase, 10000.0);
    }

    void mixtralExperts()
    {
        const ModelConfig m = importFile("mixtral-8x7b-v0.1.json").model;
        QVERIFY(m.moe);
        QCOMPARE(m.moe->experts, 8);
        QCOMPARE(m.moe->topK, 2);
        QCOMPARE(m.moe->expertFfnHidden, 14336);
        QCOMPARE(moeLayerCount(m), 32);
        // Mixtral's published active count: 12.9B of 46.7B.
        QVERIFY(clitest::closeRelative(countParameters(m).active, 12.9e9, 0.01));
    }

    void deepSeekV3MatchesPreset()
    {
        HfImport imported = importFile("deepseek-v3.json");
        ModelConfig preset = modelPreset("DeepSeek-V3");
        QCOMPARE(imported.model.seqLen, 163840);
        preset.name = imported.model.name;
        preset.seqLen = imported.model.seqLen;
        QVERIFY(imported.model == preset);
        QVERIFY(mentions(imported.notes, "multi-token-prediction"));
        // Node-limited routing: n_group 8, topk_group 4 (the preset carries the same).
        QCOMPARE(imported.model.moe->expertGroups, 8);
        QCOMPARE(imported.model.moe->groupsPerToken, 4);
        // Multi-head latent attention from kv_lora_rank, q_lora_rank and the three head widths.
        QVERIFY(imported.model.mla == (MlaConfig {512, 1536, 128, 64, 128}));
        // num_nextn_predict_layers 1: the module its pre-training ran, as the preset has it (docs/methods-model.md §2).
        QCOMPARE(imported.model.mtpLayers, 1);
        QCOMPARE(countParameters(imported.model).total, 682'636'472'320.0);
        // 671B published: the main model without the module.
        imported.model.mtpLayers = 0;
        QCOMPARE(countParameters(imported.model).total, 671'026'404'352.0);
    }

    /// configuration_deepseek.py's defaults apply to missing fields, and a null q_lora_rank means no query latent
    /// (DeepSeek-V2-Lite); num_key_value_heads gives way to one key and value per head.
    void deepSeekLatentAttentionDefaults()
    {
        const std::string base = R"({"model_type": "deepseek_v2", "num_hidden_layers": 27, "hidden_size": 2048,
            "num_attention_heads": 16, "num_key_value_heads": 8, "intermediate_size": 10944, "vocab_size": 102400,
            "max_position_embeddings": 163840, "n_routed_experts": 64, "num_experts_per_tok": 6,
            "moe_intermediate_size": 1408, "n_shared_experts": 2, "first_k_dense_replace": 1)";
        const HfImport defaults = importHfConfig(base + "}", "lite");
        QVERIFY(defaults.model.mla == (MlaConfig {512, 1536, 128, 64, 128}));
        QCOMPARE(defaults.model.kvHeads, 16);
        QVERIFY(mentions(defaults.notes, "num_key_value_heads"));
        const HfImport lite = importHfConfig(base + R"(, "q_lora_rank": null, "kv_lora_rank": 512})", "lite");
        QCOMPARE(lite.model.mla.qLoraRank, 0);
        QVERIFY(lite.model.mla.enabled());
        // DeepSeek-V2-Lite: 15.7B published.
        QVERIFY(clitest::closeRelative(countParameters(lite.model).total, 15.7e9, 0.01));
    }

    /// Kimi K2 ships DeepSeek-V3's architecture (DeepseekV3ForCausalLM) under model_type "kimi_k2": 64 latent-attention
    /// heads, 384 experts of 2,048 (top-8) + 1 shared, the first layer dense; Moonshot's model card: 1 T total, 32 B
    /// activated (the technical report: 1.04 T).
    void kimiK2ReadsAsDeepSeek()
    {
        const ModelConfig m = importFile("kimi-k2.json").model;
        QVERIFY(m.mla == (MlaConfig {512, 1536, 128, 64, 128}));
        QCOMPARE(m.moe->experts, 384);
        QCOMPARE(moeLayerCount(m), 60);
        QCOMPARE(m.moe->expertGroups, 0); // n_group 1: no group-limited routing
        QCOMPARE(m.mtpLayers, 0); // num_nextn_predict_layers 0: no multi-token-prediction module
        const auto counts = countParameters(m);
        QVERIFY2(clitest::closeRelative(counts.total, 1.04e12, 0.02), std::to_string(counts.total).c_str());
        QVERIFY2(clitest::closeRelative(counts.active, 32e9, 0.03), std::to_string(counts.active).c_str());
    }

    void deepSeekV2()
    {
        const ModelConfig m = importFile("deepseek-v2.json").model;
        QCOMPARE(m.moe->experts, 160);
        QCOMPARE(m.moe->topK, 6);
        QCOMPARE(m.moe->sharedExperts, 2);
        QCOMPARE(moeLayerCount(m), 59); // first_k_dense_replace = 1
        QCOMPARE(m.moe->expertGroups, 8); // device-limited routing: group_limited_greedy over 3 of 8 groups
        QCOMPARE(m.moe->groupsPerToken, 3);
        // 236B published: 235,741,434,880 with MLA's projections (they had made the full-attention count 1.2% low).
        QCOMPARE(countParameters(m).total, 235'741'434'880.0);
    }

    void qwen2CountsWithoutQkvBias()
    {
        const HfImport imported = importFile("qwen2-7b-instruct.json");
        const ModelConfig& m = imported.model;
        const double qkvBiases = m.layers * (m.hidden + 2.0 * m.kvHeads * (m.hidden / m.heads));
        QVERIFY(mentions(imported.notes, "biases"));
        QCOMPARE(countParameters(m).total + qkvBiases, 7'615'616'512.0);
    }

    void qwen2MoeSharedExpert()
    {
        const HfImport imported = importFile("qwen1.5-moe-a2.7b.json");
        const ModelConfig& m = imported.model;
        QCOMPARE(m.moe->experts, 60);
        QCOMPARE(m.moe->topK, 4);
        QCOMPARE(m.moe->expertFfnHidden, 1408);
        QCOMPARE(m.moe->sharedExperts, 4); // one shared expert of 5632 = 4 × 1408
        QCOMPARE(moeLayerCount(m), 24);
        QVERIFY(clitest::closeRelative(countParameters(m).total, 14.3e9, 0.005));
    }

    void qwen2MoeDenseOnlyLayers()
    {
        std::string text = clitest::readFile(hfFile("qwen1.5-moe-a2.7b.json"));
        text.replace(
            text.find("\"decoder_sparse_step\": 1"), 24, "\"decoder_sparse_step\": 2, \"mlp_only_layers\": [1]");
        const ModelConfig m = importHfConfig(text).model;
        QCOMPARE(moeLayerCount(m), 11); // layers 2, 4, ..., 24 (1-based) less layer index 1
    }

    void gptNeoXRotatesItsPositions()
    {
        const HfImport imported = importFile("gpt-neox-20b.json");
        const ModelConfig& m = imported.model;
        QCOMPARE(m.norm, NormKind::LayerNorm);
        QCOMPARE(m.mlp, MlpKind::Gelu);
        QCOMPARE(m.ropeBase, 10000.0); // rotary_emb_base: no learned positions are counted
        QVERIFY(!hasLearnedPositions(m));
        // use_parallel_residual: a parallel block, whose one norm leaves out the second LayerNorm NeoX keeps per
        // layer (weight and bias: 2 × 6,144), which the notes say.
        QVERIFY(m.parallelBlock);
        QVERIFY(mentions(imported.notes, "LayerNorm per branch"));
        const double secondNorms = 44.0 * 2 * 6144;
        QCOMPARE(countParameters(m).total + secondNorms, 20'554'567'680.0);
        std::string sequential = clitest::readFile(hfFile("gpt-neox-20b.json"));
        sequential.replace(sequential.find("\"use_parallel_residual\": true"), 29, "\"use_parallel_residual\": false");
        QVERIFY(!importHfConfig(sequential).model.parallelBlock);
    }

    void gemma7bHeadDimCounted()
    {
        const HfImport imported = importFile("gemma-7b.json");
        const ModelConfig& m = imported.model;
        QVERIFY(m.tiedEmbeddings); // GemmaConfig ties by default and the file does not say otherwise
        // 16 heads of 256 are 4,096 wide against a hidden size of 3,072: Q, K, V and O are 4 × hidden × 4,096.
        QCOMPARE(m.headDim, 256);
        QCOMPARE(queryWidth(m), 4096.0);
        QCOMPARE(countParameters(m).total, 8'537'680'896.0); // published for the release
        QVERIFY(!mentions(imported.notes, "head_dim"));
    }

    void qwen3MoeCountsItsWideHeads()
    {
        // Qwen3-30B-A3B: 32 heads of 128 over hidden 2,048, 128 experts of 768, top-8, no shared expert.
        // 30,532,122,624 in the release's safetensors, the per-head q_norm / k_norm weights (2 × 128 × 48) with them.
        const HfImport imported = importFile("qwen3-30b-a3b.json");
        const ModelConfig& m = imported.model;
        QCOMPARE(m.headDim, 128);
        QVERIFY(m.moe.has_value());
        QCOMPARE(m.moe->sharedExperts, 0);
        QCOMPARE(moeLayerCount(m), 48);
        QVERIFY(m.qkNorm);
        QCOMPARE(countParameters(m).total, 30'532'122'624.0);
        QVERIFY(!importFile("llama-3.2-1b.json").model.qkNorm); // Llama has none
    }

    void headDimEqualToHiddenOverHeadsStaysImplicit()
    {
        // Llama 3.2 1B states head_dim 64 = 2,048 / 32: the model keeps 0, so its scenario reads as before.
        const ModelConfig m = importFile("llama-3.2-1b.json").model;
        QCOMPARE(m.headDim, 0);
        QCOMPARE(headDim(m), 64.0);
    }

    void errorsNameTheField_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("missing layers") << QString::fromStdString(llamaWith("num_hidden_layers", ""))
                                        << "num_hidden_layers: is missing";
        QTest::newRow("string hidden") << QString::fromStdString(llamaWith("hidden_size", "\"hidden_size\": \"big\","))
                                       << "hidden_size";
        QTest::newRow("zero heads") << QString::fromStdString(
            llamaWith("num_attention_heads", "\"num_attention_heads\": 0,"))
                                    << "num_attention_heads";
        QTest::newRow("unknown type") << QString::fromStdString(llamaWith("model_type", "\"model_type\": \"bert\","))
                                      << "model_type: unsupported value \"bert\"";
        QTest::newRow("no type") << QString::fromStdString(llamaWith("model_type", "")) << "model_type: is missing";
        QTest::newRow("mixtral no experts")
            << QString::fromStdString(clitest::readFile(hfFile("mixtral-8x7b-v0.1.json")))
                   .replace(QStringLiteral("\"num_local_experts\": 8,"), QString())
            << "num_local_experts: is missing";
        QTest::newRow("kv not dividing") << QString::fromStdString(
            llamaWith("num_key_value_heads", "\"num_key_value_heads\": 5,"))
                                         << "num_key_value_heads: 5";
        QTest::newRow("not json") << "{ nope"
                                  << "not valid JSON";
    }
    void errorsNameTheField()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        try {
            importHfConfig(text.toStdString());
            QFAIL("no error");
        } catch (const HfConfigError& error) {
            QVERIFY2(QString::fromUtf8(error.what()).contains(expected), error.what());
        }
    }

    void replaceModelKeepsTrainingSequence()
    {
        ModelConfig current = modelPreset("Llama 3 8B");
        current.seqLen = 4096;
        const HfImport gpt2 = importFile("gpt2.json");
        QCOMPARE(hf::replaceModel(current, gpt2).seqLen, 1024); // capped at n_positions
        QCOMPARE(hf::replaceModel(current, importFile("llama-3.1-8b.json")).seqLen, 4096);
    }

    void estimateReportsImportedParams()
    {
        const std::string cases = hfFile("llama-case.json");
        const auto result = clitest::run({"estimate", "--case", cases, "--hf-config", hfFile("llama-3.1-8b.json")});
        QVERIFY2(result.code == 0, result.err.c_str());
        const auto list = nlohmann::json::parse(result.out);
        QVERIFY(!list.empty());
        for (const auto& entry : list)
            QCOMPARE(entry.at("params").get<double>(), 8'030'261'248.0);
    }

    /// What an import approximates is said on the command line too (stderr; stdout stays the JSON).
    void commandsSayWhatTheImportApproximated()
    {
        const std::string cases = hfFile("llama-case.json");
        const std::string neox = hfFile("gpt-neox-20b.json");

        // GPT-NeoX-20B does not fit the case's GPUs: the sweep fails, and says the notes all the same.
        for (const char* command : {"estimate", "sweep"}) {
            const auto result = clitest::run({command, "--case", cases, "--hf-config", neox});
            QVERIFY2(result.err.find("note: " + neox + ": GPT-NeoX's parallel block keeps a LayerNorm per branch")
                    != std::string::npos,
                result.err.c_str());
            QVERIFY(result.out.find("note: ") == std::string::npos);
        }
        QCOMPARE(clitest::run({"estimate", "--case", cases, "--hf-config", neox}).code, 0);
    }

    void estimateNamesBadHfFile()
    {
        const std::string cases = hfFile("llama-case.json");
        const auto result = clitest::run({"estimate", "--case", cases, "--hf-config", hfFile("nonexistent.json")});
        QVERIFY(result.code != 0);
        QVERIFY(result.err.find("nonexistent.json") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestHfConfig)
#include "tst_hfconfig.moc"
