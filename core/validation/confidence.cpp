// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/validation/confidence.h"

#include "core/model/enumnames.h"
#include "core/model/gpucatalog.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace clusterplanner::core {

extern const char* const kBuiltinConfidenceJson; // generated from data/confidence.json at build time

namespace {

std::string percent(double value, bool sign)
{
    char text[32];
    const double whole = std::round(value) == 0 ? 0.0 : std::round(value); // no "-0 %"
    std::snprintf(text, sizeof text, sign ? "%+.0f %%" : "%.0f %%", whole);
    return text;
}

/// Pools the entries that pass the filter into one band.
ConfidenceBand pool(const ConfidenceTable& table, const std::string& basis, BandMatch match, const std::string& label,
    const auto& accept)
{
    ConfidenceBand band;
    band.basis = basis;
    band.match = match;
    band.family = label;
    std::vector<double> errors;
    for (const auto& entry : table.families) {
        if (entry.basis != basis || !accept(entry.family))
            continue;
        errors.insert(errors.end(), entry.errorsPercent.begin(), entry.errorsPercent.end());
        band.minGpus = band.runs == 0 ? entry.minGpus : std::min(band.minGpus, entry.minGpus);
        band.maxGpus = std::max(band.maxGpus, entry.maxGpus);
        band.runs += int(entry.errorsPercent.size());
    }
    band.signedMedianPercent = signedMedian(errors);
    band.medianAbsPercent = medianAbs(errors);
    band.p90AbsPercent = percentileAbs(errors, 0.9);
    return band;
}

/// "a, b, c": names in a sentence.
std::string joined(const std::vector<std::string>& words)
{
    std::string text;
    for (const auto& w : words)
        text += (text.empty() ? "" : ", ") + w;
    return text;
}

/// The model's own runs, where any were validated on this GPU generation: named beside the family's band, and said
/// to lie beyond it where their median does as printed (rounded, so the sentence never contradicts its own figures).
/// "may": those runs can be under another framework, which alone moves errors a lot (docs/methods-time.md §4.43).
std::string modelStatementOf(const ConfidenceBand& b, const CaseFamily& f)
{
    if (b.modelRuns == 0)
        return "";
    const std::string where
        = " on " + f.gpuFamily + " (as " + joined(b.modelNames) + "; " + joined(b.modelFrameworks) + ")";
    std::string text = b.modelRuns == 1
        ? " This model's one validated run" + where + " reads " + percent(b.modelSignedMedianPercent, true)
        : " This model's " + std::to_string(b.modelRuns) + " validated runs" + where + " read "
            + percent(b.modelMinPercent, true) + " … " + percent(b.modelMaxPercent, true) + ", median "
            + percent(b.modelSignedMedianPercent, true);
    const bool banded = b.runs > 0 && b.match != BandMatch::Unvalidated;
    if (banded && std::abs(std::round(b.modelSignedMedianPercent)) > std::round(b.p90AbsPercent))
        text += ", beyond the band's p90: for this model the band above may understate the error";
    return text + ".";
}

std::string statementOf(const ConfidenceBand& b, const CaseFamily& f)
{
    const std::string what = b.basis == "throughput" ? "Throughput" : "Peak memory";
    if (b.runs == 0)
        return what + ": nothing validated for " + f.label() + " or anything near it; no error band."
            + modelStatementOf(b, f);
    if (b.match == BandMatch::Unvalidated)
        return what + ": outside anything validated (" + f.label() + "); the " + std::to_string(b.runs) + " " + b.family
            + "s validated elsewhere are within ±" + percent(b.medianAbsPercent, false) + " (median), ±"
            + percent(b.p90AbsPercent, false) + " (p90), which need not carry over." + modelStatementOf(b, f);
    std::string text = what + ": expected error ±" + percent(b.medianAbsPercent, false) + " (median), ±"
        + percent(b.p90AbsPercent, false) + " (p90); bias " + percent(b.signedMedianPercent, true) + " over "
        + std::to_string(b.runs) + " validated run" + (b.runs == 1 ? "" : "s") + " of " + b.family;
    switch (b.match) {
    case BandMatch::Family:
        text += ".";
        break;
    case BandMatch::Generation:
        // Name the whole key: a framework validated on dense Hopper runs is still unvalidated on Hopper MoE ones.
        if (b.familyRuns > 0)
            text += " (" + f.label() + " has " + std::to_string(b.familyRuns) + " validated run"
                + (b.familyRuns == 1 ? "" : "s") + " of its own, bias " + percent(b.familySignedMedianPercent, true)
                + ": too few for a band).";
        else
            text += " (" + f.label() + " itself is not validated).";
        break;
    case BandMatch::Framework:
        text += " (nothing validated on " + f.gpuFamily + ").";
        break;
    case BandMatch::Unvalidated:
        break;
    }
    if (b.outsideScale)
        text += " The run's " + std::to_string(f.gpus) + " GPUs lie outside the validated " + std::to_string(b.minGpus)
            + "–" + std::to_string(b.maxGpus) + ".";
    if (b.runs < kMinFamilyRuns && b.match != BandMatch::Unvalidated)
        text += " Few runs: a weak band.";
    return text + modelStatementOf(b, f);
}

/// Each word once, in order: the names and frameworks a statement lists, the same whatever order the runs came in.
std::vector<std::string> sortedUnique(std::vector<std::string> words)
{
    std::sort(words.begin(), words.end());
    words.erase(std::unique(words.begin(), words.end()), words.end());
    return words;
}

/// This model's own runs on the family's GPU generation (ModelErrors), pooled into the band's model fields.
void addModelRuns(ConfidenceBand& band, const CaseFamily& f, const ConfidenceTable& table)
{
    std::vector<double> errors;
    std::vector<std::string> names, frameworks;
    for (const auto& m : table.models) {
        if (m.basis != band.basis || m.gpuFamily != f.gpuFamily || !(m.shape == f.model))
            continue;
        errors.insert(errors.end(), m.errorsPercent.begin(), m.errorsPercent.end());
        names.insert(names.end(), m.names.begin(), m.names.end());
        frameworks.insert(frameworks.end(), m.frameworks.begin(), m.frameworks.end());
    }
    if (errors.empty())
        return;
    band.modelNames = sortedUnique(names);
    band.modelFrameworks = sortedUnique(frameworks);
    band.modelRuns = int(errors.size());
    band.modelSignedMedianPercent = signedMedian(errors);
    band.modelMinPercent = *std::min_element(errors.begin(), errors.end());
    band.modelMaxPercent = *std::max_element(errors.begin(), errors.end());
}

ConfidenceBand bandFor(const CaseFamily& f, const ConfidenceTable& table, const std::string& basis)
{
    const auto sameKind = [&](const CaseFamily& e) { return e.moe == f.moe; };
    ConfidenceBand band
        = pool(table, basis, BandMatch::Family, f.label(), [&](const CaseFamily& e) { return e.sameKey(f); });
    if (band.runs < kMinFamilyRuns) {
        // The generation's pool holds the family's own runs, so it is never the narrower statement of the two.
        ConfidenceBand generation = pool(table, basis, BandMatch::Generation,
            "all frameworks · " + f.gpuFamily + (f.moe ? " · MoE" : " · dense"),
            [&](const CaseFamily& e) { return sameKind(e) && e.gpuFamily == f.gpuFamily; });
        if (generation.runs > band.runs) {
            generation.familyRuns = band.runs;
            generation.familySignedMedianPercent = band.signedMedianPercent;
            band = generation;
        }
    }
    if (band.runs == 0)
        band = pool(table, basis, BandMatch::Framework, f.framework + " · all GPUs" + (f.moe ? " · MoE" : " · dense"),
            [&](const CaseFamily& e) { return sameKind(e) && e.framework == f.framework; });
    if (band.runs == 0)
        band = pool(table, basis, BandMatch::Unvalidated, std::string(f.moe ? "MoE" : "dense") + " run", sameKind);
    band.outsideScale = band.runs > 0 && (f.gpus > 2 * band.maxGpus || 2 * f.gpus < band.minGpus);
    addModelRuns(band, f, table);
    band.statement = statementOf(band, f);
    return band;
}

} // namespace

