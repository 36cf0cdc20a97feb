// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/commands.h"
#include "core/validation/casepredictor.h"
#include "core/validation/validationreport.h"
#include "tests/cli/clitesthelpers.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

using namespace clusterplanner::core;
using clitest::readFile;
using namespace clusterplanner::cli;

namespace {

const std::string kCases = CLUSTERPLANNER_DATA_DIR "/validation/dev_cases.json";
const std::string kTruth = CLUSTERPLANNER_DATA_DIR "/validation/dev_truth.json";

const QuantitySummary& summaryOf(const ValidationReport& r, const std::string& quantity)
{
    for (const auto& s : r.summaries)
        if (s.quantity == quantity)
            return s;
    throw std::runtime_error("no summary for " + quantity);
}

/// The external check of that id, as data/checks/cases.json has it.
nlohmann::json checkCase(const std::string& id)
{
    const auto cases = nlohmann::json::parse(readFile(CLUSTERPLANNER_DATA_DIR "/checks/cases.json"));
    for (const auto& c : cases)
        if (c["id"] == id)
            return c;
    throw std::runtime_error("no external check " + id);
}

/// `estimate --case` on one case written to a temporary file: its prediction.
nlohmann::json estimated(const nlohmann::json& c)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("case.json"));
    std::ofstream(path.toStdString()) << c.dump();
    std::ostringstream out, err;
    runCommand({"estimate", "--case", path.toStdString()}, out, err);
    return nlohmann::json::parse(out.str()).at(0);
}

/// `estimate --case --text` on one case: its text.
std::string estimatedText(const nlohmann::json& c)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("case.json"));
    std::ofstream(path.toStdString()) << nlohmann::json::array({c}).dump();
    std::ostringstream out, err;
    runCommand({"estimate", "--case", path.toStdString(), "--text"}, out, err);
    return out.str();
}

/// The built-in efficiency table with one default changed and every family's own value of that key dropped, written to
/// a temporary file: its path (the caller removes the file).
QString efficiencyFileWithDefault(const std::string& key, double value, const char* fileName)
{
    auto document = nlohmann::json::parse(perf::EfficiencyTable::builtinJsonText());
    document["defaults"][key] = value;
    for (auto& family : document["families"])
        family.erase(key);
    const QString path = QDir::temp().filePath(QString::fromLatin1(fileName));
    std::ofstream(path.toStdString()) << document.dump();
    return path;
}

/// The "chosen" object of the case's prediction.
nlohmann::json estimatedChoice(const nlohmann::json& c)
{
    return estimated(c).at("chosen");
}

} // namespace

