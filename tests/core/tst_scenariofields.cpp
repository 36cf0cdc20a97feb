// SPDX-License-Identifier: GPL-3.0-or-later
// The scenario field table is the one description of a scenario's fields: the file writer and reader, and
// docs/scenario-format.md, agree with it.
#include "core/io/scenariojson.h"
#include "core/model/scenariofields.h"

#include <nlohmann/json.hpp>

#include <QDebug>
#include <QTest>

#include <algorithm>

#include <fstream>
#include <iterator>
#include <set>

using namespace clusterplanner::core;
using nlohmann::json;

namespace {

const std::string kDocPath = CLUSTERPLANNER_SOURCE_DIR "/docs/scenario-format.md";
const std::string kBegin = "<!-- field table: generated from core/model/scenariofields.cpp -->\n";
const std::string kEnd = "<!-- end of field table -->";

json::json_pointer pointer(std::string_view path)
{
    std::string text = "/" + std::string(path);
    std::replace(text.begin(), text.end(), '.', '/');
    return json::json_pointer(text);
}

/// Dotted paths of every leaf (and null object) the writer produces.
void collectPaths(const json& value, const std::string& prefix, std::set<std::string>& out)
{
    if (!value.is_object()) {
        out.insert(prefix);
        return;
    }
    if (!prefix.empty())
        out.insert(prefix); // objects with a row of their own (model.moe) are matched below
    for (const auto& [key, child] : value.items())
        collectPaths(child, prefix.empty() ? key : prefix + "." + key, out);
}

/// The default scenario with an MoE part and latent attention (DeepSeek-V3's widths, every head with its own key and
/// value), so that every field has a value in its JSON.
json defaultJsonWithMoe()
{
    Scenario s = defaultScenario();
    s.model.moe = MoeConfig {};
    s.model.mla = MlaConfig {512, 1536, 128, 64, 128};
    s.model.kvHeads = s.model.heads;
    return scenarioToJson(s);
}

std::string docText()
{
    std::ifstream stream(kDocPath);
    return {std::istreambuf_iterator<char>(stream), std::istreambuf_iterator<char>()};
}

/// The sample file text with the value at `path` replaced.
std::string withValue(std::string_view path, const json& value)
{
    json scenario = defaultJsonWithMoe();
    scenario[pointer(path)] = value;
    return json {{"format", kScenarioFormatName}, {"version", kScenarioFormatVersion}, {"scenario", scenario}}.dump();
}

QString rejection(std::string_view path, const json& value)
{
    try {
        readScenarioFile(withValue(path, value));
    } catch (const ScenarioFormatError& error) {
        return QString::fromUtf8(error.what());
    }
    return {};
}

bool isBounded(const ScenarioField& f)
{
    return f.kind == FieldKind::Integer || f.kind == FieldKind::Number;
}

} // namespace

class TestScenarioFields : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void tableNamesEveryFieldTheWriterWrites()
    {
        std::set<std::string> written;
        collectPaths(defaultJsonWithMoe(), "", written);
        std::set<std::string> tabled;
        for (const auto& f : scenarioFields())
            if (!f.view) // the engine's view: version-1 files only
                tabled.insert(std::string(f.path));
        for (const auto& path : written)
            QVERIFY2(tabled.count(path) || path == "cluster" || path == "economics" || path == "training"
                    || path == "training.layout" || path == "model" || path == "cluster.fabric"
                    || path == "cluster.facility",
                path.c_str());
        for (const auto& path : tabled)
            QVERIFY2(written.count(path), path.c_str());
    }

    void defaultsAreTheDefaultScenarios()
    {
        const json written = scenarioToJson(defaultScenario());
        const json withMoe = defaultJsonWithMoe();
        for (const auto& f : scenarioFields()) {
            if (f.view || f.kind == FieldKind::List) // not in a version-2 file; lists: see the sample
                continue;
            const bool optionalPart = f.path.starts_with("model.moe.") || f.path.starts_with("model.mla.");
            const json expected = optionalPart ? withMoe.at(pointer(f.path)) : written.at(pointer(f.path));
            QVERIFY2(json::parse(f.defaultJson) == expected, std::string(f.path).c_str());
        }
    }

    void keyIsTheLastSegment()
    {
        QCOMPARE(std::string(scenarioField("training.micro_batch").key()), std::string("micro_batch"));
        QCOMPARE(std::string(scenarioField("notes").key()), std::string("notes"));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, scenarioField("training.microBatch"));
    }

    void readerHoldsTheTablesBoundsAndNamesTheField()
    {
        int checked = 0;
        for (const auto& f : scenarioFields()) {
            if (!isBounded(f) || f.view) // view fields: version-1 files, checked by tst_clusterspec
                continue;
            const bool whole = f.kind == FieldKind::Integer;
            const json below = whole ? json(static_cast<long long>(f.min) - 1) : json(f.min - 1e-3 * (1 + f.min));
            const json above = whole ? json(static_cast<long long>(f.max) + 1) : json(f.max * 1.001 + 1);
            for (const json& bad : {below, above}) {
                const QString message = rejection(f.path, bad);
                QVERIFY2(message.startsWith(QString::fromUtf8(f.path.data(), f.path.size()) + QLatin1Char(':')),
                    qPrintable(QString::fromStdString(std::string(f.path)) + QLatin1String(" → ") + message));
            }
            // The bound itself is accepted, unless another field depends on this one and objects.
            const QString atMin = rejection(f.path, whole ? json(static_cast<long long>(f.min)) : json(f.min));
            QVERIFY2(!atMin.startsWith(QString::fromUtf8(f.path.data(), f.path.size()) + QLatin1Char(':'))
                    || !f.bound.empty(),
                qPrintable(atMin));
            ++checked;
        }
        QVERIFY(checked >= 30);
    }

    void docCarriesTheGeneratedTable()
    {
        const std::string doc = docText();
        const auto begin = doc.find(kBegin);
        const auto end = doc.find(kEnd);
        QVERIFY2(begin != std::string::npos && end != std::string::npos, kDocPath.c_str());
        const std::string inDoc = doc.substr(begin + kBegin.size(), end - begin - kBegin.size());
        const std::string generated = scenarioFieldsMarkdown();
        if (inDoc != generated) {
            // Print the table so that whoever changed the fields can paste it into the document.
            qWarning().noquote() << "docs/scenario-format.md is out of date; its field table should read:\n"
                                 << QString::fromStdString(generated);
        }
        QCOMPARE(inDoc, generated);
    }
};

QTEST_GUILESS_MAIN(TestScenarioFields)
#include "tst_scenariofields.moc"
