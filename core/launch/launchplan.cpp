// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/launch/launchplan.h"

#include "core/memory/activationoffload.h"
#include "core/memory/modelstates.h"
#include "core/model/enumnames.h"
#include "core/model/frameworkrules.h"
#include "core/model/layoutcheck.h"

#include <algorithm>
#include <cstdio>

namespace clusterplanner::core::launch {

namespace {

std::string str(int value)
{
    return std::to_string(value);
}

void checkDegrees(const Scenario& s)
{
    const ParallelLayout& l = s.training.layout;
    if (std::min({l.dp, l.tp, l.pp, l.cp, l.ep, l.virtualStages}) < 1 || l.expertTp < 0)
        throw LaunchConfigError("layout: every degree must be at least 1");
    if (l.gpuCount() != s.cluster.gpuCount)
        throw LaunchConfigError("layout: dp × tp × pp × cp = " + str(l.gpuCount()) + " GPUs, but the cluster has "
            + str(s.cluster.gpuCount));
    if (l.ep > 1 && !s.model.moe)
        throw LaunchConfigError("layout: ep = " + str(l.ep) + " needs a mixture-of-experts model");
    if (l.ep > 1 && (l.dp * l.cp * l.tp) % l.ep != 0)
        throw LaunchConfigError("layout: ep = " + str(l.ep) + " does not divide dp × cp × tp");
    // The expert layers' groups are laid over the attention's GPUs: the layout check's rule and message.
    const LayoutProblems expertTp = checkLayout(s.model, s.training, s.cluster.gpuCount)
        & static_cast<LayoutProblems>(LayoutProblem::ExpertTpGroup);
    if (expertTp)
        throw LaunchConfigError(
            "layout: " + describeLayoutProblems(expertTp, s.model, s.training, s.cluster.gpuCount).front());
}

void checkBatch(const TrainingConfig& t)
{
    const int perStep = t.microBatch * t.layout.dp;
    if (t.microBatch < 1 || t.globalBatch < 1 || t.globalBatch % perStep != 0)
        throw LaunchConfigError("training: global batch " + str(t.globalBatch) + " is not a multiple of micro-batch "
            + str(t.microBatch) + " × dp " + str(t.layout.dp));
}

void checkFramework(const TrainingConfig& t, Framework framework)
{
    const FrameworkCapabilities& caps = frameworkCapabilities(framework);
    const std::string name(toString(framework));
    if (t.layout.pp > 1 && !caps.supports(t.schedule))
        throw LaunchConfigError(name + " has no " + std::string(toString(t.schedule)) + " pipeline schedule");
    if (!caps.supports(t.recompute))
        throw LaunchConfigError(name + " has no " + std::string(toString(t.recompute)) + " recompute mode");
    if (!caps.supportsZeroStage(t.zeroStage, t.layout.pp)) {
        // Say which stages would do, so that the scenario can be changed rather than guessed at.
        std::string offered;
        for (int stage = 0; stage <= 3; ++stage)
            if (caps.supportsZeroStage(stage, t.layout.pp))
                offered += (offered.empty() ? "" : ", ") + str(stage);
        throw LaunchConfigError(name + " does not offer ZeRO stage " + str(t.zeroStage) + " with " + str(t.layout.pp)
            + " pipeline stage" + (t.layout.pp == 1 ? "" : "s")
            + (offered.empty() ? "" : "; it offers " + offered + " (training.zero_stage)"));
    }
    // DeepSpeed's hybrid sharding is MiCS, a ZeRO-3 mode; its ZeRO-1/2 shard over all of DP, which is not the job the
    // estimate timed.
    if (framework == Framework::DeepSpeed && t.layout.shardReplicas() > 1 && t.zeroStage < 3)
        throw LaunchConfigError("training.layout.dp_shard: DeepSpeed shards ZeRO-1/2 states over all of DP; its "
                                "hybrid sharding (MiCS) needs ZeRO stage 3, or set dp_shard to 0");
}

int interleavedChunks(const TrainingConfig& t)
{
    const bool interleaved = t.schedule == PipelineSchedule::Interleaved && t.layout.pp > 1;
    return interleaved ? t.layout.virtualStages : 1;
}

} // namespace

LaunchPlan makeLaunchPlan(const Scenario& scenario, Framework framework)
{
    checkDegrees(scenario);
    checkBatch(scenario.training);
    checkFramework(scenario.training, framework);
    // None of the stacks written here builds PaLM's or GPT-NeoX's parallel block; a config for the sequential block
    // would train another model than the one planned.
    if (scenario.model.parallelBlock)
        throw LaunchConfigError("model: " + std::string(toString(framework))
            + " has no parallel attention and MLP block (model.parallel_block); GPT-NeoX's own trainer has one");
    LaunchPlan plan;
    plan.scenario = &scenario;
    plan.framework = framework;
    const int gpus = scenario.training.layout.gpuCount();
    plan.gpusPerNode = std::max(1, std::min(scenario.cluster.gpusPerNode, gpus));
    plan.nodes = (gpus + plan.gpusPerNode - 1) / plan.gpusPerNode;
    const TrainingConfig& t = scenario.training;
    plan.gradientAccumulation = t.globalBatch / (t.microBatch * t.layout.dp);
    plan.virtualStages = interleavedChunks(t);
    // Written for the target framework: its rules decide, and auto is resolved as the estimate resolves it.
    TrainingConfig target = t;
    target.framework = framework;
    // Uneven splits are allowed, as the estimate allows them. Where the target framework counts the embedding and
    // the loss as layers and that makes the split even, the first and the last chunk take one layer fewer
    // (pipelineEndSlots, as the estimate holds them); otherwise the first layers % chunks chunks take one layer
    // more, which spreads the extra layers over the pipeline ranks.
    const int stages = t.layout.pp * plan.virtualStages;
    const int layers = scenario.model.layers;
    const int endSlots = pipelineEndSlots(layers, target);
    for (int chunk = 0; chunk < stages; ++chunk) // a chunk is cut as the estimate cuts a pipeline rank
        plan.layersPerChunk.push_back(layersOnStage(layers, stages, chunk, endSlots));
    plan.layersPerVirtualStage = layers % stages == 0 ? layers / stages : 0;
    plan.activationOffloadLayers = activationOffloadLayersInEffect(scenario, target);
    return plan;
}

std::string LaunchPlan::megatronPipelineLayout() const
{
    std::string text = "E";
    const std::size_t last = layersPerChunk.size() - 1;
    for (std::size_t chunk = 0; chunk <= last; ++chunk) {
        const int n = layersPerChunk[chunk];
        text += n == 1 ? "t" : (n > 1 ? "t*" + std::to_string(n) : "");
        text += chunk == last ? std::string(model().mtpLayers, 'm') + "L" : "|";
    }
    return text;
}

std::string LaunchPlan::unevenSplitNote() const
{
    if (!unevenSplit())
        return {};
    return std::to_string(model().layers) + " layers do not divide into " + std::to_string(layersPerChunk.size())
        + " pipeline chunks: the split is written as Megatron-Core's pipeline layout string, which needs a "
          "Megatron-Core release that has it (2025 and later)";
}

std::vector<std::string> LaunchPlan::recomputeModules() const
{
    const bool latent = model().mla.enabled();
    std::vector<std::string> modules;
    if (model().moe || !latent)
        modules = {"moe_act", "layernorm"};
    if (latent)
        modules.emplace_back("mla_up_proj");
    return modules;
}

std::string quoted(const std::string& text)
{
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"' || c == '\\')
            out += std::string("\\") + c;
        else if (static_cast<unsigned char>(c) < 0x20) {
            char escape[8];
            std::snprintf(escape, sizeof escape, "\\u%04x", c);
            out += escape;
        } else
            out += c;
    }
    return out + "\"";
}

