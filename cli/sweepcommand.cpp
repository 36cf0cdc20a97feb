// SPDX-License-Identifier: GPL-3.0-or-later
// clusterplanner sweep --case FILE: every valid layout of a case or scenario, ranked, as JSON, CSV or text.
#include "cli/arguments.h"
#include "cli/commandlist.h"
#include "cli/efficiencyoption.h"
#include "core/hf/hfconfig.h"
#include "core/io/jsontext.h"
#include "core/io/scenariojson.h"
#include "core/model/enumnames.h"
#include "core/sweep/layoutevaluator.h"
#include "core/validation/casepredictor.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <ostream>

namespace clusterplanner::cli {

using namespace clusterplanner::core; // commands are thin wrappers over the engine

namespace {

using nlohmann::json;

struct SweepInput
{
    Scenario scenario;
    SweepConstraints constraints;
};

/// A *.cplan.json scenario (all dimensions free) or a validation case (its stated layout fields fixed).
SweepInput readSweepInput(const std::string& path)
{
    const std::string text = readTextFile(path);
    const json document = parseJsonText(text, path, [](const std::string& message) { throw UsageError(message); });
    if (document.is_object() && document.contains("format"))
        return {readScenarioFile(text), {}};
    const auto cases = readValidationCases(text);
    if (cases.empty())
        throw UsageError(path + ": no case in the file");
    return {cases.front().scenario, caseConstraints(cases.front())};
}

template <typename Enum>
Enum enumFlag(const std::string& name, const std::string& text)
{
    if (const auto value = enumFromString<Enum>(text))
        return *value;
    std::string names;
    for (Enum v : allValues<Enum>())
        names += (names.empty() ? "" : ", ") + std::string(toString(v));
    throw UsageError(name + ": unknown value \"" + text + "\" (one of " + names + ")");
}

void applyFlags(Arguments& a, SweepConstraints& k)
{
    const auto degree = [&](const char* name, std::optional<int>& slot) {
        if (const auto v = a.optionalInteger(name, 1, 1 << 20))
            slot = int(*v);
    };
    degree("--tp", k.tp);
    degree("--pp", k.pp);
    degree("--cp", k.cp);
    degree("--ep", k.ep);
    degree("--dp", k.dp);
    degree("--vpp", k.virtualStages);
    degree("--micro-batch", k.microBatch);
    if (const auto zero = a.optionalInteger("--zero", 0, 3))
        k.zeroStage = int(*zero);
    if (const auto rc = a.value("--recompute"))
        k.recompute = enumFlag<Recompute>("--recompute", *rc);
    if (const auto schedule = a.value("--schedule"))
        k.schedule = enumFlag<PipelineSchedule>("--schedule", *schedule);
    if (const auto order = a.value("--rank-order"))
        k.rankOrder = enumFlag<RankOrdering>("--rank-order", *order);
}

SweepObjective objectiveFlag(Arguments& a)
{
    const std::string text = a.value("--objective").value_or("tokens");
    if (text == "tokens")
        return SweepObjective::TokensPerSecond;
    if (text == "cost")
        return SweepObjective::CostPerToken;
    if (text == "balanced")
        return SweepObjective::Balanced;
    throw UsageError("--objective: unknown value \"" + text + "\" (one of tokens, cost, balanced)");
}

json layoutJson(const LayoutCandidate& c)
{
    const ParallelLayout& l = c.layout;
    return {{"dp", l.dp}, {"tp", l.tp}, {"pp", l.pp}, {"cp", l.cp}, {"ep", l.ep}, {"vpp", l.virtualStages},
        {"micro_batch", c.microBatch}, {"recompute", toString(c.recompute)}, {"zero_stage", c.zeroStage},
        {"schedule", toString(c.schedule)}, {"rank_order", toString(l.rankOrder)}};
}

json resultJson(const LayoutResult& r)
{
    return {{"layout", layoutJson(r.candidate)}, {"fits", r.fits}, {"peak_memory_gib", r.peakMemoryGiB},
        {"headroom_gib", r.headroomGiB()}, {"step_time_s", r.stepTimeS}, {"tokens_per_s_per_gpu", r.tokensPerSPerGpu},
        {"mfu", r.mfu}, {"cost_per_m_tokens_usd", r.costPerMTokensUsd}};
}

json sweepJson(const SweepResult& result)
{
    const SweepSummary& s = result.summary;
    json top = json::array(), pareto = json::array();
    for (const auto& r : result.top)
        top.push_back(resultJson(r));
    for (const auto& r : result.pareto)
        pareto.push_back(resultJson(r));
    return {{"summary",
                {{"evaluated", s.evaluated}, {"valid", s.valid}, {"fitting", s.fitting}, {"seconds", s.seconds},
                    {"layouts_per_s", s.layoutsPerS}}},
        {"top", top}, {"pareto", pareto}};
}

std::string csvRow(int rank, const LayoutResult& r)
{
    const LayoutCandidate& c = r.candidate;
    const ParallelLayout& l = c.layout;
    char text[400];
    std::snprintf(text, sizeof text, "%d,%d,%d,%d,%d,%d,%d,%d,%s,%d,%s,%s,%.4f,%.4f,%.6g,%.2f,%.4f,%.4f\n", rank, l.dp,
        l.tp, l.pp, l.cp, l.ep, l.virtualStages, c.microBatch, std::string(toString(c.recompute)).c_str(), c.zeroStage,
        std::string(toString(c.schedule)).c_str(), std::string(toString(l.rankOrder)).c_str(), r.peakMemoryGiB,
        r.headroomGiB(), r.stepTimeS, r.tokensPerSPerGpu, r.mfu, r.costPerMTokensUsd);
    return text;
}

void printCsv(const SweepResult& result, std::ostream& out)
{
    out << "rank,dp,tp,pp,cp,ep,vpp,micro_batch,recompute,zero_stage,schedule,rank_order,peak_memory_gib,headroom_gib,"
           "step_time_s,tokens_per_s_per_gpu,mfu,cost_per_m_tokens_usd\n";
    int rank = 0;
    for (const auto& r : result.top)
        out << csvRow(++rank, r);
}

void printText(const SweepResult& result, std::ostream& out)
{
    const SweepSummary& s = result.summary;
    out << s.evaluated << " layouts evaluated, " << s.valid << " valid, " << s.fitting << " fit (" << s.seconds
        << " s)\n";
    printCsv(result, out);
}

} // namespace

int runSweep(const Args& args, std::ostream& out, std::ostream& err)
{
    Arguments arguments(args);
    const std::string path = arguments.required("--case");
    const bool asJson = arguments.flag("--json");
    const std::string format = arguments.value("--format").value_or(asJson ? "json" : "text");
    if (format != "json" && format != "csv" && format != "text")
        throw UsageError("--format: unknown value \"" + format + "\" (one of json, csv, text)");
    SweepSpec spec;
    spec.topCount = int(arguments.integer("--top", 20, 1, 1000000));
    spec.objective = objectiveFlag(arguments);
    spec.threads = int(arguments.integer("--threads", 0, 0, 1024));
    spec.keepAll = false;
    const bool quiet = arguments.flag("--quiet");
    SweepInput input = readSweepInput(path);
    applyFlags(arguments, input.constraints);
    if (const auto hfConfig = arguments.value("--hf-config"))
        input.scenario.model = hf::replaceModel(input.scenario.model, hf::importHfConfigFile(*hfConfig));
    const auto efficiency = efficiencyOption(arguments);
    arguments.finish();
    spec.constraints = input.constraints;
    const TrainingLayoutEvaluator evaluator(input.scenario, &efficiencyTable(efficiency));
    int reported = 0; // tenths of the sweep already announced
    const SweepProgress progress = [&](double fraction, std::span<const LayoutResult>) {
        if (quiet || int(fraction * 10) <= reported)
            return;
        reported = int(fraction * 10);
        err << "sweep: " << reported * 10 << " %\n";
    };
    const SweepResult result = core::runSweep(input.scenario, spec, evaluator, {}, progress);
    if (format == "json")
        out << sweepJson(result).dump(2) << "\n";
    else if (format == "csv")
        printCsv(result, out);
    else
        printText(result, out);
    return 0;
}

} // namespace clusterplanner::cli