const char* toString(BandMatch match)
{
    switch (match) {
    case BandMatch::Family:
        return "family";
    case BandMatch::Generation:
        return "same_gpu_generation";
    case BandMatch::Framework:
        return "same_framework";
    case BandMatch::Unvalidated:
        return "unvalidated";
    }
    return "unvalidated";
}

std::vector<ConfidenceBand> confidenceBands(const Scenario& scenario, const ConfidenceTable& table)
{
    // A GPU the catalog does not know gives no prediction, so there is no error band to state either.
    if (!GpuCatalog::builtin().find(scenario.cluster.gpuId))
        return {};
    const CaseFamily family = caseFamily(scenario);
    return {bandFor(family, table, "throughput"), bandFor(family, table, "peak_memory_gib")};
}

std::vector<ConfidenceBand> confidenceBands(const Scenario& scenario)
{
    return confidenceBands(scenario, builtinConfidenceTable());
}

const ConfidenceTable& builtinConfidenceTable()
{
    static const ConfidenceTable table = parseConfidenceTable(kBuiltinConfidenceJson);
    return table;
}

namespace {

ModelErrors parseModelRow(const nlohmann::json& row, const std::string& where)
{
    ModelErrors m;
    try {
        m.names = row.at("names").get<std::vector<std::string>>();
        m.gpuFamily = row.at("gpu_family").get<std::string>();
        m.basis = row.at("basis").get<std::string>();
        if (m.basis != "throughput" && m.basis != "peak_memory_gib")
            throw std::runtime_error(where + ".basis: \"throughput\" or \"peak_memory_gib\" (got \"" + m.basis + "\")");
        const std::string mlp = row.at("mlp").get<std::string>();
        const auto mlpKind = enumFromString<MlpKind>(mlp);
        if (!mlpKind)
            throw std::runtime_error(where + ".mlp: unknown value \"" + mlp + "\"");
        ModelShape& shape = m.shape;
        shape.layers = row.at("layers").get<int>();
        shape.hidden = row.at("hidden").get<int>();
        shape.heads = row.at("heads").get<int>();
        shape.kvHeads = row.at("kv_heads").get<int>();
        shape.denseFfn = row.at("dense_ffn").get<int>();
        shape.mlp = *mlpKind;
        shape.paddedVocab = row.at("padded_vocab").get<int>();
        shape.experts = row.at("experts").get<int>();
        shape.sharedExperts = row.at("shared_experts").get<int>();
        shape.expertFfn = row.at("expert_ffn").get<int>();
        shape.topK = row.at("top_k").get<int>();
        shape.moeLayers = row.at("moe_layers").get<int>();
        m.frameworks = row.at("frameworks").get<std::vector<std::string>>();
        m.errorsPercent = row.at("errors_percent").get<std::vector<double>>();
    } catch (const nlohmann::json::exception& error) {
        throw std::runtime_error(where + ": " + error.what());
    }
    return m;
}

} // namespace