class TestValidationReport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Issue 3 targets on the development set: median |error| <= 5 %, p90 <= 10 % for peak memory.
    void devSetMemoryErrorMeetsTargets()
    {
        const auto report
            = buildValidationReport(readValidationCases(readFile(kCases)), readValidationTruths(readFile(kTruth)));
        const QuantitySummary& memory = summaryOf(report, "peak_memory_gib");
        QCOMPARE(memory.count, 32);
        QCOMPARE(memory.missing, 0);
        QVERIFY2(memory.medianAbsPercent <= 5.0, qPrintable(QString::number(memory.medianAbsPercent)));
        QVERIFY2(memory.p90AbsPercent <= 10.0, qPrintable(QString::number(memory.p90AbsPercent)));
        QVERIFY2(report.failures.empty(), report.failures.empty() ? "" : report.failures.front().c_str());
    }

    // Issue 4's targets (median <= 7 %, p90 <= 15 %): tokens/s, step time and MFU meet them and are held to them;
    // model TFLOP/s (9 cases, not a target) is held to the committed figure of docs/validation.md (p90 16.3 %) plus
    // a small margin, so that a regression fails.
    void devSetTimeErrorDoesNotRegress_data()
    {
        QTest::addColumn<QString>("quantity");
        QTest::addColumn<int>("count");
        QTest::addColumn<double>("median");
        QTest::addColumn<double>("p90");
        QTest::newRow("tokens/s") << "tokens_per_s_per_gpu" << 66 << 7.0 << 15.0;
        QTest::newRow("step time") << "step_time_s" << 66 << 7.0 << 15.0;
        QTest::newRow("MFU") << "mfu" << 21 << 7.0 << 15.0;
        QTest::newRow("model TFLOP/s") << "model_tflops_per_gpu" << 9 << 7.0 << 17.5;
    }

    void devSetTimeErrorDoesNotRegress()
    {
        QFETCH(QString, quantity);
        QFETCH(int, count);
        QFETCH(double, median);
        QFETCH(double, p90);
        static const auto report
            = buildValidationReport(readValidationCases(readFile(kCases)), readValidationTruths(readFile(kTruth)));
        const QuantitySummary& s = summaryOf(report, quantity.toStdString());
        qInfo("%s: n %d, median %.2f %%, p90 %.2f %%", qPrintable(quantity), s.count, s.medianAbsPercent,
            s.p90AbsPercent);
        QCOMPARE(s.count, count);
        QCOMPARE(s.missing, 0);
        QVERIFY2(s.medianAbsPercent <= median, qPrintable(QString::number(s.medianAbsPercent)));
        QVERIFY2(s.p90AbsPercent <= p90, qPrintable(QString::number(s.p90AbsPercent)));
    }

    void percentilesUseNearestRank()
    {
        QCOMPARE(medianAbs({-3, 1, 2}), 2.0);
        QCOMPARE(medianAbs({1, -2, 3, 4}), 2.5);
        QCOMPARE(percentileAbs({1, 2, 3, 4, 5, 6, 7, 8, 9, -10}, 0.9), 9.0);
        QCOMPARE(percentileAbs({}, 0.9), 0.0);
    }

    void validateCommandPrintsJsonAndMarkdown()
    {
        std::ostringstream out, err;
        QCOMPARE(runCommand({"validate", "--cases", kCases, "--truth", kTruth}, out, err), 0);
        const auto json = nlohmann::json::parse(out.str());
        QCOMPARE(json["summary"][0]["quantity"].get<std::string>(), std::string("peak_memory_gib"));
        QCOMPARE(json["summary"][0]["count"].get<int>(), 32);
        std::ostringstream md;
        QCOMPARE(runCommand({"validate", "--cases", kCases, "--truth", kTruth, "--markdown"}, md, err), 0);
        QVERIFY(md.str().find("| `peak_memory_gib` | 32 |") != std::string::npos);
        QVERIFY(md.str().find("# Validation on the development set") != std::string::npos);
        std::ostringstream titled;
        QCOMPARE(runCommand({"validate", "--cases", kCases, "--truth", kTruth, "--markdown", "--title", "Other set"},
                     titled, err),
            0);
        QVERIFY(titled.str().find("\n# Other set\n") != std::string::npos);
        QVERIFY(titled.str().find("--title \"Other set\"") != std::string::npos); // the command reproduces it
    }

    /// A measured run that the memory model reads as over its GPU is listed with its reserved peak: every measured
    /// run fitted, so each is a memory error seen without a measured peak. The development set's dev cases as they
    /// are, and one of them given a micro-batch it cannot hold.
    void runsReadAsNotFittingAreListed()
    {
        auto cases = readValidationCases(readFile(kCases));
        const auto truths = readValidationTruths(readFile(kTruth));
        const ValidationReport plain = buildValidationReport(cases, truths);
        QCOMPARE(plain.evaluatedCases, int(cases.size()));
        auto crowded = std::find_if(
            cases.begin(), cases.end(), [](const ValidationCase& c) { return c.id == "megatron_core_h100_weak_1p7b"; });
        QVERIFY(crowded != cases.end());
        QVERIFY(std::none_of(plain.notFitting.begin(), plain.notFitting.end(),
            [&](const NotFittingRun& r) { return r.id == crowded->id; }));
        crowded->scenario.training.microBatch *= 64;
        crowded->unknown.microBatch = false;
        const ValidationReport report = buildValidationReport(cases, truths);
        const auto listed = std::find_if(report.notFitting.begin(), report.notFitting.end(),
            [&](const NotFittingRun& r) { return r.id == crowded->id; });
        QVERIFY(listed != report.notFitting.end());
        QVERIFY2(listed->peakReservedGiB > listed->usableGiB && listed->usableGiB > 70,
            qPrintable(QStringLiteral("%1 of %2 GiB").arg(listed->peakReservedGiB).arg(listed->usableGiB)));
        QCOMPARE(report.notFitting.size(), plain.notFitting.size() + 1);
        const std::string md = reportMarkdown(report);
        QVERIFY(md.find("## Runs read as not fitting their GPUs") != std::string::npos);
        QVERIFY(md.find("| `" + crowded->id + "` | ") != std::string::npos);
        QVERIFY(nlohmann::json::parse(reportJson(report))["not_fitting"].size() == report.notFitting.size());
    }

    void externalCheckFilesAreReadable()
    {
        // data/checks holds public measurements outside the development set (docs/external-checks.md): every case
        // must still get a prediction.
        const std::string dir = CLUSTERPLANNER_SOURCE_DIR "/data/checks/";
        const auto truths = readValidationTruths(readFile(dir + "truth.json"));
        const auto report = buildValidationReport(readValidationCases(readFile(dir + "cases.json")), truths);
        QVERIFY2(report.failures.empty(), report.failures.empty() ? "" : report.failures.front().c_str());
        const auto measured = [&](auto field) {
            return int(
                std::count_if(truths.begin(), truths.end(), [&](const auto& t) { return (t.*field).has_value(); }));
        };
        QVERIFY(measured(&ValidationTruth::tokensPerSPerGpu) >= 35);
        QCOMPARE(summaryOf(report, "tokens_per_s_per_gpu").count, measured(&ValidationTruth::tokensPerSPerGpu));
        QCOMPARE(summaryOf(report, "mfu").count, measured(&ValidationTruth::mfu));
        QCOMPARE(summaryOf(report, "tokens_per_s_per_gpu").missing, 0);
    }

    void estimateCommandKeepsStableKeys()
    {
        std::ostringstream out, err;
        QCOMPARE(runCommand({"estimate", "--case", kCases}, out, err), 0);
        const auto list = nlohmann::json::parse(out.str());
        QVERIFY(list.is_array() && list.size() >= 77);
        for (const auto& entry : list) {
            for (const char* key : {"id", "ok", "params", "model_flops_per_token", "step_time_s",
                     "tokens_per_s_per_gpu", "model_tflops_per_gpu", "mfu"})
                QVERIFY2(entry.contains(key), key);
            QVERIFY(entry["ok"].get<bool>());
            for (const char* key : {"fits", "peak_memory_gib", "peak_reserved_gib", "memory_gib", "chosen",
                     "time_breakdown_s", "efficiency"})
                QVERIFY2(entry.contains(key), key);
            QVERIFY(entry["step_time_s"].get<double>() > 0);
            const double tokens = entry["tokens_per_s_per_gpu"].get<double>();
            // tokens/s per GPU = global batch × sequence / step time / GPUs, and MFU = TFLOP/s / peak, consistently.
            const auto& chosen = entry["chosen"];
            const double gpus = chosen["tp"].get<double>() * chosen["pp"].get<double>() * chosen["cp"].get<double>()
                * chosen["dp"].get<double>();
            QVERIFY(std::abs(entry["model_tflops_per_gpu"].get<double>() * 1e12
                        - tokens * entry["model_flops_per_token"].get<double>())
                <= 1e-9 * tokens * entry["model_flops_per_token"].get<double>());
            QVERIFY(gpus >= 1 && entry["mfu"].get<double>() > 0 && entry["mfu"].get<double>() < 1);
            QVERIFY(entry["chosen"].contains("micro_batch") && entry["chosen"].contains("recompute"));
        }
        // Open degrees are chosen and reported: the 96-GPU strong-scaling row states no TP/PP/DP.
        const auto strong = std::find_if(list.begin(), list.end(),
            [](const auto& e) { return e["id"] == "megatron_core_h100_strong_gpt3_175b_96gpu"; });
        QVERIFY(strong != list.end());
        const auto& chosen = (*strong)["chosen"];
        QCOMPARE(
            chosen["tp"].get<int>() * chosen["pp"].get<int>() * chosen["cp"].get<int>() * chosen["dp"].get<int>(), 96);
        QVERIFY(!(*strong)["choices"].empty());
    }

    /// `estimate` reports the optimizer-state width in effect, not as asked: the 24.09 Nemotron-4 340B row states
    /// bf16 states, which its Adam on the distributed optimizer runs; with SGD they are left out.
    void estimateReportsTheOptimizerStatesInEffect()
    {
        const auto nemotron = checkCase("dgxc2409_h100_nemotron4_340b_bf16_128gpu");
        QCOMPARE(estimatedChoice(nemotron).at("optimizer_states").get<std::string>(), std::string("bf16"));
        auto sgd = nemotron;
        sgd["training"]["optimizer"] = "sgd_momentum";
        QCOMPARE(estimatedChoice(sgd).at("optimizer_states").get<std::string>(), std::string("fp32"));
    }

    /// `estimate` reports the software settings in effect that a case may leave open: Megatron-Core's Qwen3-235B on
    /// 256 H100 states DeepEP and paired micro-batches; the same as a pipelined layout without chunks cannot pair them.
    void estimateReportsTheSoftwareSettingsInEffect()
    {
        const auto qwen = checkCase("mcoremoe_h100_qwen3_235b_a22b_bf16_256gpu_tp2pp8ep32");
        const auto chosen = estimatedChoice(qwen);
        QCOMPARE(chosen.at("moe_dispatcher").get<std::string>(), std::string("deepep"));
        QVERIFY(chosen.at("moe_overlap").get<bool>());
        QVERIFY(!chosen.at("compile").get<bool>()); // Megatron's kernels are fused by hand, not by torch.compile
        auto oneFOneB = qwen; // Megatron refuses the pairing there
        oneFOneB["parallelism"]["vpp"] = 1;
        oneFOneB["parallelism"]["schedule"] = "1f1b";
        QVERIFY(!estimatedChoice(oneFOneB).at("moe_overlap").get<bool>());
    }

    /// The confidence band names the model's own validated runs where it has any on the GPU generation: GPT-OSS-120B
    /// planned under Megatron-LM on H100 takes the megatron · Hopper · MoE band and names its one checked H100 run.
    void estimateNamesTheModelsOwnRuns()
    {
        auto gptOss = checkCase("mbridge26021_h100_gpt_oss_120b_bf16_64gpu");
        gptOss["training"]["framework"] = "megatron";
        const auto throughput = estimated(gptOss).at("confidence").at(0);
        QCOMPARE(throughput.at("family").get<std::string>(), std::string("megatron · Hopper · MoE"));
        QCOMPARE(throughput.at("model_runs").get<int>(), 1);
        QCOMPARE(throughput.at("model").at("names"), nlohmann::json::array({"GPT-OSS-120B"}));
        QCOMPARE(throughput.at("model").at("frameworks"), nlohmann::json::array({"nemo"}));
        const double median = throughput.at("model").at("signed_median_percent").get<double>();
        QVERIFY(median > throughput.at("p90_abs_percent").get<double>());
        QVERIFY(throughput.at("statement").get<std::string>().find("GPT-OSS-120B") != std::string::npos);
        // A model no validated run has: no model entry.
        auto other = gptOss;
        other["model"]["layers"] = 37;
        const auto unknown = estimated(other).at("confidence").at(0);
        QCOMPARE(unknown.at("model_runs").get<int>(), 0);
        QVERIFY(!unknown.contains("model"));
    }

    void aBatchThatDpDoesNotDivideIsRoundedAndSaidSo()
    {
        // OPT-175B style: 1,024 sequences on DP 124. The case is laid out with 992 (8 per rank), the step time
        // scaled back to the stated 1,024, and the choice reported.
        auto cases = nlohmann::json::parse(readFile(kCases));
        const auto found = std::find_if(
            cases.begin(), cases.end(), [](const auto& e) { return e["id"] == "narayanan21_t2_ptdp_174p6b_1536gpu"; });
        QVERIFY(found != cases.end());
        auto c = *found;
        c["id"] = "rounded";
        c["cluster"]["num_gpus"] = 992;
        c["training"]["global_batch_seqs"] = 1024;
        c["training"]["micro_batch"] = nullptr;
        c["parallelism"]
            = {{"tp", 8}, {"pp", 1}, {"cp", 1}, {"dp", 124}, {"ep", nullptr}, {"vpp", nullptr}, {"schedule", nullptr}};
        const CasePrediction p = predictCase(readValidationCases(nlohmann::json::array({c}).dump()).front());
        QVERIFY2(p.ok, p.error.c_str());
        QCOMPARE(p.chosen.globalBatch, 992);
        QVERIFY(std::any_of(p.choices.begin(), p.choices.end(),
            [](const std::string& s) { return s.find("global_batch 992 instead of 1024") != std::string::npos; }));
        const double tokensFromStep = 1024.0 * 2048 / *p.stepTimeS / 992;
        QVERIFY(std::abs(tokensFromStep / *p.tokensPerSPerGpu - 1) < 1e-9);
    }

    /// The development schema lists B200 and no GB200: a case of B200 at four GPUs per node (a GB200 compute tray) is
    /// read as GB200, whose NVLink domain is the NVL72 rack, and says so; at eight per node it stays a B200 (HGX/DGX).
    void b200FourToANodeIsReadAsGb200()
    {
        nlohmann::json c = checkCase("mbridge2511_gb200_deepseek_v3_bf16_256gpu");
        QCOMPARE(c["cluster"]["gpus_per_node"].get<int>(), 4);
        const CasePrediction gb200 = predictCase(readValidationCases(c.dump()).front());
        c["cluster"]["gpu"] = "B200";
        const ValidationCase read = readValidationCases(c.dump()).front();
        QCOMPARE(read.scenario.cluster.gpuId, std::string("GB200"));
        const CasePrediction asB200 = predictCase(read);
        QVERIFY(gb200.ok && asB200.ok);
        QCOMPARE(*asB200.tokensPerSPerGpu, *gb200.tokensPerSPerGpu);
        QVERIFY(std::any_of(asB200.choices.begin(), asB200.choices.end(),
            [](const std::string& s) { return s.find("stated B200 at four GPUs per node") != std::string::npos; }));
        // The text form says so too, not only the JSON's choices.
        QVERIFY(estimatedText(c).find("GPU GB200 (stated B200 at four GPUs per node") != std::string::npos);
        c["cluster"]["gpus_per_node"] = 8;
        QCOMPARE(readValidationCases(c.dump()).front().scenario.cluster.gpuId, std::string("B200"));
        c["cluster"]["gpus_per_node"] = nullptr; // unstated: nothing to read from
        QCOMPARE(readValidationCases(c.dump()).front().scenario.cluster.gpuId, std::string("B200"));
    }

    /// When no layout fits, the memory-first fallback keeps the valid layout that comes closest, trying the chunks
    /// per rank an interleaved schedule leaves open, and on equal memory the one with more chunks (a smaller bubble):
    /// Llama 3 405B at 16,384 GPUs holds its 16 micro-batches in flight whatever the split (docs/methods-time.md 4.26).
    void noFittingLayoutKeepsTheClosestSplit()
    {
        auto cases = nlohmann::json::parse(readFile(CLUSTERPLANNER_DATA_DIR "/checks/cases.json"));
        const auto found = std::find_if(
            cases.begin(), cases.end(), [](const auto& e) { return e["id"] == "llama3_405b_16384gpu_tp8_pp16_dp128"; });
        QVERIFY(found != cases.end());
        const CasePrediction open = predictCase(readValidationCases(nlohmann::json::array({*found}).dump()).front());
        QVERIFY2(open.ok, open.error.c_str());
        QVERIFY(!open.memory.fits);
        // The text form puts the misfit beside the figures it qualifies.
        const std::string text = estimatedText(*found);
        QVERIFY2(
            text.find("  does not fit: ") != std::string::npos && text.find("GiB usable per GPU") != std::string::npos,
            text.c_str());
        QCOMPARE(open.chosen.layout.virtualStages, 4); // 126 layers / 16 stages: 8 chunks would be 128 > 126
        auto oneChunk = *found;
        oneChunk["parallelism"]["vpp"] = 1;
        const CasePrediction stated
            = predictCase(readValidationCases(nlohmann::json::array({oneChunk}).dump()).front());
        QVERIFY2(stated.ok, stated.error.c_str());
        QVERIFY(std::abs(*stated.peakMemoryGiB - *open.peakMemoryGiB) < 1e-9);
        QVERIFY(*open.tokensPerSPerGpu > 1.5 * *stated.tokensPerSPerGpu);
    }

    /// zero_stage and distributed_optimizer are two keys of the schema: a stated stage 0 says that no ZeRO/FSDP
    /// sharding ran, and leaves Megatron's distributed optimizer open unless the flag is stated.
    void statedStageZeroLeavesTheDistributedOptimizerOpen()
    {
        auto cases = nlohmann::json::parse(readFile(CLUSTERPLANNER_DATA_DIR "/checks/cases.json"));
        const auto found = std::find_if(cases.begin(), cases.end(),
            [](const auto& e) { return e["id"] == "dgxc25021_h100_llama31_70b_bf16_64gpu"; });
        QVERIFY(found != cases.end());
        const auto constraintsOf = [case_ = *found](const nlohmann::json& stage, const nlohmann::json& flag) {
            auto c = case_;
            c["training"]["zero_stage"] = stage;
            c["training"]["distributed_optimizer"] = flag;
            return caseConstraints(readValidationCases(nlohmann::json::array({c}).dump()).front());
        };
        const SweepConstraints open = constraintsOf(0, nullptr);
        QCOMPARE(open.zeroStage, std::optional<int>());
        QCOMPARE(open.maxZeroStage, std::optional<int>(1));
        QCOMPARE(constraintsOf(0, true).zeroStage, std::optional<int>(1));
        QCOMPARE(constraintsOf(0, false).zeroStage, std::optional<int>(0));
        QCOMPARE(constraintsOf(nullptr, true).zeroStage, std::optional<int>(1));
        QCOMPARE(constraintsOf(nullptr, false).zeroStage, std::optional<int>(0));
        QCOMPARE(constraintsOf(3, true).zeroStage, std::optional<int>(3)); // FSDP stated beside the flag
        QCOMPARE(constraintsOf(nullptr, nullptr).zeroStage, std::optional<int>());
        QCOMPARE(constraintsOf(nullptr, nullptr).maxZeroStage, std::optional<int>());
        // The prediction runs the framework's default where the case does not say: NeMo's recipes turn the
        // distributed optimizer on; Megatron-LM's --use-distributed-optimizer is off unless given, and its published
        // Hopper and Blackwell runs give it; `sweep --case` (caseConstraints) still explores both.
        const auto predictedStage = [case_ = *found](const char* framework, const char* gpu) {
            auto c = case_;
            c["training"]["framework"] = framework;
            c["training"]["zero_stage"] = nullptr;
            c["training"]["distributed_optimizer"] = nullptr;
            c["cluster"]["gpu"] = gpu;
            return predictionConstraints(readValidationCases(nlohmann::json::array({c}).dump()).front()).zeroStage;
        };
        QCOMPARE(predictedStage("nemo", "H100-SXM-80GB"), std::optional<int>(1));
        QCOMPARE(predictedStage("nemo", "A100-SXM-80GB"), std::optional<int>(1));
        QCOMPARE(predictedStage("megatron", "A100-SXM-80GB"), std::optional<int>(0));
        QCOMPARE(predictedStage("megatron", "H100-SXM-80GB"), std::optional<int>(1));
        QCOMPARE(predictedStage("megatron", "B200"), std::optional<int>(1));
        QCOMPARE(predictedStage("other", "H100-SXM-80GB"), std::optional<int>()); // no known default: the sweep chooses
        // The run as NVIDIA published it (distributed optimizer) whichever way the case says it.
        auto predicted = [&](const nlohmann::json& stage, const nlohmann::json& flag) {
            auto c = *found;
            c["training"]["zero_stage"] = stage;
            c["training"]["distributed_optimizer"] = flag;
            return *predictCase(readValidationCases(nlohmann::json::array({c}).dump()).front()).tokensPerSPerGpu;
        };
        QCOMPARE(predicted(0, nullptr), predicted(nullptr, true));
        QVERIFY(predicted(0, false) < 0.9 * predicted(nullptr, true)); // stated off: no optimizer sharding, no fit
    }

    /// An unstated pipeline split is what the framework does by default, not the planner's best (docs/methods-time.md
    /// §4.14): TorchTitan splits each rank's batch into pp micro-batches and interleaves two chunks per rank.
    void unstatedPipelineSplitFollowsTheFramework()
    {
        auto cases = nlohmann::json::parse(readFile(CLUSTERPLANNER_DATA_DIR "/checks/cases.json"));
        const auto found = std::find_if(cases.begin(), cases.end(),
            [](const auto& e) { return e["id"] == "torchtitan_h100gt_llama31_405b_3d_interleaved_512gpu"; });
        QVERIFY(found != cases.end());
        const auto titan = *found;
        const auto constraintsOf = [](const nlohmann::json& c) {
            return predictionConstraints(readValidationCases(nlohmann::json::array({c}).dump()).front());
        };
        // 256 sequences over dp 8 = 32 per rank, in pp 8 micro-batches of 4.
        QCOMPARE(constraintsOf(titan).microBatch, std::optional<int>(4));
        QCOMPARE(constraintsOf(titan).virtualStages, std::optional<int>(2));
        // `sweep --case` explores what the source leaves open, defaults included.
        const ValidationCase asRead = readValidationCases(nlohmann::json::array({titan}).dump()).front();
        QCOMPARE(caseConstraints(asRead).microBatch, std::optional<int>());
        QCOMPARE(caseConstraints(asRead).virtualStages, std::optional<int>());

        auto oneFOneB = titan;
        oneFOneB["parallelism"]["schedule"] = "1f1b";
        QCOMPARE(constraintsOf(oneFOneB).microBatch, std::optional<int>(4));
        QCOMPARE(constraintsOf(oneFOneB).virtualStages, std::optional<int>());

        auto stated = titan;
        stated["training"]["micro_batch"] = 2;
        stated["parallelism"]["vpp"] = 4;
        QCOMPARE(constraintsOf(stated).microBatch, std::optional<int>(2));
        QCOMPARE(constraintsOf(stated).virtualStages, std::optional<int>(4));

        auto uneven = titan; // 250 sequences do not split into 8 × 8: the framework would refuse; the planner chooses
        uneven["training"]["global_batch_seqs"] = 250;
        QCOMPARE(constraintsOf(uneven).microBatch, std::optional<int>());

        auto megatron = titan; // Megatron-LM has no such default: both are left to the planner
        megatron["training"]["framework"] = "megatron";
        megatron["training"]["zero_stage"] = 1;
        QCOMPARE(constraintsOf(megatron).microBatch, std::optional<int>());
        QCOMPARE(constraintsOf(megatron).virtualStages, std::optional<int>());
    }

    /// Software settings a case leaves open (docs/methods-time.md §4.27): for the unknown framework "other" the
    /// fastest it offers, named in the choices; a named framework runs its defaults. DeepSeek-V3 on 2,048 H800 read
    /// with the schema's keys only: the deduplicating dispatcher and the paired-micro-batch overlap are what make it
    /// fast, as DeepSeek ran it (node-limited dispatch, DualPipe). On ZB-H1 here: DualPipe pairs the micro-batches
    /// whatever moe_overlap says (§4.46), which would leave the overlap nothing to decide.
    void openSoftwareSettingsOfAnUnknownFrameworkAreTheFastest()
    {
        auto cases = nlohmann::json::parse(readFile(CLUSTERPLANNER_DATA_DIR "/checks/cases.json"));
        const auto found = std::find_if(
            cases.begin(), cases.end(), [](const auto& e) { return e["id"] == "deepseek_v3_671b_2048_h800"; });
        QVERIFY(found != cases.end());
        (*found)["parallelism"]["schedule"] = "zb-h1";
        const auto predict = [](const nlohmann::json& c) {
            return predictCase(
                readValidationCases(nlohmann::json::array({c}).dump(), CaseKeys::DevelopmentSchema).front());
        };
        const CasePrediction open = predict(*found);
        QVERIFY2(open.ok, open.error.c_str());
        QCOMPARE(open.chosen.moeDispatcher, MoeDispatcher::DeepEp);
        QVERIFY(open.chosen.moeOverlap);
        QVERIFY(std::any_of(open.choices.begin(), open.choices.end(), [](const std::string& c) {
            return c == "MoE dispatcher deepep (not stated: the faster the framework offers)";
        }));
        auto stated = *found; // stating the all-to-all without overlap keeps it, and is slower
        stated["training"]["moe_dispatcher"] = "all_to_all";
        stated["training"]["moe_overlap"] = false;
        const CasePrediction plain = predictCase(readValidationCases(nlohmann::json::array({stated}).dump()).front());
        QCOMPARE(plain.chosen.moeDispatcher, MoeDispatcher::AllToAll);
        QVERIFY(*open.tokensPerSPerGpu > 1.2 * *plain.tokensPerSPerGpu);
        auto megatron = *found; // Megatron-LM offers both, but a case that does not say runs its defaults
        megatron["training"]["framework"] = "megatron";
        const CasePrediction defaults = predict(megatron);
        QVERIFY2(defaults.ok, defaults.error.c_str());
        QCOMPARE(defaults.chosen.moeDispatcher, MoeDispatcher::AllToAll);
        QVERIFY(!defaults.chosen.moeOverlap);
    }

    /// NVIDIA's published MoE runs, read with the schema's keys only (docs/methods-time.md §4.41): Qwen3-235B-A22B on
    /// 256 H100 (TP 2, interleaved PP 8, EP 32 over four nodes) paired micro-batches, as its Megatron-Bridge preset
    /// says; a single stage, EP inside the node, top-2 routing or a stated "off" leave the all-to-all unpaired.
    void publishedNvidiaMoeRunsPairMicroBatchesAcrossDomains()
    {
        auto cases = nlohmann::json::parse(readFile(CLUSTERPLANNER_DATA_DIR "/checks/cases.json"));
        const auto found = std::find_if(cases.begin(), cases.end(),
            [](const auto& e) { return e["id"] == "mbridge2511_h100_qwen3_235b_a22b_fp8cs_256gpu_gbs2048"; });
        QVERIFY(found != cases.end());
        const auto predict = [](const nlohmann::json& c) {
            const CasePrediction p = predictCase(
                readValidationCases(nlohmann::json::array({c}).dump(), CaseKeys::DevelopmentSchema).front());
            if (!p.ok)
                qWarning("%s", p.error.c_str());
            return p;
        };
        const CasePrediction published = predict(*found);
        QVERIFY(published.ok);
        QVERIFY(published.chosen.moeOverlap);
        QVERIFY(std::any_of(published.choices.begin(), published.choices.end(), [](const std::string& c) {
            return c.rfind("MoE overlap on (not stated: as the checked NVIDIA recipes ran", 0) == 0;
        }));
        QVERIFY(published.time.epExposedS < published.time.epTotalS / 2);
        // Its heads of 128 and QK norm, which the schema cannot state, come from the preset of its shape (§4.42).
        QCOMPARE(readValidationCases(nlohmann::json::array({*found}).dump(), CaseKeys::DevelopmentSchema)
                     .front()
                     .scenario.model.headDim,
            128);
        QVERIFY(std::any_of(published.choices.begin(), published.choices.end(), [](const std::string& c) {
            return c
                == "head_dim 128, QK norm (unstated, beyond the development-set schema: from the Qwen3-235B-A22B "
                   "preset, whose shape the case has)";
        }));

        // An open pipeline: every candidate is scored with the overlap its layout would run, so the sweep does not
        // settle on a single stage that a first, unpaired sweep preferred.
        auto openPipeline = *found;
        for (const char* key : {"pp", "vpp", "schedule", "dp"})
            openPipeline["parallelism"][key] = nullptr;
        const CasePrediction open = predict(openPipeline);
        QVERIFY(open.ok);
        QVERIFY(open.chosen.layout.pp > 1);
        QVERIFY(open.chosen.moeOverlap);
        QVERIFY(*open.tokensPerSPerGpu >= *published.tokensPerSPerGpu);

        auto singleStage = *found;
        singleStage["parallelism"]["pp"] = 1;
        singleStage["parallelism"]["vpp"] = nullptr;
        singleStage["parallelism"]["schedule"] = nullptr;
        singleStage["parallelism"]["dp"] = 128;
        QVERIFY(!predict(singleStage).chosen.moeOverlap);
        auto insideNode = *found; // TP 2 × EP 4 = one 8-GPU node
        insideNode["parallelism"]["ep"] = 4;
        QVERIFY(!predict(insideNode).chosen.moeOverlap);
        auto coarse = *found; // top-2 routing, as Mixtral's recipes from before the overlap existed
        coarse["model"]["moe"]["top_k"] = 2;
        QVERIFY(!predict(coarse).chosen.moeOverlap);
        auto stated = *found;
        stated["training"]["moe_overlap"] = false;
        const CasePrediction off = predictCase(readValidationCases(nlohmann::json::array({stated}).dump()).front());
        QVERIFY(off.ok);
        QVERIFY(!off.chosen.moeOverlap);
        QVERIFY(*published.tokensPerSPerGpu > 1.2 * *off.tokensPerSPerGpu);
        auto other = *found; // a stack the project does not know: the faster of the two, as before
        other["training"]["framework"] = "other";
        QVERIFY(predict(other).chosen.moeOverlap);
    }

    void estimateReportsAnInvalidLayout()
    {
        const std::string path = QDir::tempPath().toStdString() + "/clusterplanner_bad_case.json";
        auto cases = nlohmann::json::parse(readFile(kCases));
        auto bad = cases[cases.size() - 1];
        bad["id"] = "bad";
        bad["parallelism"]["tp"] = 3;
        bad["parallelism"]["dp"] = 5;
        std::ofstream(path) << bad.dump();
        std::ostringstream out, err;
        // The JSON still says which case failed and why; the exit code and stderr say it to a script.
        QCOMPARE(runCommand({"estimate", "--case", path}, out, err), 1);
        const auto list = nlohmann::json::parse(out.str());
        QCOMPARE(list[0]["ok"].get<bool>(), false);
        const std::string error = list[0]["error"].get<std::string>();
        QVERIFY2(error.find("TP 3 does not divide") != std::string::npos, error.c_str());
        QVERIFY2(error.find("but the cluster has 1 GPUs") != std::string::npos, error.c_str());
        // stderr names the file and the case, as the case reader's errors do.
        QVERIFY2(err.str().find("estimate: " + path + ": bad: invalid layout:") == 0
                && err.str().find("TP 3 does not divide") != std::string::npos,
            err.str().c_str());
    }

    void estimateNamesTheFileItCannotRead()
    {
        const std::string dir = QDir::tempPath().toStdString();
        const std::string broken = dir + "/clusterplanner_broken_case.json";
        std::ofstream(broken) << "{\"id\": ";
        const std::string empty = dir + "/clusterplanner_empty_cases.json";
        std::ofstream(empty) << "[]";
        for (const char* command : {"estimate", "sweep"}) {
            for (const auto& [path, why] : {std::pair {broken, "not valid JSON"}, {empty, "no case in the file"}}) {
                std::ostringstream out, err;
                QCOMPARE(runCommand({command, "--case", path}, out, err), 1);
                QVERIFY2(err.str().find(path + ": ") != std::string::npos, err.str().c_str());
                QVERIFY2(err.str().find(why) != std::string::npos, err.str().c_str());
            }
        }
    }

    /// A scenario file given to estimate or validate is named as one, with the commands that read it.
    void scenarioFileIsNotTakenForACase()
    {
        const std::string scenario = CLUSTERPLANNER_DATA_DIR "/scenarios/llama3-70b-256-h100.cplan.json";
        std::ostringstream out, err;
        QCOMPARE(runCommand({"estimate", "--case", scenario}, out, err), 2);
        QVERIFY2(err.str().find("is a scenario file, not a validation case") != std::string::npos, err.str().c_str());
        QVERIFY2(err.str().find("report --scenario") != std::string::npos, err.str().c_str());
    }

    void efficiencyFileOverridesTheBuiltInParameters()
    {
        // Halving the large-GEMM efficiency of every family must slow every 16-bit case down, and the parameters the
        // estimate reports must be the file's.
        const QString path = efficiencyFileWithDefault("gemm_peak_fraction", 0.3, "cp-efficiency-override.json");
        std::ostringstream builtinOut, overrideOut, err;
        QCOMPARE(runCommand({"estimate", "--case", kCases}, builtinOut, err), 0);
        QCOMPARE(runCommand({"estimate", "--case", kCases, "--efficiency", path.toStdString()}, overrideOut, err), 0);
        const auto builtin = nlohmann::json::parse(builtinOut.str());
        const auto slower = nlohmann::json::parse(overrideOut.str());
        QCOMPARE(builtin.size(), slower.size());
        for (std::size_t i = 0; i < builtin.size(); ++i) {
            QCOMPARE(slower[i]["efficiency"]["gemm_peak_fraction"].get<double>(), 0.3);
            // The development GPUs are the calibration references (methods-time §4.31): no measured-matmul correction.
            QCOMPARE(slower[i]["efficiency"]["gemm_peak_fraction_on_gpu"].get<double>(), 0.3);
            // ... and keep their fitted F½, whatever η∞ the file gives (a ratio of rates at the same η∞).
            QCOMPARE(slower[i]["efficiency"]["gemm_half_gflop_on_gpu"].get<double>(),
                builtin[i]["efficiency"]["gemm_half_gflop"].get<double>());
            if (builtin[i]["chosen"]["precision"] == "fp32")
                continue; // fp32 GEMMs run at fp32_peak_fraction
            QVERIFY2(slower[i]["step_time_s"].get<double>() > builtin[i]["step_time_s"].get<double>(),
                builtin[i]["id"].get<std::string>().c_str());
        }
        QFile::remove(path);
    }

    /// An efficiency file can make every GEMM endless (an absurd F½): the text says why there is no throughput, gives
    /// no throughput band for a figure it does not show, and still reports the memory.
    void textSaysWhyThereIsNoStepTime()
    {
        const QString path = efficiencyFileWithDefault("gemm_half_gflop", 1e300, "cp-efficiency-endless.json");
        std::ostringstream out, err;
        const int status
            = runCommand({"estimate", "--case", kCases, "--efficiency", path.toStdString(), "--text"}, out, err);
        QFile::remove(path);
        QCOMPARE(status, 0);
        const std::string text = out.str();
        QVERIFY2(text.find("no step time: ") != std::string::npos, text.c_str());
        QVERIFY2(text.find(":,") == std::string::npos, text.c_str());
        QVERIFY2(text.find("tokens/s per GPU") == std::string::npos, text.c_str());
        QVERIFY2(text.find("Throughput: expected error") == std::string::npos, text.c_str());
        QVERIFY2(text.find(": peak memory ") != std::string::npos, text.c_str());
    }

    void badEfficiencyFileIsNamed()
    {
        const QString path = QDir::temp().filePath("cp-efficiency-bad.json");
        std::ofstream(path.toStdString()) << R"({"defaults": {"gemm_peek_fraction": 0.5}, "families": []})";
        std::ostringstream out, err;
        QVERIFY(
            runCommand({"validate", "--cases", kCases, "--truth", kTruth, "--efficiency", path.toStdString()}, out, err)
            != 0);
        QVERIFY2(err.str().find(path.toStdString()) != std::string::npos, err.str().c_str());
        QVERIFY2(err.str().find("gemm_peek_fraction") != std::string::npos, err.str().c_str());
        QFile::remove(path);
    }
};

QTEST_GUILESS_MAIN(TestValidationReport)
#include "tst_validationreport.moc"
