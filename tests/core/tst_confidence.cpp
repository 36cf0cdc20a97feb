// SPDX-License-Identifier: GPL-3.0-or-later
// Confidence bands (core/validation/confidence.h): nearest-family lookup, pooling, scale warnings, the generated
// table's round trip, and that the compiled-in table is what the validation reports give today.
#include "core/io/validationcase.h"
#include "core/model/modelpresets.h"
#include "core/validation/confidence.h"

#include <QTest>

#include <fstream>
#include <sstream>

using namespace clusterplanner::core;

namespace {

ConfidenceEntry entry(const std::string& framework, const std::string& gpuFamily, std::vector<double> errors,
    int minGpus, int maxGpus, const std::string& basis = "throughput")
{
    ConfidenceEntry e;
    e.family.framework = framework;
    e.family.gpuFamily = gpuFamily;
    e.basis = basis;
    e.errorsPercent = std::move(errors);
    e.minGpus = minGpus;
    e.maxGpus = maxGpus;
    return e;
}

Scenario scenarioOn(Framework framework, const std::string& gpu, int gpus)
{
    Scenario s;
    s.training.framework = framework;
    s.cluster.gpuId = gpu;
    s.cluster.gpuCount = gpus;
    return s;
}

/// Whether a band's statement says the text; the statement itself is the failure message.
bool says(const ConfidenceBand& band, const std::string& text)
{
    return band.statement.find(text) != std::string::npos;
}

std::string readFile(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace

class TestConfidence : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void exactFamilyIsUsed()
    {
        const std::vector<ConfidenceEntry> table {
            entry("megatron", "Hopper", {-10, 2, 4}, 8, 512), entry("torchtitan", "Hopper", {30, 40}, 8, 64)};
        const auto bands = confidenceBands(scenarioOn(Framework::Megatron, "H100-SXM-80GB", 64), table);
        QCOMPARE(bands.size(), std::size_t(2));
        const ConfidenceBand& b = bands[0];
        QCOMPARE(b.match, BandMatch::Family);
        QCOMPARE(b.runs, 3);
        QCOMPARE(b.signedMedianPercent, 2.0);
        QCOMPARE(b.medianAbsPercent, 4.0);
        QCOMPARE(b.p90AbsPercent, 10.0); // nearest rank: ceil(0.9 · 3) = 3rd of 2, 4, 10
        QVERIFY(!b.outsideScale);
        QVERIFY(b.statement.find("megatron · Hopper · dense") != std::string::npos);
        // No memory entries at all: the memory band says so rather than inventing one.
        QCOMPARE(bands[1].runs, 0);
        QVERIFY(bands[1].statement.find("no error band") != std::string::npos);
    }

    /// A GPU the catalog does not know gets no prediction, and so no band (nor the name of the fallback family).
    void unknownGpuHasNoBand()
    {
        const std::vector<ConfidenceEntry> table {entry("megatron", "Hopper", {-10, 2, 4}, 8, 512)};
        QVERIFY(confidenceBands(scenarioOn(Framework::Megatron, "H100", 64), table).empty());
        QCOMPARE(confidenceBands(scenarioOn(Framework::Megatron, "H100-SXM-80GB", 64), table).size(), std::size_t(2));
    }

    void nearestFallsBackToGenerationThenFrameworkThenPool()
    {
        const std::vector<ConfidenceEntry> table {entry("megatron", "Hopper", {-10, 2, 4}, 8, 512),
            entry("nemo", "Hopper", {6}, 8, 8), entry("torchtitan", "Ampere", {-8, -12}, 64, 64)};
        // DeepSpeed on H100: nothing of its own, so every framework on Hopper is pooled.
        const auto generation = confidenceBands(scenarioOn(Framework::DeepSpeed, "H100-SXM-80GB", 64), table)[0];
        QCOMPARE(generation.match, BandMatch::Generation);
        QCOMPARE(generation.runs, 4);
        QVERIFY2(generation.statement.find("(deepspeed · Hopper · dense itself is not validated)") != std::string::npos,
            generation.statement.c_str());
        // TorchTitan on B200: not validated on Blackwell, its Ampere runs are the nearest.
        const auto framework = confidenceBands(scenarioOn(Framework::TorchTitan, "B200", 64), table)[0];
        QCOMPARE(framework.match, BandMatch::Framework);
        QCOMPARE(framework.runs, 2);
        QCOMPARE(framework.signedMedianPercent, -10.0);
        // Hugging Face on MI300X: nothing near; the statement says it is outside anything validated.
        const auto none = confidenceBands(scenarioOn(Framework::HuggingFace, "MI300X", 8), table)[0];
        QCOMPARE(none.match, BandMatch::Unvalidated);
        QVERIFY(none.statement.find("outside anything validated") != std::string::npos);
    }

    void familyWithTooFewRunsIsWidenedToItsGeneration()
    {
        // One NeMo run at +0.4 %: its own "band" would read ±0 %. The band pools every Hopper framework instead and
        // says what the family's own run showed.
        const std::vector<ConfidenceEntry> table {
            entry("megatron", "Hopper", {-10, 2, 4, 30}, 8, 512), entry("nemo", "Hopper", {0.4}, 64, 64)};
        const auto widened = confidenceBands(scenarioOn(Framework::NeMo, "H100-SXM-80GB", 64), table)[0];
        QCOMPARE(widened.match, BandMatch::Generation);
        QCOMPARE(widened.runs, 5);
        QCOMPARE(widened.familyRuns, 1);
        QCOMPARE(widened.familySignedMedianPercent, 0.4);
        QCOMPARE(widened.medianAbsPercent, 4.0);
        QVERIFY2(widened.statement.find("nemo · Hopper · dense has 1 validated run of its own, bias +0 %: too few")
                != std::string::npos,
            widened.statement.c_str());
        QVERIFY(widened.statement.find("Few runs") == std::string::npos);
        // A family with three runs keeps its own band.
        const auto own = confidenceBands(scenarioOn(Framework::Megatron, "H100-SXM-80GB", 64), table)[0];
        QCOMPARE(own.match, BandMatch::Family);
        QCOMPARE(own.familyRuns, 0);
        // Nothing else on the generation: the family's two runs stay its band, called weak.
        const std::vector<ConfidenceEntry> alone {entry("nemo", "Hopper", {1, 3}, 8, 8)};
        const auto weak = confidenceBands(scenarioOn(Framework::NeMo, "H100-SXM-80GB", 8), alone)[0];
        QCOMPARE(weak.match, BandMatch::Family);
        QVERIFY(weak.statement.find("Few runs: a weak band.") != std::string::npos);
    }

    void scaleBeyondTheValidatedRangeIsFlagged()
    {
        const std::vector<ConfidenceEntry> table {entry("megatron", "Hopper", {1, 2, 3}, 8, 512)};
        QVERIFY(!confidenceBands(scenarioOn(Framework::Megatron, "H100-SXM-80GB", 1024), table)[0].outsideScale);
        const auto far = confidenceBands(scenarioOn(Framework::Megatron, "H100-SXM-80GB", 16384), table)[0];
        QVERIFY(far.outsideScale);
        QVERIFY(far.statement.find("16384 GPUs") != std::string::npos);
        QVERIFY(confidenceBands(scenarioOn(Framework::Megatron, "H100-SXM-80GB", 2), table)[0].outsideScale);
    }

    void generatedTableRoundTrips()
    {
        ValidationReport report;
        ValidationRow row;
        row.id = "a";
        row.quantity = "step_time_s";
        row.predicted = 2.0; // predicted twice as slow: a tokens/s error of -50 %
        row.measured = 1.0;
        row.errorPercent = 100;
        row.family = {"megatron", "Ampere", false, 64, ModelShape {24, 2048, 16, 16, 8192}, "GPT 1.3B"};
        report.rows.push_back(row);
        row.id = "b"; // the same model under another name and framework: one model row
        row.family = {"deepspeed", "Ampere", false, 8, ModelShape {24, 2048, 16, 16, 8192}, "GPT-3 XL"};
        report.rows.push_back(row);
        const ConfidenceTable table = parseConfidenceTable(confidenceTableJson({report}, "test"));
        QCOMPARE(table.families.size(), std::size_t(2));
        QCOMPARE(table.families[0].basis, std::string("throughput"));
        QCOMPARE(table.families[0].errorsPercent, std::vector<double> {-50.0});
        QCOMPARE(table.families[0].minGpus, 8);
        QCOMPARE(table.models.size(), std::size_t(1));
        const ModelErrors& model = table.models[0];
        QCOMPARE(model.names, (std::vector<std::string> {"GPT 1.3B", "GPT-3 XL"}));
        QVERIFY(model.shape == (ModelShape {24, 2048, 16, 16, 8192}));
        QCOMPARE(model.gpuFamily, std::string("Ampere"));
        QCOMPARE(model.frameworks, (std::vector<std::string> {"deepspeed", "megatron"}));
        QCOMPARE(model.errorsPercent, (std::vector<double> {-50.0, -50.0}));
    }

    void modelsOwnRunsAreNamedBesideTheBand()
    {
        // The family's runs read within a few percent; this model's one run on the generation reads +34 %. The band
        // stays the family's, and the statement says that it may understate this model's error.
        const ModelConfig gptOss = modelPreset("GPT-OSS-120B");
        ConfidenceTable table {{entry("megatron", "Hopper", {-10, -4, -2, 3}, 32, 256)}};
        table.families[0].family.moe = true;
        table.models.push_back({modelShape(gptOss), {"GPT-OSS-120B"}, "Hopper", "throughput", {"nemo"}, {34}});
        table.models.push_back({modelShape(gptOss), {"GPT-OSS-120B"}, "Blackwell", "throughput", {"nemo"}, {74, 66}});
        Scenario s = scenarioOn(Framework::Megatron, "H100-SXM-80GB", 64);
        s.model = gptOss;
        const ConfidenceBand band = confidenceBands(s, table)[0];
        QCOMPARE(band.match, BandMatch::Family);
        QCOMPARE(band.runs, 4);
        QCOMPARE(band.modelRuns, 1); // the Blackwell runs are another generation's
        QCOMPARE(band.modelSignedMedianPercent, 34.0);
        QVERIFY2(says(band,
                     "This model's one validated run on Hopper (as GPT-OSS-120B; nemo) reads +34 %, beyond the band's "
                     "p90: for this model the band above may understate the error."),
            band.statement.c_str());
        // On Blackwell both runs are named, with their range.
        s.cluster.gpuId = "B200";
        const ConfidenceBand blackwell = confidenceBands(s, table)[0];
        QCOMPARE(blackwell.modelRuns, 2);
        QVERIFY2(
            says(blackwell, "2 validated runs on Blackwell (as GPT-OSS-120B; nemo) read +66 % … +74 %, median +70 %"),
            blackwell.statement.c_str());
        // Another model of the family: no model sentence. A model within the band: named, not flagged.
        s.cluster.gpuId = "H100-SXM-80GB";
        s.model = modelPreset("Qwen3-235B-A22B");
        QCOMPARE(confidenceBands(s, table)[0].modelRuns, 0);
        QVERIFY(confidenceBands(s, table)[0].statement.find("This model") == std::string::npos);
        table.models.push_back({modelShape(s.model), {"Qwen3-235B-A22B"}, "Hopper", "throughput", {"nemo"}, {-1, 2}});
        const ConfidenceBand within = confidenceBands(s, table)[0];
        QCOMPARE(within.modelRuns, 2);
        QVERIFY(within.statement.find("This model's 2 validated runs") != std::string::npos);
        QVERIFY(within.statement.find("beyond") == std::string::npos);
    }

    void builtinTableNamesGptOssOwnRuns()
    {
        // The shipped table: GPT-OSS-120B planned under Megatron on H100 names its own checked run, which the
        // megatron · Hopper · MoE band does not cover (docs/methods-time.md §4.8).
        Scenario s = scenarioOn(Framework::Megatron, "H100-SXM-80GB", 64);
        s.model = modelPreset("GPT-OSS-120B");
        const ConfidenceBand band = confidenceBands(s)[0];
        QVERIFY(band.modelRuns >= 1);
        QVERIFY2(std::abs(band.modelSignedMedianPercent) > band.p90AbsPercent, band.statement.c_str());
        QVERIFY(says(band, "may understate the error"));
    }

    void badTableNamesTheField()
    {
        try {
            parseConfidenceTable(R"({"families": [{"framework": "megatron", "gpu_family": "Hopper", "moe": false,
                "basis": "speed", "errors_percent": [], "min_gpus": 1, "max_gpus": 1}]})");
            QFAIL("an unknown basis must be refused");
        } catch (const std::runtime_error& error) {
            QVERIFY(std::string(error.what()).find("families[0].basis") != std::string::npos);
        }
        try {
            parseConfidenceTable(R"({"families": [], "models": [{"names": ["M"], "gpu_family": "Hopper",
                "basis": "throughput", "layers": 2, "hidden": 8, "heads": 1, "kv_heads": 1, "dense_ffn": 32,
                "mlp": "gelu", "padded_vocab": 1024, "experts": 0, "shared_experts": 0, "expert_ffn": 0,
                "moe_layers": 0, "frameworks": [], "errors_percent": [1]}]})");
            QFAIL("a model row without top_k must be refused");
        } catch (const std::runtime_error& error) {
            QVERIFY2(std::string(error.what()).find("models[0]") != std::string::npos, error.what());
            QVERIFY2(std::string(error.what()).find("top_k") != std::string::npos, error.what());
        }
        try {
            parseConfidenceTable(R"({"families": [], "models": {}})");
            QFAIL("models must be an array");
        } catch (const std::runtime_error& error) {
            QVERIFY2(std::string(error.what()).find("models: an array") != std::string::npos, error.what());
        }
        QVERIFY(parseConfidenceTable(R"({"families": []})").models.empty()); // a version 1 file: no model rows
    }

    void modelShapeTellsModelsApart()
    {
        const ModelConfig llama = modelPreset("Llama 3 8B");
        ModelConfig other = llama;
        other.name = "Llama-3.1-8B";
        other.seqLen = 131072;
        QVERIFY(modelShape(other) == modelShape(llama)); // names and sequence length do not tell models apart
        other.ffnHidden = 11008;
        QVERIFY(!(modelShape(other) == modelShape(llama))); // a dense FFN does
        other = llama;
        other.mlp = MlpKind::Gelu;
        QVERIFY(!(modelShape(other) == modelShape(llama)));
        // The vocabulary as padded to a multiple of 1,024: GPT-2's 50,257 is Megatron's 51,200, not 131,072.
        ModelConfig gpt = modelPreset("GPT-3 175B");
        ModelConfig padded = gpt;
        padded.vocab = 51200;
        QVERIFY(modelShape(padded) == modelShape(gpt));
        padded.vocab = 131072;
        QVERIFY(!(modelShape(padded) == modelShape(gpt)));
        // All-MoE: the FFN field and "0 MoE layers" vs "every layer" say nothing; a DeepSeek-style mix keeps both.
        ModelConfig qwen = modelPreset("Qwen3-235B-A22B");
        ModelConfig written = qwen;
        written.ffnHidden = written.moe->expertFfnHidden;
        written.moe->moeLayers = written.layers;
        QVERIFY(modelShape(written) == modelShape(qwen));
        written.moe->sharedExperts = 1;
        QVERIFY(!(modelShape(written) == modelShape(qwen)));
        const ModelConfig deepseek = modelPreset("DeepSeek-V3");
        QCOMPARE(modelShape(deepseek).denseFfn, deepseek.ffnHidden);
        QCOMPARE(modelShape(deepseek).moeLayers, deepseek.moe->moeLayers);
    }

    void builtinTableIsTheReportsOfToday()
    {
        // data/confidence.json is generated, never typed: regenerating it from the two sets gives the same text.
        const std::string data = CLUSTERPLANNER_DATA_DIR;
        const auto load = [&](const std::string& cases, const std::string& truth) {
            return buildValidationReport(
                readValidationCases(readFile(data + cases)), readValidationTruths(readFile(data + truth)));
        };
        const std::string producedBy = "clusterplanner validate --cases data/validation/dev_cases.json --truth "
                                       "data/validation/dev_truth.json --check-cases data/checks/cases.json "
                                       "--check-truth data/checks/truth.json --confidence-table";
        const std::string regenerated
            = confidenceTableJson({load("/validation/dev_cases.json", "/validation/dev_truth.json"),
                                      load("/checks/cases.json", "/checks/truth.json")},
                producedBy);
        QCOMPARE(regenerated, readFile(data + "/confidence.json"));
    }
};

QTEST_APPLESS_MAIN(TestConfidence)
#include "tst_confidence.moc"
