// SPDX-License-Identifier: GPL-3.0-or-later
// data/costs.json and data/models.json: every row has a source, bad files are rejected naming the row, and the
// compiled-in values are the ones the engine's defaults use.
#include "core/cost/costmodel.h"
#include "core/model/costdefaults.h"
#include "core/model/modelpresets.h"
#include "core/model/scenario.h"
#include "core/sched/clustermodel.h"

#include <QTest>

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

using namespace clusterplanner::core;

namespace {

std::string readFile(const char* path)
{
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

nlohmann::json costsFile()
{
    return nlohmann::json::parse(readFile(CLUSTERPLANNER_DATA_DIR "/costs.json"));
}

/// The message of fromJson on `document`, or "" when it was accepted.
std::string rejection(const nlohmann::json& document)
{
    try {
        CostDefaults::fromJson(document.dump());
    } catch (const std::runtime_error& error) {
        return error.what();
    }
    return {};
}

} // namespace

class TestCostDefaults : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyRowHasAUnitAndASource()
    {
        // Named first: a range-for over a member of a temporary reads freed memory (the temporary dies before the
        // loop body runs; ASan found it).
        const nlohmann::json costs = costsFile();
        for (const auto& row : costs["assumptions"]) {
            QVERIFY(!row["unit"].get<std::string>().empty());
            QVERIFY2(row["source"].get<std::string>().size() > 10, row["key"].get<std::string>().c_str());
        }
        const nlohmann::json models = nlohmann::json::parse(readFile(CLUSTERPLANNER_DATA_DIR "/models.json"));
        for (const auto& model : models["models"])
            QVERIFY2(model["source"].get<std::string>().size() > 10, model["name"].get<std::string>().c_str());
    }

    void defaultsFollowTheFile()
    {
        const CostDefaults& d = costDefaults();
        // Named first: a range-for over a member of a temporary reads freed memory (the temporary dies before the
        // loop body runs; ASan found it).
        const nlohmann::json costs = costsFile();
        for (const auto& row : costs["assumptions"]) {
            const std::string key = row["key"];
            const double value = row["value"];
            if (key == "pue") {
                QCOMPARE(d.pue, value);
                QCOMPARE(EconomicsConfig().pue, value);
                QCOMPARE(cost::CostAssumptions().pue, value);
            } else if (key == "usd_per_kwh") {
                QCOMPARE(EconomicsConfig().electricityUsdPerKwh, value);
                QCOMPARE(cost::CostAssumptions().usdPerKwh, value);
            } else if (key == "node_overhead_w") {
                QCOMPARE(cost::CostAssumptions().nodeOverheadW, value);
                QCOMPARE(sched::NodeType().overheadKw, value / 1000);
            } else if (key == "node_overhead_usd") {
                QCOMPARE(cost::CostAssumptions().nodeOverheadUsd, value);
            }
        }
    }

    void badFilesNameTheRow_data()
    {
        QTest::addColumn<QString>("change");
        QTest::addColumn<QString>("message");
        QTest::newRow("no source") << "source"
                                   << "\"pue\": needs a source";
        QTest::newRow("unknown key") << "key"
                                     << "\"power_factor\": unknown key";
        QTest::newRow("below minimum") << "value"
                                       << "\"pue\": value must be at least 1";
        QTest::newRow("missing row") << "drop"
                                     << "\"pue\": missing";
    }

    void badFilesNameTheRow()
    {
        QFETCH(QString, change);
        QFETCH(QString, message);
        nlohmann::json document = costsFile();
        auto& rows = document["assumptions"];
        for (auto it = rows.begin(); it != rows.end(); ++it) {
            if ((*it)["key"] != "pue")
                continue;
            if (change == "source")
                it->erase("source");
            else if (change == "key")
                (*it)["key"] = "power_factor";
            else if (change == "value")
                (*it)["value"] = 0.5;
            else
                rows.erase(it);
            break;
        }
        const std::string error = rejection(document);
        QVERIFY2(QString::fromStdString(error).contains(message), error.c_str());
    }

    void modelPresetsComeFromTheFile()
    {
        const auto models = nlohmann::json::parse(readFile(CLUSTERPLANNER_DATA_DIR "/models.json"))["models"];
        QCOMPARE(modelPresets().size(), models.size());
        QCOMPARE(modelPreset("Llama 3 405B").layers, 126);
        QVERIFY(modelPreset("DeepSeek-V3").moe.has_value());
        QCOMPARE(modelPreset("DeepSeek-V3").moe->moeLayers, 58);
        QCOMPARE(modelPreset("Qwen3-30B-A3B").headDim, 128); // heads of 128 over a hidden size of 2,048
        QCOMPARE(modelPreset("Llama 3 8B").headDim, 0); // hidden / heads
        auto broken = nlohmann::json::parse(readFile(CLUSTERPLANNER_DATA_DIR "/models.json"));
        broken["models"][1]["mlp"] = "relu";
        try {
            modelPresetsFromJson(broken.dump());
            QFAIL("a model with an unknown MLP kind was accepted");
        } catch (const std::runtime_error& error) {
            QVERIFY2(std::string(error.what()).find("model 2 (Llama 3 8B): mlp") != std::string::npos, error.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestCostDefaults)
#include "tst_costdefaults.moc"