bool LaunchPlan::asyncTpInEffect() const
{
    return asyncTpApplies(training(), frameworkCapabilities(framework));
}

std::string LaunchPlan::asyncTpLeftOutNote() const
{
    const std::string lead = "async TP is left off: ", name(toString(framework));
    switch (asyncTpObstacle(training(), frameworkCapabilities(framework))) {
    case AsyncTpObstacle::None:
    case AsyncTpObstacle::NotAsked:
        return {};
    case AsyncTpObstacle::NotOffered:
        return lead + name + " does not offer it";
    case AsyncTpObstacle::NoTensorParallel:
        return lead + "it overlaps tensor-parallel collectives and tp is 1";
    case AsyncTpObstacle::NoSequenceParallel:
        return lead + "it pipelines the sequence-parallel collectives and sequence parallelism is off";
    case AsyncTpObstacle::CompileOff:
        return lead + "in " + name + " it is a torch.compile pass and compile is off";
    }
    return {};
}

Fp8Recipe LaunchPlan::fp8RecipeInEffect() const
{
    return core::fp8RecipeInEffect(training(), frameworkCapabilities(framework));
}

std::string LaunchPlan::fp8RecipeNote() const
{
    const Fp8Recipe asked = training().fp8Recipe, written = fp8RecipeInEffect();
    if (training().precision != Precision::Fp8 || asked == Fp8Recipe::FrameworkDefault || asked == written)
        return {};
    return "fp8 recipe " + std::string(toString(asked)) + " is not one " + std::string(toString(framework))
        + " offers; its default, " + std::string(toString(written)) + ", applies";
}

OptimizerStates LaunchPlan::optimizerStatesInEffect() const
{
    return core::optimizerStatesInEffect(training(), frameworkCapabilities(framework));
}

std::string LaunchPlan::optimizerStatesNote() const
{
    const std::string lead = std::string(toString(training().optimizerStates)) + " optimizer states are left out: ";
    switch (optimizerStatesObstacle(training(), frameworkCapabilities(framework))) {
    case OptimizerStatesObstacle::None:
    case OptimizerStatesObstacle::NotAsked:
        return {};
    case OptimizerStatesObstacle::NotOffered:
        return lead + std::string(toString(framework)) + " does not offer them; fp32 states apply";
    case OptimizerStatesObstacle::NotAdam:
        return lead + "they are Adam's moments, and the optimizer is not Adam";
    case OptimizerStatesObstacle::NotSharded:
        return lead + "they need the distributed optimizer (or ZeRO), which this layout does not use";
    case OptimizerStatesObstacle::PureBf16:
        return lead + "pure bf16 keeps 16-bit states already";
    case OptimizerStatesObstacle::NoBf16Master:
        return lead
            + "they need bf16 weights beside an fp32 master copy (mixed bf16, or FP8 with delayed scaling); "
              "fp32 states apply";
    }
    return {};
}