ConfidenceTable parseConfidenceTable(const std::string& text)
{
    const auto document = nlohmann::json::parse(text);
    ConfidenceTable table;
    if (const auto models = document.find("models"); models != document.end()) { // absent before version 2
        if (!models->is_array())
            throw std::runtime_error("models: an array of model rows");
        for (std::size_t i = 0; i < models->size(); ++i)
            table.models.push_back(parseModelRow((*models)[i], "models[" + std::to_string(i) + "]"));
    }
    const auto& families = document.at("families");
    for (std::size_t i = 0; i < families.size(); ++i) {
        const auto& row = families[i];
        const std::string where = "families[" + std::to_string(i) + "]";
        try {
            ConfidenceEntry e;
            e.family.framework = row.at("framework").get<std::string>();
            e.family.gpuFamily = row.at("gpu_family").get<std::string>();
            e.family.moe = row.at("moe").get<bool>();
            e.basis = row.at("basis").get<std::string>();
            if (e.basis != "throughput" && e.basis != "peak_memory_gib")
                throw std::runtime_error(
                    where + ".basis: \"throughput\" or \"peak_memory_gib\" (got \"" + e.basis + "\")");
            e.errorsPercent = row.at("errors_percent").get<std::vector<double>>();
            e.minGpus = row.at("min_gpus").get<int>();
            e.maxGpus = row.at("max_gpus").get<int>();
            table.families.push_back(std::move(e));
        } catch (const nlohmann::json::exception& error) {
            throw std::runtime_error(where + ": " + error.what());
        }
    }
    return table;
}

