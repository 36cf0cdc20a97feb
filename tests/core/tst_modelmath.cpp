// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/modelmath.h"
#include "core/model/modelpresets.h"

#include <QTest>

#include <cmath>

using namespace clusterplanner::core;

namespace {

ModelConfig llama(int layers, int hidden, int heads, int kvHeads, int ffn, int vocab)
{
    return ModelConfig {"llama", layers, hidden, heads, kvHeads, ffn, vocab, 8192, MlpKind::SwiGlu, NormKind::RmsNorm,
        false, std::nullopt};
}

ModelConfig gpt(int layers, int hidden, int heads, int vocab, int seq)
{
    return ModelConfig {"gpt", layers, hidden, heads, heads, 4 * hidden, vocab, seq, MlpKind::Gelu, NormKind::LayerNorm,
        true, std::nullopt};
}

/// DeepSeek-V3 (arXiv 2412.19437 §2.1.1 and §4.2; config.json): 61 layers, the first 3 dense, 58 MoE layers of 256
/// experts of 2,048 (top-8) + 1 shared; MLA of 128 heads with a 1,536 query latent, a 512 key/value latent, query/key
/// heads of 128 + 64 rotary and value heads of 128; 4,096 tokens; no multi-token-prediction module.
ModelConfig deepSeekV3()
{
    ModelConfig m = llama(61, 7168, 128, 128, 18432, 129280);
    m.seqLen = 4096;
    m.moe = MoeConfig {256, 8, 2048, 1, 58, 1.0};
    m.mla = MlaConfig {512, 1536, 128, 64, 128};
    return m;
}

} // namespace