std::string LaunchPlan::precisionNote() const
{
    if (training().precision == Precision::Bf16 && !frameworkCapabilities(framework).pureBf16)
        return "pure bf16 is not a " + std::string(toString(framework))
            + " mode: its bf16 keeps fp32 master weights and optimizer states, as the estimate assumes";
    return {};
}

bool LaunchPlan::deepEpInEffect() const
{
    return model().moe && moeDispatcherInEffect(training(), frameworkCapabilities(framework)) == MoeDispatcher::DeepEp;
}

bool LaunchPlan::moeOverlapInEffect() const
{
    return model().moe && moeOverlapApplies(training(), frameworkCapabilities(framework));
}

bool LaunchPlan::sharedExpertOverlapInEffect() const
{
    return core::sharedExpertOverlapInEffect(training(), frameworkCapabilities(framework), model())
        == SharedExpertOverlap::SideStream;
}

std::string LaunchPlan::mtpLeftOutNote() const
{
    // Megatron-LM and Megatron-Bridge write --mtp-num-layers / mtp_num_layers themselves.
    if (model().mtpLayers <= 0 || framework == Framework::Megatron || framework == Framework::NeMo)
        return {};
    return "the estimate trains " + std::to_string(model().mtpLayers)
        + " multi-token-prediction module(s) (model.mtp_layers), which this config has no key for: build them in "
          "the model code, or set model.mtp_layers to 0 to plan without them";
}

std::string LaunchPlan::attentionKernelNote() const
{
    const AttentionKind kernel = training().attention;
    if (kernel != AttentionKind::Flash2 && kernel != AttentionKind::Triton)
        return {};
    const std::string timedWith = kernel == AttentionKind::Triton ? "a FlashAttention written in Triton"
                                                                  : "a FlashAttention-2-generation kernel";
    return "the estimate times attention with " + timedWith + " (training.attention " + std::string(toString(kernel))
        + "); the written config runs " + std::string(toString(framework))
        + "'s own attention kernel, which can be faster: estimate with attention flash to compare";
}

std::string LaunchPlan::moeLeftOutNote() const
{
    if (!model().moe)
        return {};
    const std::string name(toString(framework));
    std::string note;
    if (training().moeDispatcher == MoeDispatcher::DeepEp && !deepEpInEffect())
        note = "the DeepEP dispatcher is left out: "
            + (frameworkCapabilities(framework).deepEp ? std::string("it needs TP × EP > 1")
                                                       : name + " does not offer it");
    const std::string lead = (note.empty() ? "" : "; ") + std::string("the MoE communication overlap is left off: ");
    switch (moeOverlapObstacle(training(), frameworkCapabilities(framework))) {
    case MoeOverlapObstacle::None:
    case MoeOverlapObstacle::NotAsked:
        break;
    case MoeOverlapObstacle::NotOffered:
        note += lead + name + " does not offer it";
        break;
    case MoeOverlapObstacle::NoExpertParallel:
        note += lead + "it hides expert all-to-alls and ep is 1";
        break;
    case MoeOverlapObstacle::FullRecompute:
        note += lead + name + " refuses it with full recompute";
        break;
    case MoeOverlapObstacle::Fp32:
        note += lead + name + " runs it in bf16 or fp16 only";
        break;
    case MoeOverlapObstacle::NoVirtualStages:
        note += lead + "with pipeline parallelism " + name
            + " pairs the chunks of the interleaved schedule (virtual stages > 1)";
        break;
    }
    return note;
}

std::string LaunchPlan::activationOffloadNote() const
{
    const std::string lead = "activation offload is left off: ", name(toString(framework));
    const TrainingConfig& t = training();
    switch (activationOffloadObstacle(t, frameworkCapabilities(framework), model().layers)) {
    case ActivationOffloadObstacle::None:
        if (t.activationOffloadLayers == kActivationOffloadAuto && activationOffloadLayers == 0)
            return lead + "auto offloads only what the layout needs to fit, and it fits without (or not even with)";
        return {};
    case ActivationOffloadObstacle::NotAsked:
        return {};
    case ActivationOffloadObstacle::NotOffered:
        return lead + name + " does not offer it";
    case ActivationOffloadObstacle::Pipeline:
        return lead + name + " refuses it with pipeline parallelism";
    case ActivationOffloadObstacle::Recompute:
        return lead + name + " refuses it with activation recompute";
    case ActivationOffloadObstacle::TooManyLayers:
        return lead + "at least one of the " + str(model().layers) + " layers must stay on the GPU";
    }
    return {};
}

} // namespace clusterplanner::core::launch
