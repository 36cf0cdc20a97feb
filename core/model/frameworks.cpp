// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/frameworks.h"

#include "core/model/enumnames.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <initializer_list>
#include <stdexcept>

namespace clusterplanner::core {

extern const char* const kBuiltinFrameworksJson; // generated from data/frameworks.json at build time

namespace {

template <typename Enum>
Enum parseName(const nlohmann::json& value, const std::string& where)
{
    const auto text = value.get<std::string>();
    if (const auto parsed = enumFromString<Enum>(text))
        return *parsed;
    throw std::runtime_error(where + ": unknown value \"" + text + "\"");
}

template <typename Enum>
std::vector<Enum> parseNames(const nlohmann::json& entry, const char* key, const std::string& where)
{
    std::vector<Enum> values;
    for (const auto& item : entry.at(key))
        values.push_back(parseName<Enum>(item, where + "." + key));
    if (values.empty())
        throw std::runtime_error(where + "." + key + ": must list at least one value");
    return values;
}

/// An optional object keyed by GPU generation (an efficiency family's name), each value read by parseValue.
template <typename Value, typename Parse>
std::map<std::string, Value> byGeneration(
    const nlohmann::json& entry, const char* key, const std::string& where, Parse parseValue)
{
    std::map<std::string, Value> values;
    const auto found = entry.find(key);
    if (found == entry.end())
        return values;
    if (!found->is_object())
        throw std::runtime_error(where + "." + key + ": an object keyed by GPU generation");
    for (const auto& [generation, value] : found->items())
        values[generation] = parseValue(value, where + "." + key + "." + generation);
    return values;
}

/// A share in [0, 1] or null.
std::optional<double> optionalShare(const nlohmann::json& entry, const char* key, const std::string& where)
{
    const auto& value = entry.at(key);
    if (value.is_null())
        return std::nullopt;
    const double share = value.get<double>();
    if (share < 0 || share > 1)
        throw std::runtime_error(where + "." + key + ": a share between 0 and 1 (got " + std::to_string(share) + ")");
    return share;
}

/// An optional string key that must be one of choices (the first is the default when the key is absent).
std::string optionalChoice(
    const nlohmann::json& entry, const char* key, std::initializer_list<const char*> choices, const std::string& where)
{
    if (!entry.contains(key))
        return *choices.begin();
    const auto& value = entry.at(key);
    const std::string text = value.is_string() ? value.get<std::string>() : value.dump();
    for (const char* choice : choices)
        if (value.is_string() && text == choice)
            return text;
    std::string allowed;
    for (const char* choice : choices)
        allowed += (allowed.empty() ? "\"" : ", \"") + std::string(choice) + "\"";
    throw std::runtime_error(where + "." + key + ": one of " + allowed + " (got " + text + ")");
}

FrameworkCapabilities parseEntry(const nlohmann::json& entry)
{
    FrameworkCapabilities caps;
    const std::string where = "frameworks[" + entry.value("id", std::string("?")) + "]";
    caps.framework = parseName<Framework>(entry.at("id"), where + ".id");
    caps.schedules = parseNames<PipelineSchedule>(entry, "schedules", where);
    caps.recomputeModes = parseNames<Recompute>(entry, "recompute", where);
    caps.zeroStages = entry.at("zero_stages").get<std::vector<int>>();
    for (int stage : caps.zeroStages)
        if (stage < 0 || stage > 3)
            throw std::runtime_error(where + ".zero_stages: stages are 0..3 (got " + std::to_string(stage) + ")");
    caps.maxZeroStageWithPipeline = entry.at("max_zero_stage_with_pipeline").get<int>();
    caps.maxPipelineStages = entry.at("max_pipeline_stages").get<int>();
    caps.sequenceParallel = entry.at("sequence_parallel").get<bool>();
    caps.distributedOptimizer = entry.at("distributed_optimizer").get<bool>();
    caps.defaultAttention = parseName<AttentionKind>(entry.at("default_attention"), where + ".default_attention");
    caps.defaultAttentionByGeneration = byGeneration<AttentionKind>(entry, "default_attention_by_generation", where,
        [](const nlohmann::json& v, const std::string& at) { return parseName<AttentionKind>(v, at); });
    caps.zero3GathersOnRecompute = entry.at("zero3_gathers_on_recompute").get<bool>();
    caps.hybridShardReducesEveryMicroBatch = entry.value("hybrid_shard_reduce_every_micro_batch", false);
    caps.checkpointStopsEarly = entry.value("checkpoint_early_stop", false);
    caps.checkpointStopsEarlyInPublishedRuns
        = entry.value("checkpoint_early_stop_in_published_runs", caps.checkpointStopsEarly);
    caps.gradReduceFp32 = entry.at("grad_reduce_fp32").get<bool>();
    caps.fusedKernels = entry.at("fused_kernels").get<bool>();
    caps.autocast = entry.at("autocast").get<bool>();
    caps.pureBf16 = entry.value("pure_bf16", true);
    caps.asyncP2p = entry.at("async_p2p").get<bool>();
    caps.zero3Overlap = optionalShare(entry, "zero3_overlap", where);
    caps.zero3Hierarchy = optionalShare(entry, "zero3_hierarchy", where);
    // Optional keys (issue 16): a document without them keeps the earlier behaviour.
    caps.pythonGelu = optionalChoice(entry, "gelu", {"native", "python_tanh"}, where) == "python_tanh";
    caps.selectiveIsOpLevel
        = optionalChoice(entry, "selective_recompute", {"attention", "op_level"}, where) == "op_level";
    caps.keepsGatheredParamsWithPipeline = entry.value("keeps_gathered_params_with_pipeline", false);
    caps.moeProbsInActivation = entry.value("moe_probs_in_activation", false);
    caps.shardedGradientsOnReduceStream = entry.value("sharded_grads_on_reduce_stream", false);
    const std::string shared
        = optionalChoice(entry, "shared_expert_overlap", {"none", "side_stream", "combine"}, where);
    caps.sharedExpertOverlap = shared == "side_stream" ? SharedExpertOverlap::SideStream
        : shared == "combine"                          ? SharedExpertOverlap::CombineOnly
                                                       : SharedExpertOverlap::None;
    caps.compileFuses = entry.value("compile_fuses", false);
    caps.pipelineEndsTakeLayerSlots = entry.value("pipeline_split_counts_embedding_and_loss", false);
    caps.compiledLossInPublishedRuns = entry.value("compiled_loss_in_published_runs", false);
    caps.fusedLossInPublishedRuns = entry.value("fused_loss_in_published_runs", false);
    caps.upcastsLogitsBeforeLoss = entry.value("upcasts_logits_before_loss", false);
    const auto attentionNames = [](const nlohmann::json& v, const std::string& at) {
        std::vector<AttentionKind> names;
        for (const auto& name : v)
            names.push_back(parseName<AttentionKind>(name, at));
        return names;
    };
    caps.flash2InPublishedRuns
        = byGeneration<std::vector<AttentionKind>>(entry, "flash2_in_published_runs", where, attentionNames);
    caps.tritonInPublishedRuns
        = byGeneration<std::vector<AttentionKind>>(entry, "triton_in_published_runs", where, attentionNames);
    caps.asyncTp = entry.value("async_tp", false);
    caps.dtensorLossParallel = entry.value("dtensor_loss_parallel", false);
    caps.teFusedNormLinear = entry.value("te_fused_norm_linear", false);
    caps.freesLogitsBeforeBackward = entry.value("frees_logits_before_backward", false);
    caps.defaultAsyncTp = entry.value("default_async_tp", false);
    if (entry.contains("default_distributed_optimizer"))
        caps.defaultDistributedOptimizer = entry.at("default_distributed_optimizer").get<bool>();
    caps.defaultDistributedOptimizerByGeneration = byGeneration<bool>(entry,
        "default_distributed_optimizer_by_generation", where, [](const nlohmann::json& value, const std::string& at) {
            if (!value.is_boolean())
                throw std::runtime_error(at + ": true or false");
            return value.get<bool>();
        });
    caps.openSettingsFastest
        = optionalChoice(entry, "open_settings", {"framework_defaults", "fastest"}, where) == "fastest";
    caps.deepEp = entry.value("deepep", false);
    caps.moeOverlap = entry.value("moe_overlap", false);
    caps.moeOverlapNeedsVirtualStages = entry.value("moe_overlap_needs_virtual_stages", false);
    caps.moeOverlapInPublishedRunsAcrossDomains
        = optionalChoice(entry, "moe_overlap_in_published_runs", {"off", "pipelined_across_domains"}, where)
        == "pipelined_across_domains";
    caps.activationOffload = entry.value("activation_offload", false);
    caps.defaultVirtualStages = entry.value("default_virtual_stages", 0);
    if (caps.defaultVirtualStages < 0 || caps.defaultVirtualStages == 1)
        throw std::runtime_error(where + ".default_virtual_stages: 0 (left to the planner) or at least 2 (got "
            + std::to_string(caps.defaultVirtualStages) + ")");
    caps.expertTpInPublishedRuns = entry.value("expert_tp_in_published_runs", kExpertTpDefault);
    if (caps.expertTpInPublishedRuns < 0 || caps.expertTpInPublishedRuns > 64)
        throw std::runtime_error(where + ".expert_tp_in_published_runs: 0 (Megatron-Core's default) to 64 (got "
            + std::to_string(caps.expertTpInPublishedRuns) + ")");
    caps.microBatchesDefaultToStages
        = optionalChoice(entry, "default_pipeline_microbatches", {"planner", "stages"}, where) == "stages";
    caps.fp8ViaTransformerEngine
        = optionalChoice(entry, "fp8_library", {"transformer_engine", "torchao"}, where) == "transformer_engine";
    if (entry.contains("fp8_recipes")) {
        caps.fp8Recipes = parseNames<Fp8Recipe>(entry, "fp8_recipes", where);
        if (std::find(caps.fp8Recipes.begin(), caps.fp8Recipes.end(), Fp8Recipe::FrameworkDefault)
            != caps.fp8Recipes.end())
            throw std::runtime_error(where + ".fp8_recipes: names recipes; \"framework_default\" is not one");
    }
    if (entry.contains("optimizer_states")) {
        caps.optimizerStates = parseNames<OptimizerStates>(entry, "optimizer_states", where);
        if (caps.optimizerStates.front() != OptimizerStates::Fp32)
            throw std::runtime_error(where + ".optimizer_states: lists \"fp32\" first (the default)");
        // Under autocast the fp32 parameters are the master copy: there is no separate copy to narrow.
        if (caps.autocast && caps.optimizerStates.size() > 1)
            throw std::runtime_error(where + ".optimizer_states: an autocast framework has only \"fp32\"");
    }
    caps.source = entry.value("source", "");
    return caps;
}

/// The built-in entries indexed by Framework value (the evaluators look one up per layout).
std::vector<FrameworkCapabilities> loadBuiltin()
{
    const auto list = parseFrameworkCapabilities(kBuiltinFrameworksJson);
    std::vector<FrameworkCapabilities> byFramework;
    for (Framework framework : allValues<Framework>()) {
        const auto entry = std::find_if(
            list.begin(), list.end(), [&](const FrameworkCapabilities& c) { return c.framework == framework; });
        if (entry == list.end())
            throw std::runtime_error(
                "data/frameworks.json has no entry for \"" + std::string(toString(framework)) + "\"");
        byFramework.push_back(*entry);
    }
    return byFramework;
}

} // namespace

AttentionKind FrameworkCapabilities::defaultAttentionOn(const std::string& generation) const
{
    const auto it = defaultAttentionByGeneration.find(generation);
    return it == defaultAttentionByGeneration.end() ? defaultAttention : it->second;
}

std::optional<bool> FrameworkCapabilities::defaultDistributedOptimizerOn(const std::string& generation) const
{
    const auto it = defaultDistributedOptimizerByGeneration.find(generation);
    return it == defaultDistributedOptimizerByGeneration.end() ? defaultDistributedOptimizer : it->second;
}

AttentionKind FrameworkCapabilities::publishedRunAttention(AttentionKind named, const std::string& generation) const
{
    const auto listed = [&](const std::map<std::string, std::vector<AttentionKind>>& byGeneration) {
        const auto it = byGeneration.find(generation);
        return it != byGeneration.end() && std::find(it->second.begin(), it->second.end(), named) != it->second.end();
    };
    if (listed(tritonInPublishedRuns))
        return AttentionKind::Triton;
    return listed(flash2InPublishedRuns) ? AttentionKind::Flash2 : named;
}

bool FrameworkCapabilities::supports(PipelineSchedule schedule) const
{
    return std::find(schedules.begin(), schedules.end(), schedule) != schedules.end();
}

bool FrameworkCapabilities::supports(Recompute recompute) const
{
    return std::find(recomputeModes.begin(), recomputeModes.end(), recompute) != recomputeModes.end();
}

bool FrameworkCapabilities::supportsZeroStage(int stage, int pipelineStages) const
{
    if (pipelineStages > 1 && stage > maxZeroStageWithPipeline)
        return false;
    return std::find(zeroStages.begin(), zeroStages.end(), stage) != zeroStages.end();
}

const FrameworkCapabilities& frameworkCapabilities(Framework framework)
{
    static const std::vector<FrameworkCapabilities> byFramework = loadBuiltin();
    return byFramework[std::size_t(framework)];
}

std::vector<FrameworkCapabilities> parseFrameworkCapabilities(const std::string& text)
{
    const auto document = nlohmann::json::parse(text);
    std::vector<FrameworkCapabilities> list;
    for (const auto& entry : document.at("frameworks")) {
        try {
            list.push_back(parseEntry(entry));
        } catch (const nlohmann::json::exception& error) {
            throw std::runtime_error(
                "frameworks[" + entry.value("id", std::string("?")) + "]: " + std::string(error.what()));
        }
    }
    return list;
}

} // namespace clusterplanner::core
