// SPDX-License-Identifier: GPL-3.0-or-later
// Tests of `clusterplanner cost --scenario FILE`: the cost model fed by the training engine's hours.
#include "cli/commands.h"
#include "tests/cli/clitesthelpers.h"

#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <sstream>

using namespace clusterplanner::cli;
using clitest::closeRelative;
using clitest::readFile;
using clitest::run;
using clitest::Run;

namespace {

const std::string kGpt3 = CLUSTERPLANNER_DATA_DIR "/scenarios/gpt3-175b-1024-a100.cplan.json";

} // namespace

class TestCostCommand : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void gpt3RunCostFollowsFromTheEngineHours()
    {
        const Run r = run({"cost", "--scenario", kGpt3, "--json"});
        QCOMPARE(r.code, 0);
        const auto doc = nlohmann::json::parse(r.out);
        const auto& engine = doc["engine"];
        const double tokensPerS = engine["tokens_per_s"].get<double>();
        QVERIFY(tokensPerS > 0);
        // The scenario: 300e9 tokens, 1,024 A100 at $1/GPU-h, PUE 1.58, 8.06 ¢/kWh.
        const double hours = 300e9 / tokensPerS / 3600;
        QVERIFY(closeRelative(engine["training_hours"].get<double>(), hours, 1e-12));
        QVERIFY(closeRelative(engine["gpu_hours"].get<double>(), 1024 * hours, 1e-12));
        const auto& runCost = doc["run"];
        QVERIFY(closeRelative(runCost["cost_usd"].get<double>(), 1024 * hours * 1.0, 1e-12));
        QVERIFY(closeRelative(runCost["usd_per_million_tokens"].get<double>(), 1024 * hours / 300'000, 1e-12));
        // Engine power per GPU: TDP 400 W × (0.9 GPU draw + 0.8 node overhead), data/efficiency.json defaults;
        // facility energy = GPUs × W × hours / 1000 × PUE (docs/methods-cost.md §8).
        const double energyKwh = 1024 * 400 * 1.7 * hours / 1000 * 1.58;
        QVERIFY(closeRelative(runCost["energy_kwh"].get<double>(), energyKwh, 1e-12));
        QVERIFY(closeRelative(runCost["energy_cost_usd"].get<double>(), energyKwh * 0.0806, 1e-12));
        // Sanity of the engine itself: N21 reports 34 days at 140 TFLOP/s per GPU; any sane estimate is weeks.
        QVERIFY(hours > 14 * 24 && hours < 90 * 24);
    }

    void gpt3OwnedClusterFigures()
    {
        const Run r = run({"cost", "--scenario", kGpt3, "--years", "3", "--json"});
        QCOMPARE(r.code, 0);
        const auto doc = nlohmann::json::parse(r.out);
        QCOMPARE(doc["gpus"].get<int>(), 1024);
        QCOMPARE(doc["nodes"].get<int>(), 128);
        // Catalog A100 80GB purchase $8k–15k; nodes $90k overhead each; fabric $4,250 per GPU (costmodel.h).
        const double fixedUsd = 128 * 90'000.0 + 1024 * 4'250.0;
        QCOMPARE(doc["price_levels"]["capex_usd"]["low"].get<double>(), 1024 * 8'000.0 + fixedUsd);
        QCOMPARE(doc["price_levels"]["capex_usd"]["mid"].get<double>(), 1024 * 11'500.0 + fixedUsd);
        QCOMPARE(doc["price_levels"]["capex_usd"]["high"].get<double>(), 1024 * 15'000.0 + fixedUsd);
        QCOMPARE(doc["capex_usd"].get<double>(), 1024 * 11'500.0 + fixedUsd); // --price mid, the default
        // Power drawn 24/7 as the engine charges it: 1,024 × 400 W × 1.7 × PUE 1.58.
        const double facilityKw = 1024 * 0.4 * 1.7 * 1.58;
        QVERIFY(closeRelative(doc["facility_power_kw"].get<double>(), facilityKw, 1e-12));
        const double opexPerYear = facilityKw * 8760 * 0.0806;
        QVERIFY(closeRelative(doc["opex_per_year_usd"].get<double>(), opexPerYear, 1e-12));
        QVERIFY(closeRelative(
            doc["price_levels"]["tco_usd"]["mid"].get<double>(), 1024 * 11'500.0 + fixedUsd + 3 * opexPerYear, 1e-12));
        QVERIFY(closeRelative(doc["tco_usd"].get<double>(), 1024 * 11'500.0 + fixedUsd + 3 * opexPerYear, 1e-12));
        QVERIFY(closeRelative(doc["cloud"]["cost_over_years_usd"].get<double>(), 1024 * 8760 * 3 * 1.0, 1e-12));
        // The owned cluster's energy over the run equals the engine's run energy (same power model).
        const double hours = doc["engine"]["training_hours"].get<double>();
        QVERIFY(closeRelative(doc["run"]["energy_kwh"].get<double>(), facilityKw * hours, 1e-12));
    }

    void bothWaysPrintTheSameCostFields()
    {
        const Run byScenario = run({"cost", "--scenario", kGpt3, "--json"});
        const Run byGpus = run({"cost", "--gpus", "1024", "--gpu", "A100-SXM-80GB", "--hours", "240", "--json"});
        QCOMPARE(byScenario.code, 0);
        QCOMPARE(byGpus.code, 0);
        const auto scenario = nlohmann::json::parse(byScenario.out);
        const auto gpus = nlohmann::json::parse(byGpus.out);
        for (const auto& [key, value] : gpus.items()) {
            QVERIFY2(scenario.contains(key), key.c_str());
            QCOMPARE(scenario[key].type(), value.type());
        }
        for (const auto& [key, value] : gpus["assumptions"].items())
            QVERIFY2(scenario["assumptions"].contains(key), key.c_str());
        // The hours priced are the engine's run time, and the energy over them is the run's energy.
        QCOMPARE(scenario["hours"].get<double>(), scenario["engine"]["training_hours"].get<double>());
        QVERIFY(
            closeRelative(scenario["energy_kwh"].get<double>(), scenario["run"]["energy_kwh"].get<double>(), 1e-12));
        const Run textScenario = run({"cost", "--scenario", kGpt3});
        const Run textGpus = run({"cost", "--gpus", "8", "--gpu", "A100-SXM-80GB", "--hours", "10"});
        for (const char* label :
            {"capex (USD)", "opex per year (USD)", "TCO (USD)", "IT power (kW)", "facility power (kW)", "energy (kWh)",
                "owned cost (USD)", "cloud cost (USD)", "effective USD/GPU-h", "break-even hours"}) {
            QVERIFY2(textScenario.out.find(label) != std::string::npos, label);
            QVERIFY2(textGpus.out.find(label) != std::string::npos, label);
        }
    }

    void textReportNamesTheFigures()
    {
        const Run r = run({"cost", "--scenario", kGpt3});
        QCOMPARE(r.code, 0);
        for (const char* label : {"tokens/s", "capex (USD)", "TCO (USD)", "opex per year", "cloud USD/GPU-h",
                 "run cost, cloud (USD)", "run USD per million tokens", "run energy (kWh)"})
            QVERIFY2(r.out.find(label) != std::string::npos, label);
    }

    void textSaysWhichModelPricesEachBlock()
    {
        // The per-GPU model and the counted cluster price different things (the cluster adds switches, storage,
        // facility and full-load power); unlabelled, their two capex lines read as a contradiction.
        const Run r = run({"cost", "--scenario", kGpt3});
        QCOMPARE(r.code, 0);
        const auto perGpu = r.out.find("per-GPU cost model of the run's GPUs");
        const auto cluster = r.out.find("whole cluster as its topology counts it");
        QVERIFY2(perGpu != std::string::npos && cluster != std::string::npos, r.out.c_str());
        QVERIFY(perGpu < r.out.find("capex (USD)"));
        QVERIFY(cluster < r.out.find("bisection (Gb/s)"));
        QVERIFY(perGpu < cluster);
        // Without a scenario there is one model and no heading to tell apart.
        const Run gpus = run({"cost", "--gpus", "8", "--gpu", "A100-SXM-80GB", "--hours", "10"});
        QVERIFY(gpus.out.find("per-GPU cost model") == std::string::npos);
    }

    void badScenarioNamesTheField()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        std::string text = readFile(kGpt3);
        const auto at = text.find("\"layers\": 96");
        QVERIFY(at != std::string::npos);
        text.replace(at, 12, "\"layers\": -3");
        const std::string path = dir.filePath("bad.cplan.json").toStdString();
        std::ofstream(path) << text;
        Run r = run({"cost", "--scenario", path});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.find("bad.cplan.json: model.layers: must be at least 1 (got -3)") != std::string::npos,
            r.err.c_str());
        QVERIFY(r.out.empty());

        r = run({"cost", "--scenario", dir.filePath("missing.json").toStdString()});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.find("cannot read") != std::string::npos, r.err.c_str());

        // A run the engine refuses (FP8 on the sample's A100s) is not priced at the 16-bit rate instead.
        std::string fp8 = readFile(kGpt3);
        const auto precision = fp8.find("\"precision\": \"amp_fp16\"");
        QVERIFY(precision != std::string::npos);
        fp8.replace(precision, std::string("\"precision\": \"amp_fp16\"").size(), "\"precision\": \"fp8\"");
        const std::string fp8Path = dir.filePath("fp8.cplan.json").toStdString();
        std::ofstream(fp8Path) << fp8;
        r = run({"cost", "--scenario", fp8Path, "--json"});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.find("training.precision: fp8 needs FP8 tensor cores") != std::string::npos, r.err.c_str());
        QVERIFY(r.out.empty());
    }

    void jsonReportsTheWholeClusterAndTheRun()
    {
        // gpt3 sample: 1,024 A100 in 128 nodes, one NIC of 200 Gb/s per GPU; 1,024 NIC ports fit the 64 × 32 = 2,048
        // of two tiers of 64-port switches: leaf + spine.
        const Run r = run({"cost", "--scenario", kGpt3, "--json"});
        QCOMPARE(r.code, 0);
        const auto doc = nlohmann::json::parse(r.out);
        const auto& c = doc["cluster"];
        for (const char* key : {"nodes", "gpus", "racks", "scale_up_domains", "peak_pflops_bf16", "peak_pflops_fp8",
                 "hbm_total_tb", "tiers", "bisection_gbps", "switches", "links", "it_power_kw", "facility_power_kw",
                 "max_rack_kw", "capex_nodes_usd", "capex_network_usd", "capex_storage_usd", "capex_facility_usd",
                 "capex_usd", "opex_energy_usd_per_year", "opex_maintenance_usd_per_year", "opex_usd_per_year",
                 "lifetime_years", "tco_usd", "cloud_equivalent_usd", "issues"})
            QVERIFY2(c.contains(key), key);
        QCOMPARE(c["gpus"].get<int>(), 1024);
        QCOMPARE(c["nodes"].get<int>(), 128);
        QCOMPARE(c["tiers"].size(), std::size_t(2));
        // Bisection: 1,024 NIC links at 200 Gb/s, non-blocking: 1,024 × 200 / 2.
        QCOMPARE(c["bisection_gbps"].get<double>(), 102'400.0);
        // The figures add up as docs/methods-cluster.md §6 says.
        const double capex = c["capex_nodes_usd"].get<double>() + c["capex_network_usd"].get<double>()
            + c["capex_storage_usd"].get<double>() + c["capex_facility_usd"].get<double>();
        QVERIFY(closeRelative(c["capex_usd"].get<double>(), capex, 1e-12));
        QVERIFY(closeRelative(c["tco_usd"].get<double>(),
            capex + c["lifetime_years"].get<double>() * c["opex_usd_per_year"].get<double>(), 1e-12));
        QVERIFY(closeRelative(c["facility_power_kw"].get<double>(), c["it_power_kw"].get<double>() * 1.58, 1e-12));
        const auto& trainingRun = doc["training_run"];
        QVERIFY(trainingRun["fits"].get<bool>());
        // Same engine, same run: the training run's rate is the engine's.
        QVERIFY(closeRelative(
            trainingRun["tokens_per_s"].get<double>(), doc["engine"]["tokens_per_s"].get<double>(), 1e-12));
        QVERIFY(closeRelative(trainingRun["time_to_train_days"].get<double>(),
            doc["engine"]["training_hours"].get<double>() / 24, 1e-12));
        QVERIFY(closeRelative(trainingRun["cloud_usd_per_million_tokens"].get<double>(),
            doc["run"]["usd_per_million_tokens"].get<double>(), 1e-12));
        QVERIFY(trainingRun["owned_usd_per_million_tokens"].get<double>() > 0);
        // Text output still works and names the cluster.
        const Run text = run({"cost", "--scenario", kGpt3});
        QCOMPARE(text.code, 0);
        QVERIFY(text.out.find("bisection (Gb/s)") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestCostCommand)
#include "tst_costcommand.moc"