class TestModelMath : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void exactParameterCounts_data()
    {
        QTest::addColumn<double>("expected");
        QTest::addColumn<double>("actual");
        // docs/methods-test-values.md §11 items 1-3
        QTest::newRow("llama3-8b") << 8'030'261'248.0 << countParameters(llama(32, 4096, 32, 8, 14336, 128256)).total;
        QTest::newRow("llama3-70b") << 70'553'706'496.0 << countParameters(llama(80, 8192, 64, 8, 28672, 128256)).total;
        QTest::newRow("llama3-405b") << 405'853'388'800.0
                                     << countParameters(llama(126, 16384, 128, 8, 53248, 128256)).total;
        QTest::newRow("gpt3-50257") << 174'604'259'328.0 << countParameters(gpt(96, 12288, 96, 50257, 2048)).total;
        QTest::newRow("gpt3-51200") << 174'615'846'912.0 << countParameters(gpt(96, 12288, 96, 51200, 2048)).total;
    }

    void exactParameterCounts()
    {
        QFETCH(double, expected);
        QFETCH(double, actual);
        QCOMPARE(actual, expected);
    }

    void mixtralTotalAndActive()
    {
        ModelConfig m = llama(32, 4096, 32, 8, 14336, 32000);
        m.moe = MoeConfig {8, 2, 14336, 0, 0, 1.0};
        const auto counts = countParameters(m);
        QCOMPARE(counts.total, 46'702'792'704.0);
        QCOMPARE(counts.active, 12'879'925'248.0);
        QCOMPARE(counts.moeLayers, 32);
        QCOMPARE(counts.denseLayers, 0);
        // EP splits the routed experts alone: 8 SwiGLU experts of 3 · 4096 · 14336; the router (4096 × 8) stays whole.
        QCOMPARE(counts.routedExpertsPerMoeLayer, 8 * 3.0 * 4096 * 14336);
        QCOMPARE(counts.expertsPerMoeLayer - counts.routedExpertsPerMoeLayer, 4096.0 * 8);
    }

    /// A parallel block's attention and MLP share one norm: one norm's weights (and LayerNorm's biases) fewer per
    /// layer; the matrices are the same (PaLM §2, "Parallel Layers").
    void parallelBlockHasOneNormPerLayer()
    {
        const ModelConfig sequential = modelPreset("GPT-3 175B"); // LayerNorm: weight and bias
        ModelConfig parallel = sequential;
        parallel.parallelBlock = true;
        const ParameterCounts a = countParameters(sequential), b = countParameters(parallel);
        QCOMPARE(a.normsPerLayer - b.normsPerLayer, 2.0 * sequential.hidden);
        QCOMPARE(a.total - b.total, 2.0 * sequential.hidden * sequential.layers);
        QCOMPARE(a.attentionPerLayer, b.attentionPerLayer);
        QCOMPARE(a.denseMlpPerLayer, b.denseMlpPerLayer);
    }

    void headDimWidensAttention()
    {
        // Qwen3-30B-A3B: 32 query heads and 4 KV heads of 128 over a hidden size of 2,048 (its config.json). Qwen
        // publishes 29.9B non-embedding parameters; with heads of hidden / heads = 64 the count would be 29.46B.
        ModelConfig m = llama(48, 2048, 32, 4, 6144, 151936);
        m.moe = MoeConfig {128, 8, 768, 0, 0, 1.0};
        m.headDim = 128;
        const auto counts = countParameters(m);
        const double nonEmbedding = counts.total - counts.embedding - counts.head;
        QVERIFY2(std::abs(nonEmbedding - 29.9e9) < 0.05e9, std::to_string(nonEmbedding).c_str());
        QCOMPARE(counts.attentionPerLayer, 2048.0 * (4096 + 2 * 512) + 4096.0 * 2048);
        // The score term follows the query width, heads × head_dim, not the hidden size.
        QCOMPARE(attentionFlopsPerToken(m), 12.0 * 48 * 8192 * 4096);
        m.headDim = 0;
        QCOMPARE(attentionFlopsPerToken(m), 12.0 * 48 * 8192 * 2048);
        QVERIFY(countParameters(m).total - counts.total < -0.4e9);
    }

    void latentAttentionCountsDeepSeekV3()
    {
        // The paper: 671B total, 37B activated.
        ModelConfig m = deepSeekV3();
        const auto counts = countParameters(m);
        // Per layer: q 7168·1536 + 1536·128·192, kv 7168·(512 + 64) + 512·128·(128 + 128), o 128·128·7168.
        QCOMPARE(counts.attentionPerLayer, 187'105'280.0);
        QCOMPARE(counts.normsPerLayer, 2 * 7168.0 + 1536 + 512); // the two latent RMSNorms
        QCOMPARE(counts.total, 671'026'404'352.0);
        QCOMPARE(counts.active, 37'552'282'624.0);
        // The shared expert is held like the attention, not split by EP: router 7168 × 256 + one expert of 2,048.
        QCOMPARE(counts.routedExpertsPerMoeLayer, 256 * 3.0 * 7168 * 2048);
        QCOMPARE(counts.expertsPerMoeLayer - counts.routedExpertsPerMoeLayer, 7168.0 * 256 + 3.0 * 7168 * 2048);
        // Scores over 128 × 192, weighted values over 128 × 128: 6·L·s·(h_q + h_o).
        QCOMPARE(attentionFlopsPerToken(m), 6.0 * 61 * 4096 * (128 * 192 + 128 * 128));
        QCOMPARE(queryWidth(m), 128.0 * 192);
        QCOMPARE(kvWidth(m), 128.0 * 192);
        QCOMPARE(valueWidth(m), 128.0 * 128);
        QCOMPARE(attentionOutputWidth(m), 128.0 * 128);
        // Without a query latent (DeepSeek-V2-Lite) the queries come straight from the hidden state.
        m.mla.qLoraRank = 0;
        QCOMPARE(countParameters(m).attentionPerLayer,
            187'105'280.0 - 7168.0 * 1536 - 1536.0 * 128 * 192 + 7168.0 * 128 * 192);
        QCOMPARE(countParameters(m).normsPerLayer, 2 * 7168.0 + 512);
        // Off, the same model is 128 full heads of 7168 / 128 = 56 channels, as the engine counted it before.
        m.mla = {};
        QCOMPARE(countParameters(m).attentionPerLayer, 4.0 * 7168 * 7168);
        QCOMPARE(attentionFlopsPerToken(m), 12.0 * 61 * 4096 * 7168);
    }

    void multiTokenPredictionCountsALayerAProjectionAndAHeadPass()
    {
        // DeepSeek-V3's MTP module (arXiv 2412.19437 §2.2): one MoE layer like the last, a 2h → h projection and three
        // RMSNorms; the embedding and the head are shared. Hugging Face's 685B adds the module's own copies of both.
        ModelConfig m = deepSeekV3();
        const auto without = countParameters(m);
        const double flopsWithout = modelFlopsPerToken(m);
        m.mtpLayers = 1;
        const auto with = countParameters(m);
        QCOMPARE(with.moeLayers, 59);
        QCOMPARE(with.denseLayers, 3);
        QCOMPARE(with.mtpLayers, 1);
        QCOMPARE(with.mtpMoeLayers, 1); // the model's last kind
        QCOMPARE(with.mtpExtras, 2.0 * 7168 * 7168 + 3 * 7168);
        QCOMPARE(with.total - without.total, without.moeLayerTotal() + with.mtpExtras);
        QCOMPARE(with.total, 682'636'472'320.0);
        QCOMPARE(with.total + 2.0 * 129280 * 7168, 684'489'830'400.0); // the checkpoint's "685B"
        // Megatron-LM's count: one more MoE layer (its attention's score term too), the projection and the logits
        // twice. At 4,096 tokens, causal, that is about 10.2 GFLOP per token on top of its 249.4.
        const double activeMoeLayer
            = 187'105'280.0 + 9 * 3.0 * 7168 * 2048 + 7168.0 * 256; // attention, 8 + 1 experts, router
        QCOMPARE(with.matmulActiveLayers - without.matmulActiveLayers, activeMoeLayer);
        QCOMPARE(with.matmulActive - without.matmulActive, activeMoeLayer + 2.0 * 7168 * 7168 + 129280.0 * 7168);
        const double attentionPerLayer = 6.0 * 4096 * (128 * 192 + 128 * 128);
        QCOMPARE(attentionFlopsPerToken(m), 62 * attentionPerLayer);
        const double addedCausal = modelFlopsPerToken(m) - flopsWithout - attentionPerLayer / 2;
        QVERIFY2(std::abs(addedCausal - 10.2e9) < 0.1e9, QByteArray::number(addedCausal / 1e9).constData());
        // A dense model's module is a dense layer.
        ModelConfig dense = llama(32, 4096, 32, 8, 14336, 128256);
        dense.mtpLayers = 2;
        QCOMPARE(countParameters(dense).denseLayers, 34);
        QCOMPARE(countParameters(dense).moeLayers, 0);
        QCOMPARE(countParameters(dense).mtpMoeLayers, 0);
        QCOMPARE(transformerLayers(dense), 34);
    }

    void gptFormulaHolds()
    {
        // Ψ = 12·L·h² + 13·L·h + (V + s)·h + 2h for tied GPT (docs/methods-model.md §2).
        const double L = 24, h = 2048, V = 50257, s = 1024;
        QCOMPARE(
            countParameters(gpt(24, 2048, 16, 50257, 1024)).total, 12 * L * h * h + 13 * L * h + (V + s) * h + 2 * h);
    }

    void flopsPerToken()
    {
        // docs/methods-test-values.md §11 item 8: Llama 3 8B, s 8192: 6·N = 4.818e10 with N the total count, attention
        // term 12·L·s·h = 1.288e10. N_mm leaves out the input embedding (V·h) and the norms.
        const auto m = llama(32, 4096, 32, 8, 14336, 128256);
        const auto counts = countParameters(m);
        QVERIFY(std::abs(6 * counts.total / 4.818e10 - 1) < 1e-3);
        QCOMPARE(counts.matmulActive, counts.total - 128256.0 * 4096 - (2 * 32 + 1) * 4096.0);
        QVERIFY(std::abs(attentionFlopsPerToken(m) / 1.288e10 - 1) < 1e-3);
    }

    void korthikantiMfu_data()
    {
        QTest::addColumn<int>("heads");
        QTest::addColumn<int>("hidden");
        QTest::addColumn<int>("layers");
        QTest::addColumn<int>("batch");
        QTest::addColumn<int>("gpus");
        QTest::addColumn<double>("seconds");
        QTest::addColumn<double>("mfu");
        QTest::addColumn<double>("hfu");
        // docs/methods-test-values.md §11 item 5 (K22 Table 5, A100 312 TFLOP/s, s 2048, V 51200)
        QTest::newRow("22B") << 64 << 6144 << 48 << 4 << 8 << 1.10 << 41.65 << 43.81;
        QTest::newRow("175B") << 96 << 12288 << 96 << 64 << 64 << 13.75 << 51.39 << 52.77;
        QTest::newRow("530B") << 128 << 20480 << 105 << 280 << 280 << 37.83 << 56.05 << 56.96;
    }

    void korthikantiMfu()
    {
        QFETCH(int, heads);
        QFETCH(int, hidden);
        QFETCH(int, layers);
        QFETCH(int, batch);
        QFETCH(int, gpus);
        QFETCH(double, seconds);
        QFETCH(double, mfu);
        QFETCH(double, hfu);
        const auto m = gpt(layers, hidden, heads, 51200, 2048);
        const double tokens = double(batch) * 2048;
        const double peak = gpus * 312e12 * seconds;
        QVERIFY(std::abs(100 * tokens * modelFlopsPerToken(m) / peak - mfu) < 0.2);
        QVERIFY(std::abs(100 * tokens * hardwareFlopsPerToken(m, Recompute::Selective) / peak - hfu) < 0.2);
    }

    void fullRecomputeMatchesNarayananEq3()
    {
        // 96·B·L·s·h²·(1 + s/(6h) + V/(16·h·L)) per iteration, per token divide by B·s.
        const auto m = gpt(96, 12288, 96, 51200, 2048);
        const double L = 96, h = 12288, s = 2048, V = 51200;
        const double expected = 96 * L * h * h * (1 + s / (6 * h) + V / (16 * h * L));
        // Our count excludes biases and norms like the paper; GPT-3 has no other matmul terms.
        QVERIFY(std::abs(hardwareFlopsPerToken(m, Recompute::Full) / expected - 1) < 1e-9);
    }
};

QTEST_GUILESS_MAIN(TestModelMath)
#include "tst_modelmath.moc"
