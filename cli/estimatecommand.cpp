// SPDX-License-Identifier: GPL-3.0-or-later
// clusterplanner estimate --case FILE: memory (and later time) of one case or an array of cases, as JSON.
#include "cli/commandline.h"
#include "cli/commandlist.h"
#include "cli/efficiencyoption.h"
#include "core/hf/hfconfig.h"
#include "core/io/scenariojson.h"
#include "core/memory/memorymodel.h"
#include "core/model/enumnames.h"
#include "core/model/frameworkrules.h"
#include "core/model/modelmath.h"
#include "core/perf/computetime.h"
#include "core/validation/casepredictor.h"
#include "core/validation/confidence.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

namespace clusterplanner::cli {

using namespace clusterplanner::core; // commands are thin wrappers over the engine

namespace {

using nlohmann::json;

json optionalJson(const std::optional<double>& value)
{
    return value ? json(*value) : json(nullptr);
}

json breakdownJson(const MemoryBreakdown& b)
{
    return {{"weights", b.weightsBytes / kGiB}, {"gradients", b.gradientsBytes / kGiB},
        {"optimizer_states", b.optimizerBytes / kGiB}, {"activations", b.activationsBytes / kGiB},
        {"logits_loss", b.logitsBytes / kGiB}, {"autocast_weight_copies", b.castCacheBytes / kGiB},
        {"shard_buffers", b.shardBufferBytes / kGiB}, {"workspace", b.workspaceBytes / kGiB}};
}

json stageJson(const StageMemory& s)
{
    return {{"stage", s.stage}, {"layers", s.layers}, {"in_flight_micro_batches", s.inFlightMicroBatches},
        {"peak_phase", s.phase == PeakPhase::StepEnd ? "step_end" : "backward_start"},
        {"allocated_gib", s.peak.totalBytes() / kGiB}, {"reserved_gib", s.reservedBytes / kGiB},
        {"cached_gradients_gib", s.cachedGradientBytes / kGiB}, {"between_steps_gib", s.persistentBytes / kGiB},
        {"host_activations_gib", s.hostActivationBytes / kGiB}, {"memory_gib", breakdownJson(s.peak)}};
}

json chosenJson(const TrainingConfig& t)
{
    const ParallelLayout& l = t.layout;
    const FrameworkCapabilities& caps = frameworkCapabilities(t.framework);
    return {{"tp", l.tp}, {"pp", l.pp}, {"cp", l.cp}, {"dp", l.dp}, {"ep", l.ep}, {"etp", expertTensorParallel(l)},
        {"vpp", l.virtualStages}, {"sequence_parallel", l.sequenceParallel}, {"micro_batch", t.microBatch},
        {"global_batch_seqs", t.globalBatch}, {"precision", toString(t.precision)},
        {"optimizer", toString(t.optimizer)}, {"recompute", toString(t.recompute)}, {"zero_stage", t.zeroStage},
        {"distributed_optimizer", t.distributedOptimizer}, {"attention", toString(t.attention)},
        {"schedule", toString(t.schedule)}, {"framework", toString(t.framework)},
        {"rank_order", toString(t.layout.rankOrder)},
        // In effect, not as asked: a framework or layout without 16-bit states runs fp32 ones, and the software
        // settings a case may leave open (docs/methods-time.md §4.27) are what the framework and layout allow.
        {"optimizer_states", toString(optimizerStatesInEffect(t, caps))}, {"compile", t.compile && caps.compileFuses},
        {"async_tp", asyncTpApplies(t, caps)}, {"moe_dispatcher", toString(moeDispatcherInEffect(t, caps))},
        {"moe_overlap", moeOverlapApplies(t, caps)}};
}

/// Where the step time goes: exposed terms (on the critical path) and each dimension's total before overlap.
json timeBreakdownJson(const perf::StepTimeResult& t)
{
    return {{"micro_batches", t.microBatches}, {"forward", t.computeForwardS}, {"backward", t.computeBackwardS},
        {"recompute", t.recomputeS}, {"bubble", t.bubbleS}, {"bubble_fraction", t.bubbleFraction},
        {"optimizer", t.optimizerS}, {"overhead", t.overheadS}, {"overlap_slowdown", t.overlapSlowdownS},
        {"exposed",
            {{"tp", t.tpExposedS}, {"cp", t.cpExposedS}, {"ep", t.epExposedS}, {"dp", t.dpExposedS},
                {"pp", t.ppExposedS}, {"offload", t.offloadExposedS}}},
        {"total",
            {{"tp", t.tpTotalS}, {"cp", t.cpTotalS}, {"ep", t.epTotalS}, {"dp", t.dpTotalS}, {"pp", t.ppTotalS},
                {"offload", t.offloadTotalS}}}};
}

json confidenceJson(const std::vector<ConfidenceBand>& bands)
{
    json list = json::array();
    for (const auto& b : bands) {
        json band {{"basis", b.basis}, {"match", toString(b.match)}, {"family", b.family}, {"runs", b.runs},
            {"validated_gpus", {b.minGpus, b.maxGpus}}, {"signed_median_percent", b.signedMedianPercent},
            {"median_abs_percent", b.medianAbsPercent}, {"p90_abs_percent", b.p90AbsPercent},
            {"outside_scale", b.outsideScale}, {"family_runs", b.familyRuns}, {"model_runs", b.modelRuns},
            {"statement", b.statement}};
        if (b.modelRuns > 0) // this model's own runs on the GPU generation, whatever their framework
            band["model"] = {{"names", b.modelNames}, {"frameworks", b.modelFrameworks},
                {"signed_median_percent", b.modelSignedMedianPercent},
                {"range_percent", {b.modelMinPercent, b.modelMaxPercent}}};
        list.push_back(std::move(band));
    }
    return list;
}

/// The text form: the headline figures and the expected error of each.
std::string predictionText(const CasePrediction& p, const std::vector<ConfidenceBand>& bands)
{
    std::vector<std::string> figures;
    if (!p.ok)
        figures.push_back(p.error);
    if (p.tokensPerSPerGpu)
        figures.push_back(std::to_string(std::lround(*p.tokensPerSPerGpu)) + " tokens/s per GPU");
    if (p.mfu)
        figures.push_back("MFU " + std::to_string(std::lround(100 * *p.mfu)) + " %");
    if (p.peakReservedGiB)
        figures.push_back("peak memory " + std::to_string(std::lround(*p.peakReservedGiB)) + " GiB reserved");
    std::ostringstream text;
    text << p.id << ":";
    for (std::size_t i = 0; i < figures.size(); ++i)
        text << (i == 0 ? " " : ", ") << figures[i];
    text << "\n";
    if (p.ok && !p.time.valid) // the layout was read but not timed: say why rather than leave the throughput out
        text << "  no step time: " << p.time.error << "\n";
    if (p.ok && !p.memory.fits) { // the figures above are for a layout that cannot run: say so first
        text << "  does not fit: " << std::lround(p.memory.peakReservedBytes / kGiB) << " GiB reserved against "
             << std::lround(p.memory.usableBytes / kGiB) << " GiB usable per GPU";
        for (const auto& remedy : p.remedies)
            text << "; " << remedy;
        text << "\n";
    }
    // A GPU read otherwise than stated (a B200 four to a node is a GB200 tray, docs/methods-time.md §4.51).
    if (!p.gpuReading.empty())
        text << "  " << p.gpuReading << "\n";
    for (const auto& b : bands)
        if (b.basis != "throughput" || p.tokensPerSPerGpu) // no band for a figure the text does not give
            text << "  " << b.statement << "\n";
    return text.str();
}

json predictionJson(const CasePrediction& p, const perf::EfficiencyTable& table, const std::string& gpuId)
{
    json out = {{"id", p.id}, {"ok", p.ok}};
    if (!p.ok) {
        out["error"] = p.error;
    } else {
        const MemoryEstimate& m = p.memory;
        json stages = json::array({stageJson(m.first)});
        if (m.last.stage != m.first.stage)
            stages.push_back(stageJson(m.last));
        out.update({{"fits", m.fits}, {"peak_memory_gib", optionalJson(p.peakMemoryGiB)},
            {"peak_reserved_gib", optionalJson(p.peakReservedGiB)}, {"usable_gib", m.usableBytes / kGiB},
            {"peak_stage", m.peakStage}, {"memory_gib", breakdownJson(m.peakStageMemory().peak)}, {"stages", stages},
            {"max_micro_batch", p.maxMicroBatch}, {"gradient_accumulation_steps", m.gradientAccumulationSteps},
            {"chosen", chosenJson(p.chosen)}, {"choices", p.choices}});
        out["chosen"]["activation_offload_layers"] = m.offloadedLayers; // resolved: a count, never "auto"
        if (!m.fits) {
            out["short_by_gib"] = (m.peakReservedBytes - m.usableBytes) / kGiB;
            out["remedies"] = p.remedies;
        }
    }
    out.update({{"params", p.params}, {"model_flops_per_token", p.modelFlopsPerToken},
        {"step_time_s", optionalJson(p.stepTimeS)}, {"tokens_per_s_per_gpu", optionalJson(p.tokensPerSPerGpu)},
        {"model_tflops_per_gpu", optionalJson(p.modelTflopsPerGpu)}, {"mfu", optionalJson(p.mfu)}});
    if (p.time.valid) {
        out["time_breakdown_s"] = timeBreakdownJson(p.time);
        // The assumptions behind the times, so that a user can see them and override them with --efficiency.
        const perf::EfficiencyParams& params = table.forGpu(gpuId);
        out["efficiency"] = json::parse(perf::toJsonText(params));
        // What large GEMMs run at on this GPU after the measured-matmul correction (docs/methods-time.md §4.31).
        if (const GpuSpec* gpu = GpuCatalog::builtin().find(gpuId)) {
            out["efficiency"]["gemm_peak_fraction_on_gpu"] = perf::tensorGemmPeakFraction(*gpu, params);
            // F½ at this GPU's 16-bit peak: the fitted fixed cost carried by the GPU's large-GEMM rate (§4.60).
            out["efficiency"]["gemm_half_gflop_on_gpu"]
                = perf::computePeaks(*gpu, Precision::AmpBf16, params).gemmHalfFlops / 1e9;
        }
    }
    return out;
}

} // namespace

std::string readTextFile(const std::string& path)
{
    std::error_code ignored;
    if (std::filesystem::is_directory(path, ignored)) // opens on Linux, then reads as an empty, "truncated" file
        throw UsageError(path + " is a directory, not a file");
    std::ifstream in(path);
    if (!in)
        throw UsageError("cannot read " + path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::vector<ValidationCase> readCaseFile(const std::string& path, CaseKeys keys)
{
    return readCaseText(readTextFile(path), path, keys);
}

std::vector<ValidationCase> readCaseText(const std::string& text, const std::string& path, CaseKeys keys)
{
    std::vector<ValidationCase> cases;
    try {
        cases = readValidationCases(text, keys);
    } catch (const std::exception& error) {
        // A scenario file has no case's fields; say what it is and what reads it, not which case field is missing.
        if (isScenarioDocument(text))
            throw UsageError(path
                + " is a scenario file, not a validation case (the data/validation/dev_cases.json schema): a "
                  "scenario's memory and step time are in `clusterplanner report --scenario FILE` and its layouts in "
                  "`clusterplanner sweep --case FILE`");
        // The reader names the document "cases"; the user knows it by its path.
        std::string message = error.what();
        if (message.rfind("cases: ", 0) == 0)
            message.erase(0, 7);
        throw std::runtime_error(path + ": " + message);
    }
    if (cases.empty())
        throw std::runtime_error(path + ": no case in the file");
    return cases;
}

int runEstimate(const Args& args, std::ostream& out, std::ostream& err)
{
    std::string path, efficiencyPath, hfConfigPath;
    auto app = makeCommandApp("estimate",
        "Per-GPU memory (peak allocated and reserved, breakdown), parameters, FLOPs per token, step time with its "
        "breakdown, tokens/s and MFU of one case or an array of cases (validation schema), as JSON, each with the "
        "expected error band of its nearest validated family. Null layout fields are chosen within what the "
        "framework can run.",
        {"clusterplanner estimate --case data/validation/dev_cases.json",
            "clusterplanner estimate --case case.json --efficiency my-efficiency.json"});
    app->add_option("--case", path, "case file (one case or an array, data/validation/dev_cases.json schema)")
        ->required()
        ->type_name("FILE");
    app->add_option("--efficiency", efficiencyPath, "efficiency parameters replacing data/efficiency.json")
        ->type_name("FILE");
    app->add_option("--hf-config", hfConfigPath,
           "Hugging Face config.json whose model replaces each case's (params "
           "reported)")
        ->type_name("FILE");
    bool text = false;
    app->add_flag("--text", text, "print the headline figures and their expected error bands as text, not JSON");
    parseCommand(*app, args, out);
    const auto hfConfig = hfConfigPath.empty() ? std::nullopt : std::optional(hfConfigPath);
    const auto efficiency = efficiencyOption(efficiencyPath);
    const perf::EfficiencyTable& table = efficiencyTable(efficiency);
    const auto imported = hfConfig ? std::optional(hf::importHfConfigFile(*hfConfig)) : std::nullopt;
    if (imported) // what the import approximated, as the GUI's import dialog says it; stdout stays parseable
        for (const auto& note : imported->notes)
            err << "note: " << *hfConfig << ": " << note << "\n";
    json list = json::array();
    int failed = 0;
    for (ValidationCase c : readCaseFile(path)) {
        if (imported) { // the case's model is replaced; its stated parameter count described the old one
            c.scenario.model = hf::replaceModel(c.scenario.model, *imported);
            c.statedParams.reset();
            c.architecturePreset.clear(); // nor did what the old model's preset added (§4.42)
            c.architectureAdded.clear();
        }
        const CasePrediction prediction = predictCase(c, &table);
        if (!prediction.ok) { // reported in the output too, but a script must not read exit 0 as success
            err << "estimate: " << path << ": " << prediction.id << ": " << prediction.error << "\n";
            ++failed;
        }
        // Expected error of the nearest validated family (core/validation/confidence.h).
        const auto bands = confidenceBands(c.scenario);
        if (text) {
            out << predictionText(prediction, bands);
            continue;
        }
        json entry = predictionJson(prediction, table, c.scenario.cluster.gpuId);
        entry["confidence"] = confidenceJson(bands);
        list.push_back(std::move(entry));
    }
    if (!text)
        out << list.dump(2) << "\n";
    return failed > 0 ? 1 : 0;
}

} // namespace clusterplanner::cli
