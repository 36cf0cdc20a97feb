// SPDX-License-Identifier: GPL-3.0-or-later
// clusterplanner sweep --case FILE: every valid layout of a case or scenario, ranked, as JSON, CSV or text.
#include "cli/commandline.h"
#include "cli/commandlist.h"
#include "cli/efficiencyoption.h"
#include "core/hf/hfconfig.h"
#include "core/io/jsontext.h"
#include "core/io/scenariojson.h"
#include "core/model/enumnames.h"
#include "core/model/layoutcheck.h"
#include "core/sweep/layoutevaluator.h"
#include "core/validation/casepredictor.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <map>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <utility>

namespace clusterplanner::cli {

using namespace clusterplanner::core; // commands are thin wrappers over the engine

namespace {

using nlohmann::json;

struct SweepInput
{
    Scenario scenario;
    SweepConstraints constraints;
    std::optional<ValidationCase> validationCase; ///< when the file is a case: what it leaves unstated
};

/// " (a, b, c, … N more)" for an error message: the first few ids of a case file.
std::string caseIdList(const std::vector<ValidationCase>& cases)
{
    constexpr std::size_t kShown = 5;
    std::string text = " (";
    for (std::size_t i = 0; i < cases.size() && i < kShown; ++i)
        text += (i ? ", " : "") + cases[i].id;
    if (cases.size() > kShown)
        text += ", … " + std::to_string(cases.size() - kShown) + " more";
    return text + ")";
}

/// The case of a case file that the sweep evaluates: the one named by id, or the only one. A file of several cases
/// without an id is refused rather than swept on its first case unannounced (a usage error: the command line must
/// say which).
const ValidationCase& chosenCase(
    const std::vector<ValidationCase>& cases, const std::string& path, const std::string& id)
{
    if (!id.empty()) {
        for (const auto& c : cases)
            if (c.id == id)
                return c;
        throw UsageError("--case-id: " + path + " has no case with id \"" + id + "\"" + caseIdList(cases));
    }
    if (cases.size() > 1)
        throw UsageError(path + " holds " + std::to_string(cases.size())
            + " cases and a sweep evaluates one: name it with --case-id" + caseIdList(cases));
    return cases.front();
}

/// A *.cplan.json scenario (all dimensions free) or a validation case (its stated layout fields fixed).
SweepInput readSweepInput(const std::string& path, const std::string& caseId)
{
    const std::string text = readTextFile(path);
    const json document
        = parseJsonText(text, path, [](const std::string& message) { throw std::runtime_error(message); });
    if (document.is_object() && document.contains("format")) {
        if (!caseId.empty())
            throw UsageError("--case-id: " + path + " is a scenario, not a case file");
        return {readScenarioFile(text), {}, std::nullopt};
    }
    const std::vector<ValidationCase> cases = readCaseText(text, path);
    const ValidationCase& chosen = chosenCase(cases, path, caseId);
    return {chosen.scenario, caseConstraints(chosen), chosen};
}

template <typename Enum>
std::vector<std::string> enumNames()
{
    std::vector<std::string> names;
    for (Enum v : allValues<Enum>())
        names.emplace_back(toString(v));
    return names;
}

/// The command line: the case file, output and every layout dimension the user fixes.
struct SweepOptions
{
    std::string path;
    std::string caseId; ///< which case of a case file of several
    bool json = false;
    std::string format = "text";
    SweepSpec spec;
    std::string objective = "tokens";
    bool quiet = false;
    std::string efficiencyPath;
    std::string hfConfigPath;
    std::map<std::string, int> degrees; ///< "--tp" → 4, only those given
    std::optional<int> zeroStage;
    std::string recompute, schedule, rankOrder;
};

void addOutputOptions(CLI::App& app, SweepOptions& o)
{
    app.add_option("--case", o.path,
           "a *.cplan.json scenario (all layout dimensions free) or a validation case "
           "(its stated layout fields fixed)")
        ->required()
        ->type_name("FILE");
    app.add_option("--case-id", o.caseId, "which case to sweep when the case file holds several")->type_name("ID");
    app.add_flag("--json", o.json, "same as --format json");
    app.add_option("--format", o.format, "output: text (summary, top N, Pareto front), csv (top N) or json")
        ->check(oneOf({"text", "csv", "json"}));
    app.add_option("--top", o.spec.topCount, "how many of the best layouts to print")->check(CLI::Range(1, 1000000));
    app.add_option("--objective", o.objective, "ranking: tokens/s per GPU, cost per token, or balanced")
        ->check(oneOf({"tokens", "cost", "balanced"}));
    app.add_option("--threads", o.spec.threads, "worker threads; 0 = one per core")->check(CLI::Range(0, 1024));
    app.add_flag("--quiet", o.quiet, "no progress on stderr");
    app.add_option("--efficiency", o.efficiencyPath, "efficiency parameters replacing data/efficiency.json")
        ->type_name("FILE");
    app.add_option("--hf-config", o.hfConfigPath, "Hugging Face config.json whose model replaces the case's")
        ->type_name("FILE");
}

void addLayoutOptions(CLI::App& app, SweepOptions& o)
{
    for (const char* name : {"--tp", "--pp", "--cp", "--ep", "--dp", "--vpp", "--micro-batch"})
        app.add_option_function<int>(
               name, [&o, name](int value) { o.degrees[name] = value; }, "fix this degree (default: free)")
            ->check(CLI::Range(1, 1 << 20))
            ->type_name("N");
    app.add_option("--zero", o.zeroStage, "fix the ZeRO stage")->check(CLI::Range(0, 3));
    app.add_option("--recompute", o.recompute, "fix activation recomputation")->check(oneOf(enumNames<Recompute>()));
    app.add_option("--schedule", o.schedule, "fix the pipeline schedule")->check(oneOf(enumNames<PipelineSchedule>()));
    app.add_option("--rank-order", o.rankOrder, "fix the rank ordering")->check(oneOf(enumNames<RankOrdering>()));
}

SweepOptions parseOptions(const Args& args, std::ostream& out)
{
    SweepOptions o;
    auto app = makeCommandApp("sweep",
        "Evaluate every valid parallel layout of a case (TP, PP, CP, EP, DP, virtual stages, micro-batch, "
        "recompute, ZeRO, schedule, rank order) and rank them; prints the top N and the Pareto front of memory "
        "headroom vs throughput.",
        {"clusterplanner sweep --case data/scenarios/gpt3-175b-1024-a100.cplan.json --top 10",
            "clusterplanner sweep --case case.json --tp 8 --schedule interleaved --format csv --quiet"});
    addOutputOptions(*app, o);
    addLayoutOptions(*app, o);
    parseCommand(*app, args, out);
    if (o.json)
        o.format = "json";
    return o;
}

void applyFlags(const SweepOptions& o, SweepConstraints& k)
{
    const std::pair<const char*, std::optional<int>*> slots[] = {{"--tp", &k.tp}, {"--pp", &k.pp}, {"--cp", &k.cp},
        {"--ep", &k.ep}, {"--dp", &k.dp}, {"--vpp", &k.virtualStages}, {"--micro-batch", &k.microBatch}};
    for (const auto& [name, slot] : slots)
        if (const auto it = o.degrees.find(name); it != o.degrees.end())
            *slot = it->second;
    if (o.zeroStage)
        k.zeroStage = o.zeroStage;
    if (!o.recompute.empty())
        k.recompute = enumFromString<Recompute>(o.recompute);
    if (!o.schedule.empty())
        k.schedule = enumFromString<PipelineSchedule>(o.schedule);
    if (!o.rankOrder.empty())
        k.rankOrder = enumFromString<RankOrdering>(o.rankOrder);
}

SweepObjective objectiveOf(const std::string& text)
{
    if (text == "cost")
        return SweepObjective::CostPerToken;
    return text == "balanced" ? SweepObjective::Balanced : SweepObjective::TokensPerSecond;
}

json layoutJson(const LayoutCandidate& c)
{
    const ParallelLayout& l = c.layout;
    return {{"dp", l.dp}, {"tp", l.tp}, {"pp", l.pp}, {"cp", l.cp}, {"ep", l.ep}, {"etp", expertTensorParallel(l)},
        {"vpp", l.virtualStages}, {"dp_shard", l.shardDp()}, {"micro_batch", c.microBatch},
        {"recompute", toString(c.recompute)}, {"zero_stage", c.zeroStage}, {"schedule", toString(c.schedule)},
        {"rank_order", toString(l.rankOrder)}};
}

json resultJson(const LayoutResult& r)
{
    json layout = layoutJson(r.candidate);
    layout["activation_offload_layers"] = r.offloadedLayers; // what the layout needs to fit without recompute (auto)
    return {{"layout", layout}, {"fits", r.fits}, {"tight", r.tight()}, {"peak_memory_gib", r.peakMemoryGiB},
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
    std::snprintf(text, sizeof text, "%d,%d,%d,%d,%d,%d,%d,%d,%s,%d,%d,%s,%s,%.4f,%.4f,%.6g,%.2f,%.4f,%.4f\n", rank,
        l.dp, l.tp, l.pp, l.cp, l.ep, l.virtualStages, c.microBatch, std::string(toString(c.recompute)).c_str(),
        r.offloadedLayers, c.zeroStage, std::string(toString(c.schedule)).c_str(),
        std::string(toString(l.rankOrder)).c_str(), r.peakMemoryGiB, r.headroomGiB(), r.stepTimeS, r.tokensPerSPerGpu,
        r.mfu, r.costPerMTokensUsd);
    return text;
}

void printCsv(const SweepResult& result, std::ostream& out)
{
    out << "rank,dp,tp,pp,cp,ep,vpp,micro_batch,recompute,offload_layers,zero_stage,schedule,rank_order,"
           "peak_memory_gib,headroom_gib,step_time_s,tokens_per_s_per_gpu,mfu,cost_per_m_tokens_usd\n";
    int rank = 0;
    for (const auto& r : result.top)
        out << csvRow(++rank, r);
}

/// "162,240" for counts in sentences.
std::string withThousands(long long count)
{
    std::string digits = std::to_string(count), text;
    for (std::size_t i = 0; i < digits.size(); ++i)
        text += (i > 0 && (digits.size() - i) % 3 == 0 ? "," : "") + digits.substr(i, 1);
    return text;
}

void printText(const SweepResult& result, std::ostream& out)
{
    const SweepSummary& s = result.summary;
    out << withThousands(s.evaluated) << " layouts evaluated, " << withThousands(s.valid) << " valid, "
        << withThousands(s.fitting) << " fit (" << s.seconds << " s)\n\n"
        << "top " << result.top.size() << " of " << withThousands(s.fitting) << " fitting layouts"
        << (std::cmp_less(result.top.size(), s.fitting) ? "; --top N for more" : "") << "\n";
    printCsv(result, out);
    out << "\nPareto front (memory headroom vs tokens/s per GPU): " << result.pareto.size() << " layouts\n";
    int rank = 0;
    for (const auto& r : result.pareto)
        out << csvRow(++rank, r);
}

/// Every rule some invalid layout broke, in the layout check's order.
std::string brokenRules(LayoutProblems problems)
{
    std::string text;
    for (std::uint32_t bit = 1; bit != 0 && bit <= problems; bit <<= 1)
        if (problems & bit)
            text += (text.empty() ? "" : "; ") + std::string(layoutProblemSummary(bit));
    return text;
}

/// Why a sweep has nothing to show, or "" when it has: a sweep that finds no layout is a failed question, so it
/// says what stood in the way instead of printing an empty table with exit 0.
/// "dp 32 x tp 1 = 32": the degrees the case or the flags fix, and their product.
std::string fixedDegrees(const SweepConstraints& c)
{
    std::string text;
    long long product = 1;
    const std::pair<const char*, const std::optional<int>*> degrees[]
        = {{"dp", &c.dp}, {"tp", &c.tp}, {"pp", &c.pp}, {"cp", &c.cp}};
    for (const auto& [name, value] : degrees)
        if (value->has_value()) {
            text += (text.empty() ? "" : " x ") + std::string(name) + " " + std::to_string(**value);
            product *= **value;
        }
    return text.empty() ? "" : text + " = " + std::to_string(product);
}

std::string whyNothingFits(const SweepSummary& s, const SweepConstraints& constraints, int gpuCount)
{
    char text[200];
    if (s.evaluated == 0) {
        const std::string fixed = fixedDegrees(constraints);
        return "no layout to evaluate: "
            + (fixed.empty() ? std::string("the limits") : "the fixed degrees (" + fixed + ")")
            + " leave no DP x TP x PP x CP factoring of the " + std::to_string(gpuCount)
            + " GPUs (TP within the scale-up domain, a micro-batch dividing the global batch per DP rank); free a "
              "dimension or change the GPU count";
    }
    if (s.valid == 0)
        return "none of the " + withThousands(s.evaluated) + " layouts is valid: " + brokenRules(s.problemsSeen);
    if (s.fitting == 0) {
        std::snprintf(
            text, sizeof text, "%.1f GiB over the %.1f GiB usable", s.leastOverflowGiB, s.leastOverflowCapacityGiB);
        return "none of the " + withThousands(s.valid) + " valid layouts fits in memory: the leanest is " + text
            + "; add GPUs, recompute, ZeRO/FSDP sharding or a smaller micro-batch";
    }
    return "";
}

} // namespace

int runSweep(const Args& args, std::ostream& out, std::ostream& err)
{
    const SweepOptions o = parseOptions(args, out);
    SweepSpec spec = o.spec;
    spec.objective = objectiveOf(o.objective);
    spec.keepAll = false;
    const bool quiet = o.quiet;
    const std::string& format = o.format;
    SweepInput input = readSweepInput(o.path, o.caseId);
    applyFlags(o, input.constraints);
    if (!o.hfConfigPath.empty()) {
        const hf::HfImport imported = hf::importHfConfigFile(o.hfConfigPath);
        for (const auto& note : imported.notes) // what the import approximated; stdout stays parseable
            err << "note: " << o.hfConfigPath << ": " << note << "\n";
        input.scenario.model = hf::replaceModel(input.scenario.model, imported);
    }
    const auto efficiency = efficiencyOption(o.efficiencyPath);
    spec.constraints = input.constraints;
    // A case's candidates carry what its published run would have set on each layout, as estimate's do.
    TrainingLayoutEvaluator::TrainingAdjuster adjust;
    if (input.validationCase) {
        input.validationCase->scenario = input.scenario; // the model as --hf-config left it
        adjust = publishedRunAdjuster(*input.validationCase);
    }
    int reported = 0; // tenths of the sweep already announced
    const SweepProgress progress = [&](double fraction, std::span<const LayoutResult>) {
        if (quiet || int(fraction * 10) <= reported)
            return;
        reported = int(fraction * 10);
        err << "sweep: " << reported * 10 << " %\n";
    };
    // What the engine refuses in the input (an unknown GPU, a field out of range) is named as a reader would name it:
    // the file, and for a case file the case's id before the key.
    const auto sweep = [&] {
        try {
            const TrainingLayoutEvaluator evaluator(input.scenario, &efficiencyTable(efficiency), std::move(adjust));
            return core::runSweep(input.scenario, spec, evaluator, {}, progress);
        } catch (const std::exception& error) {
            const std::string where = input.validationCase ? input.validationCase->id + "." : std::string();
            throw std::runtime_error(o.path + ": " + where + error.what());
        }
    };
    const SweepResult result = sweep();
    if (format == "json")
        out << sweepJson(result).dump(2) << "\n";
    else if (format == "csv")
        printCsv(result, out);
    else
        printText(result, out);
    if (const std::string why = whyNothingFits(result.summary, spec.constraints, input.scenario.cluster.gpuCount);
        !why.empty()) {
        err << "sweep: " << why << "\n";
        return 1;
    }
    return 0;
}

} // namespace clusterplanner::cli
