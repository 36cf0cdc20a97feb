// SPDX-License-Identifier: GPL-3.0-or-later
// "clusterplanner sweep": JSON shape, fixed dimensions, CSV, usage errors, and the best layout against brute force.
#include "cli/commands.h"
#include "core/io/scenariojson.h"
#include "core/io/validationcase.h"
#include "core/model/enumnames.h"
#include "core/sweep/layoutevaluator.h"
#include "tests/cli/clitesthelpers.h"

#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <sstream>

using namespace clusterplanner::core;
using clitest::run;
using nlohmann::json;

namespace {

/// A 1.3B GPT on 16 A100-80GB in the validation schema; pp is stated (2), everything else of the layout is open.
json smallCase()
{
    return json::parse(R"({
 "id": "small_gpt_16xa100",
 "model": {"name": "GPT 1.3B", "layers": 24, "hidden": 2048, "heads": 16, "kv_heads": 16, "ffn_hidden": 8192,
           "vocab": 51200, "seq_len": 2048, "mlp": "gelu", "norm": "layernorm", "tied_embeddings": true,
           "params": null, "moe": null},
 "training": {"global_batch_seqs": 64, "micro_batch": null, "precision": "amp_bf16", "optimizer": "adamw",
              "recompute": null, "sequence_parallel": null, "zero_stage": null, "distributed_optimizer": null,
              "attention": "flash", "framework": "megatron"},
 "cluster": {"gpu": "A100-SXM-80GB", "num_gpus": 16, "gpus_per_node": 8},
 "parallelism": {"tp": null, "pp": 2, "cp": null, "dp": null, "ep": null, "vpp": null, "schedule": null}
})");
}

} // namespace

