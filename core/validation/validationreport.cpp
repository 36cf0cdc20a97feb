// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/validation/validationreport.h"

#include "core/memory/memorymodel.h"
#include "core/validation/casepredictor.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>

namespace clusterplanner::core {

namespace {

/// One quantity both sides may carry.
struct Quantity
{
    const char* name;
    std::optional<double> ValidationTruth::*truth;
    std::optional<double> CasePrediction::*predicted;
};

constexpr Quantity kQuantities[] = {
    {"peak_memory_gib", &ValidationTruth::peakMemoryGiB, &CasePrediction::peakMemoryGiB},
    {"tokens_per_s_per_gpu", &ValidationTruth::tokensPerSPerGpu, &CasePrediction::tokensPerSPerGpu},
    {"step_time_s", &ValidationTruth::stepTimeS, &CasePrediction::stepTimeS},
    {"model_tflops_per_gpu", &ValidationTruth::modelTflopsPerGpu, &CasePrediction::modelTflopsPerGpu},
    {"mfu", &ValidationTruth::mfu, &CasePrediction::mfu},
};

std::optional<double> predictedValue(const Quantity& q, const CasePrediction& p, const ValidationTruth& t)
{
    if (!p.ok)
        return std::nullopt;
    // A reserved truth is compared with the reserved prediction; allocated and unknown with allocated.
    if (q.truth == &ValidationTruth::peakMemoryGiB && t.memoryKind == "reserved")
        return p.peakReservedGiB;
    return p.*(q.predicted);
}

void addCase(const ValidationCase& c, const ValidationTruth& t, const perf::EfficiencyTable* table,
    ValidationReport& report, std::map<std::string, QuantitySummary>& summaries)
{
    const CasePrediction p = predictCase(c, table);
    if (!p.ok)
        report.failures.push_back(c.id + ": " + p.error);
    else {
        ++report.evaluatedCases;
        if (!p.memory.fits)
            report.notFitting.push_back({c.id, p.memory.peakReservedBytes / kGiB, p.memory.usableBytes / kGiB});
    }
    for (const Quantity& q : kQuantities) {
        const std::optional<double> measured = t.*(q.truth);
        if (!measured)
            continue;
        const std::optional<double> predicted = predictedValue(q, p, t);
        if (!predicted || *measured == 0) {
            ++summaries[q.name].missing;
            continue;
        }
        ValidationRow row {c.id, q.name, *predicted, *measured, 100.0 * (*predicted - *measured) / *measured, "",
            caseFamily(c.scenario)};
        if (q.truth == &ValidationTruth::peakMemoryGiB)
            row.note = t.memoryKind;
        report.rows.push_back(row);
    }
}

std::string number(double value, int digits)
{
    char text[48];
    std::snprintf(text, sizeof text, "%.*f", digits, value);
    return text;
}

} // namespace

double percentileAbs(std::vector<double> values, double q)
{
    if (values.empty())
        return 0;
    for (double& v : values)
        v = std::fabs(v);
    std::sort(values.begin(), values.end());
    const auto rank = std::size_t(std::ceil(q * double(values.size())));
    return values[std::clamp<std::size_t>(rank, 1, values.size()) - 1];
}

double medianAbs(std::vector<double> values)
{
    if (values.empty())
        return 0;
    for (double& v : values)
        v = std::fabs(v);
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

ValidationReport buildValidationReport(const std::vector<ValidationCase>& cases,
    const std::vector<ValidationTruth>& truths, const perf::EfficiencyTable* table)
{
    ValidationReport report;
    std::map<std::string, QuantitySummary> summaries;
    for (const ValidationCase& c : cases) {
        const auto truth = std::find_if(truths.begin(), truths.end(), [&](const auto& t) { return t.id == c.id; });
        if (truth != truths.end())
            addCase(c, *truth, table, report, summaries);
    }
    for (const Quantity& q : kQuantities) {
        QuantitySummary s = summaries[q.name];
        s.quantity = q.name;
        std::vector<double> errors;
        for (const auto& row : report.rows)
            if (row.quantity == q.name)
                errors.push_back(row.errorPercent);
        s.count = int(errors.size());
        s.medianAbsPercent = medianAbs(errors);
        s.p90AbsPercent = percentileAbs(errors, 0.9);
        report.summaries.push_back(s);
    }
    return report;
}

double signedMedian(std::vector<double> values)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

double FamilySummary::signedMedianPercent() const
{
    return signedMedian(errorsPercent);
}

double FamilySummary::medianAbsPercent() const
{
    return medianAbs(errorsPercent);
}

double FamilySummary::p90AbsPercent() const
{
    return percentileAbs(errorsPercent, 0.9);
}

namespace {

/// A row's error as a throughput error (+ = predicted too fast): step time is inverse to tokens/s; model TFLOP/s and
/// MFU are proportional to it.
double throughputErrorPercent(const ValidationRow& row)
{
    if (row.quantity != "step_time_s")
        return row.errorPercent;
    return 100.0 * (row.measured / row.predicted - 1);
}

void addToFamily(std::vector<FamilySummary>& families, const ValidationRow& row, const std::string& basis, double e)
{
    auto it = std::find_if(families.begin(), families.end(),
        [&](const FamilySummary& f) { return f.basis == basis && f.family.sameKey(row.family); });
    if (it == families.end()) {
        families.push_back({row.family, basis, {}, row.family.gpus, row.family.gpus});
        it = families.end() - 1;
    }
    it->errorsPercent.push_back(e);
    it->minGpus = std::min(it->minGpus, row.family.gpus);
    it->maxGpus = std::max(it->maxGpus, row.family.gpus);
}

std::string familyTableMarkdown(const std::vector<FamilySummary>& families, const std::string& basis)
{
    std::string md = "| family | runs | GPUs | signed median | median abs. error | p90 abs. error |\n"
                     "|---|---:|---:|---:|---:|---:|\n";
    for (const auto& f : families) {
        if (f.basis != basis)
            continue;
        const std::string gpus = f.minGpus == f.maxGpus ? std::to_string(f.minGpus)
                                                        : std::to_string(f.minGpus) + "–" + std::to_string(f.maxGpus);
        md += "| " + f.family.label() + " | " + std::to_string(f.errorsPercent.size()) + " | " + gpus + " | "
            + (f.signedMedianPercent() >= 0 ? "+" : "") + number(f.signedMedianPercent(), 1) + " % | "
            + number(f.medianAbsPercent(), 1) + " % | " + number(f.p90AbsPercent(), 1) + " % |\n";
    }
    return md;
}

} // namespace

std::vector<RunError> runErrors(const ValidationReport& report)
{
    // Throughput: the first quantity of the case in kQuantities order after memory (tokens/s, step, TFLOP/s, MFU).
    std::vector<RunError> errors;
    std::vector<std::string> counted;
    for (const Quantity& q : kQuantities) {
        for (const auto& row : report.rows) {
            if (row.quantity != q.name)
                continue;
            if (row.quantity == "peak_memory_gib") {
                errors.push_back({&row, "peak_memory_gib", row.errorPercent});
                continue;
            }
            if (std::find(counted.begin(), counted.end(), row.id) != counted.end())
                continue;
            counted.push_back(row.id);
            errors.push_back({&row, "throughput", throughputErrorPercent(row)});
        }
    }
    return errors;
}

std::vector<FamilySummary> familySummaries(const ValidationReport& report)
{
    std::vector<FamilySummary> families;
    for (const RunError& e : runErrors(report))
        addToFamily(families, *e.row, e.basis, e.errorPercent);
    std::stable_sort(families.begin(), families.end(),
        [](const FamilySummary& a, const FamilySummary& b) { return a.family.label() < b.family.label(); });
    return families;
}

namespace {

/// The runs the memory model reads as over their GPU, largest excess first.
std::string notFittingMarkdown(const ValidationReport& report)
{
    std::string md
        = "\n## Runs read as not fitting their GPUs\n\nEach of these runs really ran, so each fitted its GPU: "
          "a row below is the memory model over-estimating. Reserved peak: the predicted peak of PyTorch's "
          "caching allocator (allocated memory plus fragmentation); usable: the GPU's memory less the CUDA "
          "context, NCCL buffers and the driver's reserve. ";
    if (report.notFitting.empty())
        return md + "None of the " + std::to_string(report.evaluatedCases) + " evaluated cases is read as over.\n";
    std::vector<NotFittingRun> runs = report.notFitting;
    std::stable_sort(runs.begin(), runs.end(), [](const NotFittingRun& a, const NotFittingRun& b) {
        return a.peakReservedGiB / a.usableGiB > b.peakReservedGiB / b.usableGiB;
    });
    md += std::to_string(runs.size()) + " of the " + std::to_string(report.evaluatedCases)
        + " evaluated cases are read as over:\n\n| case | reserved peak | usable | over by |\n|---|---:|---:|---:|\n";
    for (const auto& r : runs)
        md += "| `" + r.id + "` | " + number(r.peakReservedGiB, 2) + " GiB | " + number(r.usableGiB, 2) + " GiB | "
            + number(100.0 * (r.peakReservedGiB / r.usableGiB - 1), 2) + " % |\n";
    return md;
}

} // namespace

std::string reportMarkdown(const ValidationReport& report)
{
    std::string md = "## Summary\n\n| quantity | cases | no prediction | median abs. error | p90 abs. error |\n"
                     "|---|---:|---:|---:|---:|\n";
    for (const auto& s : report.summaries)
        md += "| `" + s.quantity + "` | " + std::to_string(s.count) + " | " + std::to_string(s.missing) + " | "
            + (s.count ? number(s.medianAbsPercent, 1) + " %" : "—") + " | "
            + (s.count ? number(s.p90AbsPercent, 1) + " %" : "—") + " |\n";
    const auto families = familySummaries(report);
    md += "\n## Per family\n\nFramework × GPU generation × dense/MoE. Throughput: one run per case, tokens/s per GPU "
          "(or the step time, model TFLOP/s or MFU the source gives, as a tokens/s error); signed median + = "
          "predicted too fast (too much memory).\n\nThroughput:\n\n"
        + familyTableMarkdown(families, "throughput") + "\nPeak memory:\n\n"
        + familyTableMarkdown(families, "peak_memory_gib");
    md += notFittingMarkdown(report);
    md += "\n## Per case\n\n| case | quantity | predicted | measured | error |\n|---|---|---:|---:|---:|\n";
    for (const auto& r : report.rows)
        md += "| `" + r.id + "` | " + r.quantity + (r.note.empty() ? "" : " (" + r.note + ")") + " | "
            + number(r.predicted, 3) + " | " + number(r.measured, 3) + " | " + number(r.errorPercent, 1) + " % |\n";
    if (!report.failures.empty()) {
        md += "\n## Cases the planner could not evaluate\n\n";
        for (const auto& f : report.failures)
            md += "- " + f + "\n";
    }
    return md;
}

std::string reportJson(const ValidationReport& report)
{
    nlohmann::json rows = nlohmann::json::array(), summary = nlohmann::json::array();
    for (const auto& r : report.rows)
        rows.push_back({{"id", r.id}, {"quantity", r.quantity}, {"predicted", r.predicted}, {"measured", r.measured},
            {"error_percent", r.errorPercent}, {"note", r.note}});
    for (const auto& s : report.summaries)
        summary.push_back({{"quantity", s.quantity}, {"count", s.count}, {"missing", s.missing},
            {"median_abs_error_percent", s.medianAbsPercent}, {"p90_abs_error_percent", s.p90AbsPercent}});
    nlohmann::json notFitting = nlohmann::json::array();
    for (const auto& r : report.notFitting)
        notFitting.push_back({{"id", r.id}, {"peak_reserved_gib", r.peakReservedGiB}, {"usable_gib", r.usableGiB}});
    return nlohmann::json {
        {"summary", summary}, {"cases", rows}, {"failures", report.failures}, {"not_fitting", notFitting}}
        .dump(2);
}

} // namespace clusterplanner::core