namespace {

/// Every run's errors grouped by model (ModelShape), GPU generation and basis, in name order.
std::vector<ModelErrors> modelErrors(const std::vector<ValidationReport>& reports)
{
    std::vector<ModelErrors> models;
    for (const auto& report : reports) {
        for (const RunError& e : runErrors(report)) {
            const CaseFamily& f = e.row->family;
            auto it = std::find_if(models.begin(), models.end(), [&](const ModelErrors& m) {
                return m.basis == e.basis && m.gpuFamily == f.gpuFamily && m.shape == f.model;
            });
            if (it == models.end()) {
                models.push_back({f.model, {}, f.gpuFamily, e.basis, {}, {}});
                it = models.end() - 1;
            }
            it->errorsPercent.push_back(std::round(e.errorPercent * 10) / 10);
            it->names.push_back(f.modelName);
            it->frameworks.push_back(f.framework);
        }
    }
    for (auto& m : models) {
        m.names = sortedUnique(m.names);
        m.frameworks = sortedUnique(m.frameworks);
    }
    std::stable_sort(models.begin(), models.end(), [](const ModelErrors& a, const ModelErrors& b) {
        return a.names.front() + a.gpuFamily + a.basis < b.names.front() + b.gpuFamily + b.basis;
    });
    return models;
}

nlohmann::ordered_json modelRowsJson(const std::vector<ModelErrors>& models)
{
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const auto& m : models)
        rows.push_back({{"names", m.names}, {"gpu_family", m.gpuFamily}, {"basis", m.basis}, {"layers", m.shape.layers},
            {"hidden", m.shape.hidden}, {"heads", m.shape.heads}, {"kv_heads", m.shape.kvHeads},
            {"dense_ffn", m.shape.denseFfn}, {"mlp", toString(m.shape.mlp)}, {"padded_vocab", m.shape.paddedVocab},
            {"experts", m.shape.experts}, {"shared_experts", m.shape.sharedExperts}, {"expert_ffn", m.shape.expertFfn},
            {"top_k", m.shape.topK}, {"moe_layers", m.shape.moeLayers}, {"frameworks", m.frameworks},
            {"errors_percent", m.errorsPercent}});
    return rows;
}

} // namespace

std::string confidenceTableJson(const std::vector<ValidationReport>& reports, const std::string& producedBy)
{
    // Merge the reports' families (the same family in the dev set and the external checks pools its runs).
    std::vector<FamilySummary> merged;
    for (const auto& report : reports) {
        for (const auto& f : familySummaries(report)) {
            auto it = std::find_if(merged.begin(), merged.end(),
                [&](const FamilySummary& m) { return m.basis == f.basis && m.family.sameKey(f.family); });
            if (it == merged.end()) {
                merged.push_back(f);
                continue;
            }
            it->errorsPercent.insert(it->errorsPercent.end(), f.errorsPercent.begin(), f.errorsPercent.end());
            it->minGpus = std::min(it->minGpus, f.minGpus);
            it->maxGpus = std::max(it->maxGpus, f.maxGpus);
        }
    }
    std::stable_sort(merged.begin(), merged.end(), [](const FamilySummary& a, const FamilySummary& b) {
        return a.family.label() + a.basis < b.family.label() + b.basis;
    });
    nlohmann::ordered_json families = nlohmann::ordered_json::array();
    for (const auto& f : merged) {
        std::vector<double> rounded;
        for (double e : f.errorsPercent)
            rounded.push_back(std::round(e * 10) / 10);
        families.push_back(
            {{"framework", f.family.framework}, {"gpu_family", f.family.gpuFamily}, {"moe", f.family.moe},
                {"basis", f.basis}, {"min_gpus", f.minGpus}, {"max_gpus", f.maxGpus}, {"errors_percent", rounded}});
    }
    nlohmann::ordered_json document {{"format", "clusterplanner-confidence"}, {"version", 2},
        {"comment",
            "Generated, do not edit: " + producedBy
                + ". Signed errors (percent, + = predicted too fast / too much memory) of every validated run per "
                  "family (framework x GPU generation x dense/MoE), from the development set and the external "
                  "checks, and again per model (its shape: layers, hidden size, heads, FFN, experts) and GPU "
                  "generation; estimate reads them as the expected error band of a prediction and names the "
                  "model's own runs beside it (core/validation/confidence.h)."},
        {"families", families}, {"models", modelRowsJson(modelErrors(reports))}};
    return document.dump(1) + "\n";
}

} // namespace clusterplanner::core