class TestSweepCommand : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::string m_casePath;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_casePath = m_dir.filePath("case.json").toStdString();
        std::ofstream(m_casePath) << json::array({smallCase()}).dump();
    }

    void jsonHasSummaryTopAndPareto()
    {
        const auto r = run({"sweep", "--case", m_casePath, "--json", "--top", "5", "--quiet"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.err.empty());
        const json out = json::parse(r.out);
        QCOMPARE(out.size(), std::size_t(3));
        for (const char* key : {"evaluated", "valid", "fitting", "seconds", "layouts_per_s"})
            QVERIFY2(out["summary"].contains(key), key);
        QVERIFY(out["summary"]["evaluated"].get<long long>() >= out["summary"]["valid"].get<long long>());
        QVERIFY(out["summary"]["valid"].get<long long>() >= out["summary"]["fitting"].get<long long>());
        QCOMPARE(out["top"].size(), std::size_t(5));
        QVERIFY(!out["pareto"].empty());
        for (const auto& list : {out["top"], out["pareto"]})
            for (const auto& e : list) {
                for (const char* key : {"dp", "tp", "pp", "cp", "ep", "vpp", "dp_shard", "micro_batch", "recompute",
                         "activation_offload_layers", "zero_stage", "schedule"})
                    QVERIFY2(e["layout"].contains(key), key);
                for (const char* key : {"fits", "peak_memory_gib", "headroom_gib", "step_time_s",
                         "tokens_per_s_per_gpu", "mfu", "cost_per_m_tokens_usd"})
                    QVERIFY2(e.contains(key), key);
                QVERIFY(e["fits"].get<bool>());
                // "tight": less than a tenth of the usable memory to spare (core/sweep/layoutresult.h)
                QCOMPARE(e["tight"].get<bool>(),
                    e["headroom_gib"].get<double>()
                        < 0.1 * (e["headroom_gib"].get<double>() + e["peak_memory_gib"].get<double>()));
                const auto& l = e["layout"];
                QCOMPARE(l["dp"].get<int>() * l["tp"].get<int>() * l["pp"].get<int>() * l["cp"].get<int>(), 16);
            }
        // Ranked best first.
        for (std::size_t i = 1; i < out["top"].size(); ++i)
            QVERIFY(out["top"][i - 1]["tokens_per_s_per_gpu"].get<double>()
                >= out["top"][i]["tokens_per_s_per_gpu"].get<double>());
    }

    /// A case's sweep scores its layouts with what the case's published run set on each (docs/methods-time.md §4.41),
    /// as `estimate` does: Qwen3-235B-A22B on 256 H100 with its layout stated and the overlap not, read with the
    /// development-set schema's keys only, ranks first what `estimate` predicts.
    void caseSweepAgreesWithEstimate()
    {
        auto cases = json::parse(clitest::readFile(CLUSTERPLANNER_DATA_DIR "/checks/cases.json"));
        const auto found = std::find_if(cases.begin(), cases.end(),
            [](const auto& e) { return e["id"] == "mbridge2511_h100_qwen3_235b_a22b_fp8cs_256gpu_gbs2048"; });
        QVERIFY(found != cases.end());
        json schemaCase = *found;
        for (const char* key : {"moe_overlap", "moe_dispatcher"})
            schemaCase["training"].erase(key);
        for (const char* key : {"head_dim", "qk_norm"})
            schemaCase["model"].erase(key);
        const std::string path = m_dir.filePath("qwen3.json").toStdString();
        std::ofstream(path) << json::array({schemaCase}).dump();
        const auto swept = run({"sweep", "--case", path, "--json", "--top", "1", "--quiet"});
        QCOMPARE(swept.code, 0);
        const auto estimated = run({"estimate", "--case", path});
        QCOMPARE(estimated.code, 0);
        const double sweepBest = json::parse(swept.out)["top"][0]["tokens_per_s_per_gpu"].get<double>();
        const json estimate = json::parse(estimated.out)[0];
        QVERIFY(estimate["chosen"]["moe_overlap"].get<bool>());
        QCOMPARE(sweepBest, estimate["tokens_per_s_per_gpu"].get<double>());
    }

    void statedAndFlaggedDimensionsAreFixed()
    {
        const auto r = run({"sweep", "--case", m_casePath, "--json", "--top", "50", "--quiet", "--tp", "2",
            "--recompute", "selective", "--zero", "1"});
        QCOMPARE(r.code, 0);
        const json out = json::parse(r.out);
        QVERIFY(!out["top"].empty());
        for (const auto& e : out["top"]) {
            QCOMPARE(e["layout"]["pp"].get<int>(), 2); // stated in the case
            QCOMPARE(e["layout"]["tp"].get<int>(), 2);
            QCOMPARE(e["layout"]["dp"].get<int>() * e["layout"]["cp"].get<int>(), 4); // cp is free
            QCOMPARE(e["layout"]["recompute"].get<std::string>(), std::string("selective"));
            QCOMPARE(e["layout"]["zero_stage"].get<int>(), 1);
        }
    }

    void csvHasHeaderAndRankedRows()
    {
        const auto r = run({"sweep", "--case", m_casePath, "--format", "csv", "--top", "3"});
        QCOMPARE(r.code, 0);
        std::istringstream lines(r.out);
        std::string header, row;
        std::getline(lines, header);
        QCOMPARE(header,
            std::string("rank,dp,tp,pp,cp,ep,vpp,micro_batch,recompute,offload_layers,zero_stage,schedule,rank_order,"
                        "peak_memory_gib,headroom_gib,step_time_s,tokens_per_s_per_gpu,mfu,cost_per_m_tokens_usd"));
        int rows = 0;
        while (std::getline(lines, row))
            QVERIFY(row.rfind(std::to_string(++rows) + ",", 0) == 0);
        QCOMPARE(rows, 3);
        QVERIFY(r.err.find("sweep: 100 %") != std::string::npos); // progress on stderr without --quiet
    }

    void textSaysWhatItTruncatesAndShowsTheFront()
    {
        const auto r = run({"sweep", "--case", m_casePath, "--top", "2", "--quiet"});
        QCOMPARE(r.code, 0);
        const auto sweepJson = nlohmann::json::parse(run({"sweep", "--case", m_casePath, "--json", "--quiet"}).out);
        const long long fitting = sweepJson["summary"]["fitting"].get<long long>();
        QVERIFY(fitting > 2);
        std::string count = std::to_string(fitting); // with thousands separators, as the text writes counts
        for (int at = int(count.size()) - 3; at > 0; at -= 3)
            count.insert(std::size_t(at), ",");
        const std::string line = "top 2 of " + count + " fitting layouts; --top N for more";
        QVERIFY2(r.out.find(line) != std::string::npos, r.out.c_str());
        const std::string front = "Pareto front (memory headroom vs tokens/s per GPU): "
            + std::to_string(sweepJson["pareto"].size()) + " layouts";
        QVERIFY2(r.out.find(front) != std::string::npos, r.out.c_str());
        QVERIFY(r.err.empty());
    }

    void emptyAnswerSaysWhyAndExitsOne_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<int>("value");
        QTest::addColumn<QString>("field2");
        QTest::addColumn<int>("value2");
        QTest::addColumn<QString>("why");
        // TP 3 cannot factor 16 GPUs: nothing to evaluate.
        QTest::newRow("no factoring") << "tp" << 3 << "" << 0
                                      << "no layout to evaluate: the fixed degrees (tp 3 x pp 2";
        // TP 8 factors 16 GPUs with PP 2 but does not divide 12 heads (width 1,536): every layout breaks a rule.
        QTest::newRow("invalid") << "heads" << 12 << "kv_heads" << 12
                                 << "layouts is valid: TP must divide the attention heads";
        // 96 layers of width 12,288 (GPT-3 175B) cannot fit 16 A100-80GB however they are laid out.
        QTest::newRow("no fit") << "layers" << 96 << "hidden" << 12288
                                << "valid layouts fits in memory: the leanest is";
    }

    void emptyAnswerSaysWhyAndExitsOne()
    {
        QFETCH(QString, field);
        QFETCH(int, value);
        QFETCH(QString, field2);
        QFETCH(int, value2);
        QFETCH(QString, why);
        json c = smallCase();
        auto set = [&c](const std::string& key, int v) {
            if (key == "tp")
                c["parallelism"]["tp"] = v;
            else if (!key.empty())
                c["model"][key] = v;
        };
        set(field.toStdString(), value);
        set(field2.toStdString(), value2);
        if (field == "heads") { // 12 heads of width 128, TP fixed at 8
            c["model"]["hidden"] = 1536;
            c["parallelism"]["tp"] = 8;
        }
        const std::string path = m_dir.filePath("empty.json").toStdString();
        std::ofstream(path) << json::array({c}).dump();
        for (const char* format : {"text", "json"}) {
            const auto r = run({"sweep", "--case", path, "--format", format, "--quiet"});
            QCOMPARE(r.code, 1);
            QVERIFY2(r.err.find("sweep: ") == 0 && r.err.find(why.toStdString()) != std::string::npos, r.err.c_str());
            QVERIFY(!r.out.empty()); // the (empty) answer is still written, for scripts that read it
        }
    }

    void textOffersMoreOnlyWhenThereIsMore()
    {
        const auto all = run({"sweep", "--case", m_casePath, "--top", "100000", "--quiet"});
        QCOMPARE(all.code, 0);
        QVERIFY2(all.out.find("--top N for more") == std::string::npos, all.out.c_str());
    }

    void badFlagsExitTwo_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("objective") << QStringList {"--objective", "fastest"} << "--objective";
        QTest::newRow("tp zero") << QStringList {"--tp", "0"} << "--tp";
        QTest::newRow("recompute") << QStringList {"--recompute", "sometimes"} << "--recompute";
        QTest::newRow("zero stage") << QStringList {"--zero", "4"} << "--zero";
        QTest::newRow("format") << QStringList {"--format", "xml"} << "--format";
        QTest::newRow("unknown") << QStringList {"--speed", "1"} << "--speed";
    }

    void badFlagsExitTwo()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        std::vector<std::string> argv {"sweep", "--case", m_casePath};
        for (const auto& a : args)
            argv.push_back(a.toStdString());
        const auto r = run(argv);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.find(message.toStdString()) != std::string::npos, r.err.c_str());
        QVERIFY(r.out.empty());
    }

    void missingCaseFileExitsTwo()
    {
        const auto r = run({"sweep", "--case", m_dir.filePath("absent.json").toStdString()});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.find("absent.json") != std::string::npos);
        // A directory opens on Linux and then reads as nothing: it is named as what it is, not "truncated JSON".
        const auto folder = run({"sweep", "--case", m_dir.path().toStdString()});
        QCOMPARE(folder.code, 2);
        QVERIFY2(folder.err.find("is a directory, not a file") != std::string::npos, folder.err.c_str());
    }

    /// What the engine refuses in a case (a GPU the catalog lacks) is named with the file and the case's id, the way
    /// the case reader names a bad field; estimate names both too.
    void unknownGpuNamesTheFileAndTheCase()
    {
        json c = smallCase();
        c["cluster"]["gpu"] = "A100-SXM-80G";
        const std::string path = m_dir.filePath("typo.json").toStdString();
        std::ofstream(path) << json::array({c}).dump();
        const auto r = run({"sweep", "--case", path, "--quiet"});
        QCOMPARE(r.code, 1); // as for a field out of range: the input is wrong, not the command line
        const std::string named = path + ": small_gpt_16xa100.cluster.gpu: unknown GPU \"A100-SXM-80G\"";
        QVERIFY2(r.err.find(named) != std::string::npos, r.err.c_str());
        const auto e = run({"estimate", "--case", path});
        QCOMPARE(e.code, 1);
        const std::string estimated = "estimate: " + path + ": small_gpt_16xa100: cluster.gpu: unknown GPU";
        QVERIFY2(e.err.find(estimated) == 0, e.err.c_str());
    }

    /// A case file of several cases names the one to sweep; without --case-id the sweep refuses to pick the first
    /// silently and lists the ids it could take.
    void severalCasesNeedAnId()
    {
        json other = smallCase();
        other["id"] = "small_gpt_pp4";
        other["parallelism"]["pp"] = 4;
        const std::string path = m_dir.filePath("two.json").toStdString();
        std::ofstream(path) << json::array({smallCase(), other}).dump();
        const auto ambiguous = run({"sweep", "--case", path, "--quiet"});
        QCOMPARE(ambiguous.code, 2); // the command line must say which: a usage error
        QVERIFY2(ambiguous.err.find("holds 2 cases") != std::string::npos, ambiguous.err.c_str());
        QVERIFY2(ambiguous.err.find("small_gpt_16xa100, small_gpt_pp4") != std::string::npos, ambiguous.err.c_str());
        QVERIFY(ambiguous.out.empty());
        // The second case's stated pp 4 is what every layout of its sweep carries.
        const auto chosen = run({"sweep", "--case", path, "--case-id", "small_gpt_pp4", "--json", "--quiet"});
        QCOMPARE(chosen.code, 0);
        const json top = json::parse(chosen.out).at("top");
        QVERIFY(!top.empty());
        for (const auto& row : top)
            QCOMPARE(row.at("layout").at("pp").get<int>(), 4);
        const auto unknown = run({"sweep", "--case", path, "--case-id", "nope", "--quiet"});
        QCOMPARE(unknown.code, 2);
        QVERIFY2(unknown.err.find("no case with id \"nope\"") != std::string::npos, unknown.err.c_str());
    }

    void bestEqualsBruteForce()
    {
        const auto r = run({"sweep", "--case", m_casePath, "--json", "--top", "1", "--quiet", "--threads", "2"});
        QCOMPARE(r.code, 0);
        const json best = json::parse(r.out)["top"][0];
        // Brute force: every candidate of the same space (pp fixed to 2 by the case), evaluated one by one.
        const ValidationCase c = readValidationCases(smallCase().dump()).front();
        SweepConstraints k;
        k.pp = 2;
        const TrainingLayoutEvaluator evaluator(c.scenario);
        double bestTokens = 0;
        LayoutCandidate bestCandidate;
        long long fitting = 0;
        for (const auto& candidate : enumerateLayouts(c.scenario, k)) {
            const LayoutResult result = evaluator.evaluate(candidate);
            if (!result.valid || !result.fits)
                continue;
            ++fitting;
            if (result.tokensPerSPerGpu > bestTokens) {
                bestTokens = result.tokensPerSPerGpu;
                bestCandidate = candidate;
            }
        }
        QVERIFY(fitting > 10);
        QCOMPARE(best["tokens_per_s_per_gpu"].get<double>(), bestTokens);
        // The reported layout, evaluated again, is one that reaches the brute-force best (ties may differ).
        LayoutCandidate reported = bestCandidate;
        const json& l = best["layout"];
        reported.layout.tp = l["tp"].get<int>();
        reported.layout.cp = l["cp"].get<int>();
        reported.layout.dp = l["dp"].get<int>();
        reported.layout.sequenceParallel = reported.layout.tp > 1;
        reported.layout.virtualStages = l["vpp"].get<int>();
        reported.microBatch = l["micro_batch"].get<int>();
        reported.zeroStage = l["zero_stage"].get<int>();
        reported.recompute = *enumFromString<Recompute>(l["recompute"].get<std::string>());
        reported.schedule = *enumFromString<PipelineSchedule>(l["schedule"].get<std::string>());
        QCOMPARE(evaluator.evaluate(reported).tokensPerSPerGpu, bestTokens);
    }

    void benchCaseSweepsEveryDimension()
    {
        // The case issue 11 times `clusterplanner sweep` on (bench_sweep's (b)): 207,840 layouts, all free. The
        // command's best and counts equal a one-by-one evaluation of the file's scenario.
        const std::string path = CLUSTERPLANNER_SOURCE_DIR "/bench/gpt3-175b-1024-a100-all-free.cplan.json";
        const auto r = run({"sweep", "--case", path, "--json", "--top", "3", "--quiet", "--threads", "2"});
        QCOMPARE(r.code, 0);
        const json out = json::parse(r.out);
        QCOMPARE(out["summary"]["evaluated"].get<long long>(), 207840LL);
        std::ifstream file(path);
        const Scenario scenario = readScenarioFile(std::string(std::istreambuf_iterator<char>(file), {}));
        QVERIFY(scenario.training.framework == Framework::Other);
        const TrainingLayoutEvaluator evaluator(scenario);
        double bestTokens = 0;
        long long fitting = 0;
        for (const auto& candidate : enumerateLayouts(scenario, {})) {
            const LayoutResult result = evaluator.evaluate(candidate);
            if (result.valid && result.fits) {
                ++fitting;
                bestTokens = std::max(bestTokens, result.tokensPerSPerGpu);
            }
        }
        QCOMPARE(out["summary"]["fitting"].get<long long>(), fitting);
        QCOMPARE(out["top"][0]["tokens_per_s_per_gpu"].get<double>(), bestTokens);
    }
};

QTEST_GUILESS_MAIN(TestSweepCommand)
#include "tst_sweepcommand.moc"
