// SPDX-License-Identifier: GPL-3.0-or-later
// Predicts one case: the open layout fields chosen by the sweep (best fitting by tokens/s), then memory and time.
#include "core/validation/casepredictor.h"
#include "core/evaluation/evaluationerror.h"

#include "core/memory/layoutchooser.h"
#include "core/memory/memorymodel.h"
#include "core/model/enumnames.h"
#include "core/model/frameworkrules.h"
#include "core/model/frameworks.h"
#include "core/model/gpucatalog.h"
#include "core/model/layoutcheck.h"
#include "core/model/modelmath.h"
#include "core/perf/efficiencyparams.h"
#include "core/perf/steptime.h"
#include "core/perf/topology.h"
#include "core/sweep/layoutevaluator.h"

#include <algorithm>
#include <cmath>

namespace clusterplanner::core {

namespace {

std::string joinedReasons(const std::vector<std::string>& parts)
{
    std::string text;
    for (const auto& part : parts)
        text += (text.empty() ? "" : "; ") + part;
    return text;
}

template <typename T>
std::optional<T> stated(bool unknown, T value)
{
    return unknown ? std::nullopt : std::optional<T>(value);
}

/// The ZeRO stages a case leaves to the sweep (docs/methods-time.md §4.29). Megatron's distributed optimizer is the
/// sweep's stage 1, so its flag, stated or `unstatedFlag` for a case that does not say, fixes the stage unless a
/// ZeRO-2/3 or FSDP stage is stated beside it. The schema keeps the two apart (data/validation/README.md): a
/// stated zero_stage 0 says that no ZeRO/FSDP sharding ran, not whether the distributed optimizer did; where the
/// flag is open, the sweep chooses between stage 0 and the distributed optimizer.
void constrainZero(const ValidationCase& c, std::optional<bool> unstatedFlag, SweepConstraints& k)
{
    const TrainingConfig& t = c.scenario.training;
    const FrameworkCapabilities& caps = frameworkCapabilities(t.framework);
    std::optional<bool> flag;
    if (caps.distributedOptimizer)
        flag = c.unknown.distributedOptimizer ? unstatedFlag : t.distributedOptimizer;
    if (flag && *flag && (c.unknown.zeroStage || t.zeroStage <= 1))
        k.zeroStage = 1;
    else if (!c.unknown.zeroStage && t.zeroStage == 0 && caps.distributedOptimizer && !flag)
        k.maxZeroStage = 1;
    else if (!c.unknown.zeroStage)
        k.zeroStage = t.zeroStage;
    else if (flag)
        k.zeroStage = 0; // the flag off, the stage open: Megatron-FSDP (stage 3) runs on the distributed optimizer
}

/// Megatron-style sequence parallelism (norm/dropout activations split over TP) exists only in the frameworks
/// built on Megatron's TP plan (data/frameworks.json), so an unstated flag is only left free for those.
std::optional<bool> sequenceParallelConstraint(const ValidationCase& c)
{
    const TrainingConfig& t = c.scenario.training;
    if (!c.unknown.sequenceParallel)
        return t.layout.sequenceParallel;
    return frameworkCapabilities(t.framework).sequenceParallel ? std::nullopt : std::optional<bool>(false);
}

/// A stated global batch that DP (times a stated micro-batch) does not divide cannot be laid out as given; sources
/// sometimes round one of them. The case is then predicted with the nearest batch that can, and the step time
/// scaled back to the stated batch (tokens/s per GPU and MFU do not depend on it).
std::optional<int> layableGlobalBatch(const ValidationCase& c)
{
    const TrainingConfig& t = c.scenario.training;
    if (c.unknown.globalBatch || c.unknown.dp)
        return std::nullopt;
    const int unit = t.layout.dp * (c.unknown.microBatch ? 1 : t.microBatch);
    if (unit <= 0 || t.globalBatch % unit == 0)
        return std::nullopt;
    return std::max(unit, int(std::lround(double(t.globalBatch) / unit)) * unit);
}

/// The micro-batch a framework runs when the source states the pipeline and the batch but not the micro-batch:
/// TorchTitan splits each data-parallel rank's batch into one micro-batch per pipeline stage
/// (FrameworkCapabilities::microBatchesDefaultToStages). Nothing where the framework has no such default or the
/// split is not whole (the framework would refuse it; the planner then chooses).
std::optional<int> defaultPipelineMicroBatch(const ValidationCase& c)
{
    const UnknownFields& u = c.unknown;
    const TrainingConfig& t = c.scenario.training;
    if (!u.microBatch || u.pp || u.dp || u.globalBatch || t.layout.pp < 2)
        return std::nullopt;
    if (!frameworkCapabilities(t.framework).microBatchesDefaultToStages)
        return std::nullopt;
    const long long split = 1LL * t.layout.dp * t.layout.pp;
    if (t.globalBatch % split != 0)
        return std::nullopt;
    return int(t.globalBatch / split);
}

/// Chunks per rank of an interleaved schedule the source names without its split: the framework's default
/// (FrameworkCapabilities::defaultVirtualStages), else left to the planner.
std::optional<int> defaultVirtualStages(const ValidationCase& c)
{
    const TrainingConfig& t = c.scenario.training;
    const int chunks = frameworkCapabilities(t.framework).defaultVirtualStages;
    const bool interleaved = !c.unknown.schedule && t.schedule == PipelineSchedule::Interleaved;
    if (!c.unknown.virtualStages || !interleaved || chunks < 2)
        return std::nullopt;
    return chunks;
}

/// Which of the software settings the development-set schema cannot state (UnknownFields::compile, asyncTp,
/// moeDispatcher, moeOverlap) the planner chooses for this case and layout: those left open and offered, where the
/// framework's open settings are the planner's (FrameworkCapabilities::openSettingsFastest); a named framework's are
/// its defaults (validationcase.cpp applyDependentDefaults).
struct OpenSoftware
{
    bool compile = false, asyncTp = false, moeDispatcher = false, moeOverlap = false;
};

OpenSoftware openSoftware(const ValidationCase& c, const TrainingConfig& layout)
{
    const UnknownFields& u = c.unknown;
    const FrameworkCapabilities& caps = frameworkCapabilities(layout.framework);
    if (!caps.openSettingsFastest)
        return {};
    const bool moe = c.scenario.model.moe.has_value();
    return {u.compile && caps.compileFuses, u.asyncTp && caps.asyncTp && layout.layout.tp > 1,
        moe && u.moeDispatcher && caps.deepEp, moe && u.moeOverlap && caps.moeOverlap};
}

/// The NVIDIA recipes behind the external checks' MoE runs pair micro-batches (Megatron-Core's combined 1F1B,
/// `moe_a2a_overlap`) where the expert all-to-all of a fine-grained model leaves the NVLink domain of a pipelined run:
/// Qwen3-235B on H100 and the DeepSeek-V3 recipe behind the 25.09 row (top-8 routing; EP 32 and 64, interleaved PP 8).
/// Not the single-stage runs across nodes (Qwen3-30B with EP 16, GPT-OSS with EP 64), EP inside a node or an NVL72
/// domain (20 of 22 runs), nor top-2 Mixtral, whose recipes predate the overlap (Megatron-Core 0.14). A reading of
/// those runs, not NVIDIA's policy: later presets differ both ways (docs/methods-time.md §4.41). For a case that does
/// not say, on this layout.
bool publishedRuleMayApply(const ValidationCase& c)
{
    constexpr int kFineGrainedTopK = 4; // DeepSeek-V3, Qwen3: 8; GPT-OSS: 4; Mixtral: 2
    const auto& moe = c.scenario.model.moe;
    return c.unknown.moeOverlap && moe && moe->topK >= kFineGrainedTopK
        && frameworkCapabilities(c.scenario.training.framework).moeOverlapInPublishedRunsAcrossDomains;
}

bool publishedRunPairsMicroBatches(const ValidationCase& c, const TrainingConfig& layout, const GpuSpec& gpu)
{
    const FrameworkCapabilities& caps = frameworkCapabilities(layout.framework);
    if (!publishedRuleMayApply(c) || layout.layout.pp <= 1)
        return false;
    const int domainGpus = std::max(1, std::min(gpu.scaleupDomainGpus, c.scenario.cluster.gpuCount));
    if (perf::layoutSpans(layout.layout, domainGpus, perf::rankOrderOf(layout.layout.rankOrder)).ep.domains <= 1)
        return false;
    TrainingConfig paired = layout;
    paired.moeOverlap = true;
    return moeOverlapApplies(paired, caps);
}

/// Each combination of the open settings, with what the case states: base first.
std::vector<TrainingConfig> softwareVariants(const OpenSoftware& open, const TrainingConfig& base)
{
    std::vector<TrainingConfig> variants {base};
    auto branch = [&variants](bool isOpen, auto flip) {
        if (!isOpen)
            return;
        const std::size_t count = variants.size();
        for (std::size_t i = 0; i < count; ++i) {
            TrainingConfig other = variants[i];
            flip(other);
            variants.push_back(other);
        }
    };
    branch(open.compile, [](TrainingConfig& t) { t.compile = !t.compile; });
    branch(open.asyncTp, [](TrainingConfig& t) { t.asyncTp = !t.asyncTp; });
    branch(open.moeDispatcher, [](TrainingConfig& t) {
        t.moeDispatcher = t.moeDispatcher == MoeDispatcher::DeepEp ? MoeDispatcher::AllToAll : MoeDispatcher::DeepEp;
    });
    branch(open.moeOverlap, [](TrainingConfig& t) { t.moeOverlap = !t.moeOverlap; });
    return variants;
}

/// target with the four software settings of from.
TrainingConfig withSoftwareOf(TrainingConfig target, const TrainingConfig& from)
{
    target.compile = from.compile;
    target.asyncTp = from.asyncTp;
    target.moeDispatcher = from.moeDispatcher;
    target.moeOverlap = from.moeOverlap;
    return target;
}

/// What the planner chose for the open software settings, in the words of the prediction's choices list.
void describeSoftware(const ValidationCase& c, const TrainingConfig& chosen, std::vector<std::string>& choices)
{
    const OpenSoftware open = openSoftware(c, chosen);
    const std::string why = " (not stated: the faster the framework offers)";
    const auto onOff = [](bool on) { return std::string(on ? "on" : "off"); };
    if (open.compile)
        choices.push_back("compile " + onOff(chosen.compile) + why);
    if (open.asyncTp)
        choices.push_back("async TP " + onOff(chosen.asyncTp) + why);
    if (open.moeDispatcher)
        choices.push_back("MoE dispatcher " + std::string(toString(chosen.moeDispatcher)) + why);
    if (open.moeOverlap)
        choices.push_back("MoE overlap " + onOff(chosen.moeOverlap) + why);
    else if (chosen.moeOverlap && c.unknown.moeOverlap)
        choices.push_back("MoE overlap on (not stated: as the checked NVIDIA recipes ran, pairing micro-batches where "
                          "expert parallelism leaves the NVLink domain of a pipelined run)");
}

} // namespace

TrainingConfig fastestSoftware(
    const ValidationCase& c, const TrainingConfig& layout, const GpuSpec& gpu, const perf::EfficiencyTable* table)
{
    TrainingConfig base = layout;
    if (publishedRunPairsMicroBatches(c, layout, gpu))
        base.moeOverlap = true;
    const std::vector<TrainingConfig> variants = softwareVariants(openSoftware(c, base), base);
    if (variants.size() == 1)
        return base; // nothing open: no step time to compare
    const perf::StepTimeContext context = perf::makeStepTimeContext(
        c.scenario, gpu, (table ? *table : perf::EfficiencyTable::builtin()).forGpu(gpu.id));
    TrainingConfig best = base;
    double bestTokensPerS = 0;
    for (const TrainingConfig& variant : variants) {
        const perf::StepTimeResult time = perf::estimateStepTime(context, variant);
        if (time.valid && time.tokensPerSPerGpu > bestTokensPerS * (1 + 1e-12)) {
            best = variant;
            bestTokensPerS = time.tokensPerSPerGpu;
        }
    }
    return best;
}

namespace {

/// What the case states, an unstated distributed optimizer read as `unstatedFlag` (constrainZero).
SweepConstraints statedConstraints(const ValidationCase& c, std::optional<bool> unstatedFlag)
{
    const UnknownFields& u = c.unknown;
    const TrainingConfig& t = c.scenario.training;
    const ParallelLayout& l = t.layout;
    SweepConstraints k;
    k.tp = stated(u.tp, l.tp);
    k.pp = stated(u.pp, l.pp);
    k.cp = stated(u.cp, l.cp);
    k.dp = stated(u.dp, l.dp);
    k.ep = stated(u.ep, l.ep);
    k.virtualStages = stated(u.virtualStages, l.virtualStages);
    k.microBatch = stated(u.microBatch, t.microBatch);
    k.recompute = stated(u.recompute, t.recompute);
    k.schedule = stated(u.schedule, t.schedule);
    k.sequenceParallel = sequenceParallelConstraint(c);
    constrainZero(c, unstatedFlag, k);
    return k;
}

} // namespace

SweepConstraints caseConstraints(const ValidationCase& c)
{
    return statedConstraints(c, std::nullopt);
}

SweepConstraints predictionConstraints(const ValidationCase& c)
{
    // An unstated distributed optimizer is the framework's default on this GPU generation (Megatron-LM: off, but on
    // in its Hopper and Blackwell runs; NeMo: on).
    const std::string generation = perf::EfficiencyTable::builtin().forGpu(c.scenario.cluster.gpuId).family;
    SweepConstraints k = statedConstraints(
        c, frameworkCapabilities(c.scenario.training.framework).defaultDistributedOptimizerOn(generation));
    if (!k.microBatch)
        k.microBatch = defaultPipelineMicroBatch(c);
    if (!k.virtualStages)
        k.virtualStages = defaultVirtualStages(c);
    return k;
}

TrainingLayoutEvaluator::TrainingAdjuster publishedRunAdjuster(const ValidationCase& c)
{
    const GpuSpec* gpu = GpuCatalog::builtin().find(c.scenario.cluster.gpuId);
    if (!gpu || !publishedRuleMayApply(c))
        return {};
    // Each candidate is scored with the overlap its published recipe would run on that layout (§4.41), not with the
    // one of whichever layout a first sweep preferred. The case is copied: the adjuster may outlive the caller's.
    return [c, gpu](TrainingConfig& t) { t.moeOverlap = publishedRunPairsMicroBatches(c, t, *gpu); };
}

std::optional<TrainingConfig> sweepChoice(const ValidationCase& c, const perf::EfficiencyTable* table)
{
    const TrainingLayoutEvaluator evaluator(c.scenario, table, publishedRunAdjuster(c));
    SweepSpec spec;
    spec.constraints = predictionConstraints(c);
    spec.topCount = 1;
    spec.keepAll = false;
    const SweepResult result = core::runSweep(c.scenario, spec, evaluator);
    if (result.top.empty())
        return std::nullopt;
    TrainingConfig t = evaluator.trainingFor(result.top.front().candidate);
    if (!c.unknown.distributedOptimizer && !frameworkCapabilities(t.framework).distributedOptimizer)
        t.distributedOptimizer = c.scenario.training.distributedOptimizer;
    return t;
}

CasePrediction predictCase(const ValidationCase& c, const perf::EfficiencyTable* table)
{
    if (const auto batch = layableGlobalBatch(c)) {
        ValidationCase adjusted = c;
        adjusted.scenario.training.globalBatch = *batch;
        CasePrediction p = predictCase(adjusted, table);
        const int stated = c.scenario.training.globalBatch;
        p.choices.push_back("global_batch " + std::to_string(*batch) + " instead of " + std::to_string(stated)
            + " (not divisible by DP x micro-batch)");
        if (p.stepTimeS)
            p.stepTimeS = *p.stepTimeS * stated / *batch;
        return p;
    }

    CasePrediction p;
    p.id = c.id;
    const Scenario& s = c.scenario;
    p.params = countParameters(s.model).total;
    p.modelFlopsPerToken = modelFlopsPerToken(s.model);
    const GpuSpec* gpu = GpuCatalog::builtin().find(s.cluster.gpuId);
    if (!gpu) {
        p.error = unknownGpuError(s).text(); // a case has no topology: its key, cluster.gpu
        return p;
    }
    if (const auto error = precisionError(s, *gpu)) {
        p.error = error->text();
        return p;
    }
    const MemoryContext ctx = makeMemoryContext(s.model, gpu);
    LayoutChoice choice;
    if (auto swept = sweepChoice(c, table)) {
        // The open software settings are chosen for the swept layout, and the layout swept again under them.
        const TrainingConfig software = fastestSoftware(c, *swept, *gpu, table);
        if (withSoftwareOf(*swept, software) != *swept) {
            ValidationCase tuned = c;
            tuned.scenario.training = withSoftwareOf(tuned.scenario.training, software);
            swept = sweepChoice(tuned, table).value_or(software);
        }
        choice.training = *swept;
        choice.found = true;
        describeChoices(c, choice);
        describeSoftware(c, choice.training, choice.chosen);
    } else {
        choice = chooseLayout(c, ctx);
        if (choice.found) {
            choice.chosen.push_back("no fitting layout in the sweep: memory-first choice");
            choice.training = fastestSoftware(c, choice.training, *gpu, table);
            describeSoftware(c, choice.training, choice.chosen);
        }
    }
    p.chosen = choice.training;
    p.choices = choice.chosen;
    if (!c.architecturePreset.empty())
        p.choices.push_back(c.architectureAdded + " (unstated, beyond the development-set schema: from the "
            + c.architecturePreset + " preset, whose shape the case has)");
    p.gpuReading = c.gpuReading;
    if (!c.gpuReading.empty())
        p.choices.push_back(c.gpuReading);
    if (!choice.found) {
        const LayoutProblems problems = checkLayout(s.model, p.chosen, s.cluster.gpuCount);
        p.error = c.unknown.anyLayout() ? "no valid layout for the open parallel degrees: " : "invalid layout: ";
        p.error += joinedReasons(describeLayoutProblems(problems, s.model, p.chosen, s.cluster.gpuCount));
        return p;
    }
    p.memory = evaluateMemory(ctx, p.chosen);
    if (p.chosen.activationOffloadLayers == kActivationOffloadAuto && p.memory.offloadedLayers > 0)
        p.choices.push_back("activation offload " + std::to_string(p.memory.offloadedLayers)
            + " layers (not stated: the fewest that let the layout fit without recompute)");
    if (!p.memory.fits)
        p.remedies = fitRemedies(ctx, p.chosen, s.cluster.gpusPerNode);
    p.maxMicroBatch = maxMicroBatch(ctx, p.chosen);
    p.peakMemoryGiB = p.memory.peakAllocatedBytes / kGiB;
    p.peakReservedGiB = p.memory.peakReservedBytes / kGiB;
    fillTime(p, s, *gpu, table);
    p.ok = true;
    return p;
}

// MFU and model TFLOP/s use 6·N_matmul + 12·L·s·h FLOPs per token (modelmath). For MHA GPT models with a 4h
// MLP that is 72·L·h² + 12·L·s·h + 6·V·h, the same count as Korthikanti 2022 Eq. 7 and Megatron-LM's
// num_floating_point_operations, so the Megatron-Core and K22 MFUs are compared like for like (validation README).
void fillTime(CasePrediction& p, const Scenario& scenario, const GpuSpec& gpu, const perf::EfficiencyTable* table)
{
    const perf::StepTimeContext context
        = perf::makeStepTimeContext(scenario, gpu, (table ? *table : perf::EfficiencyTable::builtin()).forGpu(gpu.id));
    p.time = perf::estimateStepTime(context, p.chosen);
    if (!p.time.valid) {
        p.choices.push_back(std::string("no step time: ") + p.time.error);
        return;
    }
    p.stepTimeS = p.time.stepTimeS;
    p.tokensPerSPerGpu = p.time.tokensPerSPerGpu;
    p.modelTflopsPerGpu = p.time.modelTflopsPerGpu;
    p.mfu = p.time.mfu;
}

} // namespace clusterplanner::core
