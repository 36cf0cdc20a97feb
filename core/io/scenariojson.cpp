// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/scenariojson.h"

#include "core/cluster/clusterjson.h"
#include "core/cluster/trainingview.h"
#include "core/io/jsonfields.h"
#include "core/io/jsontext.h"
#include "core/model/enumnames.h"
#include "core/model/gpucatalog.h"
#include "core/model/scenariofields.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <limits>
#include <optional>

namespace clusterplanner::core {

namespace {

using nlohmann::json;

[[noreturn]] void throwScenarioError(const std::string& message)
{
    throw ScenarioFormatError(message);
}

JsonFields reader(const json& object)
{
    return JsonFields(object, "", &throwScenarioError);
}

const ScenarioField& field(std::string_view path)
{
    return scenarioField(path);
}

/// The field's value within its bounds from the table; `upTo` tightens the maximum where it depends on another field.
int integer(const JsonFields& r, std::string_view path, long long upTo = std::numeric_limits<long long>::max())
{
    const ScenarioField& f = field(path);
    return r.integer(f.key(), static_cast<long long>(f.min), std::min(static_cast<long long>(f.max), upTo));
}

double number(const JsonFields& r, std::string_view path)
{
    const ScenarioField& f = field(path);
    return r.number(f.key(), f.min, f.max);
}

/// An optional whole number missing from the file keeps `fallback` (files written before the field existed).
int optionalInteger(const JsonFields& r, std::string_view path, int fallback, long long upTo)
{
    return r.has(field(path).key()) ? integer(r, path, upTo) : fallback;
}

/// An optional number: missing or null = unset.
std::optional<double> optionalNumber(const JsonFields& r, std::string_view path)
{
    const ScenarioField& f = field(path);
    if (!r.has(f.key()) || r.isNull(f.key()))
        return std::nullopt;
    return r.number(f.key(), f.min, f.max);
}

std::string text(const JsonFields& r, std::string_view path)
{
    const ScenarioField& f = field(path);
    return r.text(f.key(), static_cast<std::size_t>(f.max));
}

bool boolean(const JsonFields& r, std::string_view path)
{
    return r.boolean(field(path).key());
}

/// An optional switch missing from the file keeps `fallback` (files written before the field existed).
bool optionalBoolean(const JsonFields& r, std::string_view path, bool fallback)
{
    // null reads as absent, as the case files read it: a written-out optional field keeps its default.
    const char* key = field(path).key();
    return r.has(key) && !r.field(key).is_null() ? boolean(r, path) : fallback;
}

/// An optional choice missing from the file keeps `fallback` (files written before the field existed).
template <typename Enum>
Enum choice(const JsonFields& r, std::string_view path, std::optional<Enum> fallback = std::nullopt)
{
    const char* key = field(path).key();
    if (fallback && field(path).optional && !r.has(key))
        return *fallback;
    const auto name = r.text(key, 64);
    if (auto value = enumFromString<Enum>(name))
        return *value;
    std::string allowed;
    for (Enum option : allValues<Enum>())
        allowed += (allowed.empty() ? "" : ", ") + std::string(toString(option));
    r.fail(key, "unknown value \"" + name + "\" (expected one of: " + allowed + ")");
}

MoeConfig readMoe(const JsonFields& r)
{
    MoeConfig moe;
    moe.experts = integer(r, "model.moe.experts");
    moe.topK = integer(r, "model.moe.top_k", moe.experts);
    moe.expertFfnHidden = integer(r, "model.moe.expert_ffn_hidden");
    moe.sharedExperts = integer(r, "model.moe.shared_experts");
    moe.moeLayers = integer(r, "model.moe.moe_layers");
    moe.capacityFactor = number(r, "model.moe.capacity_factor");
    moe.expertGroups = optionalInteger(r, "model.moe.expert_groups", 0, moe.experts);
    if (moe.expertGroups > 0 && moe.experts % moe.expertGroups != 0)
        r.fail(
            "expert_groups", "must divide model.moe.experts (" + std::to_string(moe.experts) + ") into equal groups");
    moe.groupsPerToken = optionalInteger(r, "model.moe.groups_per_token", 0, moe.expertGroups);
    return moe;
}

/// Multi-head latent attention (model.mla); its head widths, times the heads, stay within the widths the memory maths
/// is bounded for, as heads · head_dim does.
MlaConfig readMla(const JsonFields& r, int heads)
{
    MlaConfig mla;
    const long long perHead = kMaxDim / std::max(1, heads);
    mla.kvLoraRank = integer(r, "model.mla.kv_lora_rank");
    mla.qLoraRank = integer(r, "model.mla.q_lora_rank");
    mla.qkNopeHeadDim = integer(r, "model.mla.qk_nope_head_dim", perHead);
    mla.qkRopeHeadDim = integer(r, "model.mla.qk_rope_head_dim", perHead - mla.qkNopeHeadDim);
    mla.vHeadDim = integer(r, "model.mla.v_head_dim", perHead);
    return mla;
}

void checkModelShape(const JsonFields& r, const ModelConfig& model)
{
    if (model.headDim == 0 && !model.mla.enabled() && model.hidden % model.heads != 0)
        r.fail("hidden",
            "must be a multiple of heads (" + std::to_string(model.heads)
                + ") unless model.head_dim or model.mla sets the head widths");
    if (model.heads % model.kvHeads != 0)
        r.fail("kv_heads", "must divide heads (" + std::to_string(model.heads) + ")");
    if (model.mla.enabled() && model.kvHeads != model.heads)
        r.fail("kv_heads",
            "must equal heads (" + std::to_string(model.heads)
                + ") with model.mla: every latent-attention head has its own key and value");
    if (model.mla.enabled() && model.headDim != 0)
        r.fail("head_dim",
            "must be 0 with model.mla, whose qk_nope_head_dim, qk_rope_head_dim and v_head_dim set the "
            "head widths");
    if (model.mla.enabled() && model.qkNorm)
        r.fail("qk_norm", "must be false with model.mla: latent attention normalises its latents, not its heads");
    if (model.parallelBlock && model.moe)
        r.fail("parallel_block", "must be false with model.moe: parallel blocks are modelled for dense layers only");
    if (model.parallelBlock && model.mla.enabled())
        r.fail(
            "parallel_block", "must be false with model.mla: parallel blocks are modelled for standard attention only");
    if (model.moe && model.moe->moeLayers > model.layers)
        r.fail("moe.moe_layers", "must not exceed layers (" + std::to_string(model.layers) + ")");
}

ModelConfig readModel(const JsonFields& r)
{
    ModelConfig model;
    model.name = text(r, "model.name");
    model.layers = integer(r, "model.layers");
    model.hidden = integer(r, "model.hidden");
    model.heads = integer(r, "model.heads");
    model.kvHeads = integer(r, "model.kv_heads", model.heads);
    // Files written before the field existed, and null, mean hidden / heads.
    const char* headDimKey = field("model.head_dim").key();
    // heads · head_dim stays within the widths the memory maths is bounded for, as kv_heads stays within heads.
    model.headDim = r.has(headDimKey) && !r.isNull(headDimKey)
        ? integer(r, "model.head_dim", kMaxDim / std::max(1, model.heads))
        : 0;
    model.ffnHidden = integer(r, "model.ffn_hidden");
    model.vocab = integer(r, "model.vocab");
    model.seqLen = integer(r, "model.seq_len");
    model.mlp = choice<MlpKind>(r, "model.mlp");
    model.norm = choice<NormKind>(r, "model.norm");
    model.tiedEmbeddings = boolean(r, "model.tied_embeddings");
    model.qkNorm = optionalBoolean(r, "model.qk_norm", false);
    model.parallelBlock = optionalBoolean(r, "model.parallel_block", false); // absent: the sequential block
    model.mtpLayers
        = optionalInteger(r, "model.mtp_layers", 0, kMaxMtpLayers); // absent (files written before it): none
    model.ropeBase = optionalNumber(r, "model.rope_base").value_or(0); // absent or null: not stated
    // Files written before the field existed, and null, mean standard attention.
    if (const char* mlaKey = field("model.mla").key(); r.has(mlaKey) && !r.isNull(mlaKey))
        model.mla = readMla(r.object(mlaKey), model.heads);
    if (!r.isNull(field("model.moe").key()))
        model.moe = readMoe(r.object(field("model.moe").key()));
    checkModelShape(r, model);
    return model;
}

/// Version 1: the engine's five numbers. The topology is migrated from them (docs/methods-cluster.md §2).
ClusterConfig readClusterView(const JsonFields& r)
{
    ClusterConfig cluster;
    cluster.gpuId = GpuCatalog::builtin().currentId(text(r, "cluster.gpu")); // a renamed entry keeps opening
    cluster.gpuCount = integer(r, "cluster.gpu_count");
    cluster.gpusPerNode = integer(r, "cluster.gpus_per_node");
    cluster.nicGbps = number(r, "cluster.nic_gbps");
    cluster.oversubscription = number(r, "cluster.oversubscription");
    return cluster;
}

/// Version 2: the cluster schema (core/cluster/clusterjson.h), its messages named as in this file.
cluster::ClusterSpec readTopology(const json& object)
{
    try {
        return cluster::clusterSpecFromJson(object, "cluster");
    } catch (const cluster::ClusterFormatError& error) {
        throwScenarioError(error.what());
    }
}

/// The training run's node group and GPU count (version 2), checked against the topology.
void readTrainingRun(const JsonFields& r, Scenario& scenario)
{
    scenario.trainingGroup = text(r, "training.node_group");
    const cluster::NodeGroup* group = scenario.topology.findGroup(scenario.trainingGroup);
    if (!group)
        r.fail("node_group", "\"" + excerpt(scenario.trainingGroup) + "\" names no group of cluster.node_groups");
    scenario.cluster.gpuCount = integer(r, "training.gpu_count", group->gpuCount());
    cluster::syncTrainingView(scenario);
}

ParallelLayout readLayout(const JsonFields& r)
{
    ParallelLayout layout;
    layout.dp = integer(r, "training.layout.dp");
    layout.tp = integer(r, "training.layout.tp");
    layout.pp = integer(r, "training.layout.pp");
    layout.cp = integer(r, "training.layout.cp");
    layout.ep = integer(r, "training.layout.ep");
    layout.expertTp
        = optionalInteger(r, "training.layout.expert_tp", kExpertTpDefault, std::numeric_limits<int>::max());
    layout.virtualStages = integer(r, "training.layout.virtual_stages");
    // Older files shard over all of DP.
    layout.dpShard = optionalInteger(r, "training.layout.dp_shard", kDpShardAll, std::numeric_limits<int>::max());
    layout.sequenceParallel = boolean(r, "training.layout.sequence_parallel");
    // Older files mean Megatron's default order.
    layout.rankOrder = choice<RankOrdering>(r, "training.layout.rank_order", RankOrdering::TpCpEpDpPp);
    return layout;
}

TrainingConfig readTraining(const JsonFields& r, int modelLayers)
{
    TrainingConfig training;
    training.globalBatch = integer(r, "training.global_batch");
    training.microBatch = integer(r, "training.micro_batch", training.globalBatch);
    training.precision = choice<Precision>(r, "training.precision");
    training.optimizer = choice<Optimizer>(r, "training.optimizer");
    training.recompute = choice<Recompute>(r, "training.recompute");
    training.zeroStage = integer(r, "training.zero_stage");
    training.distributedOptimizer = boolean(r, "training.distributed_optimizer");
    training.attention = choice<AttentionKind>(r, "training.attention");
    training.schedule = choice<PipelineSchedule>(r, "training.schedule");
    // Older files mean Megatron.
    training.framework = choice<Framework>(r, "training.framework", Framework::Megatron);
    training.layout = readLayout(r.object("layout"));
    training.cpLoadBalance = optionalBoolean(r, "training.cp_load_balance", true);
    training.compile = optionalBoolean(r, "training.compile", true);
    training.compileLoss = optionalBoolean(r, "training.compile_loss", true);
    training.fusedLoss = optionalBoolean(r, "training.fused_loss", false);
    training.asyncTp = optionalBoolean(r, "training.async_tp", false);
    training.fp8Recipe = choice<Fp8Recipe>(r, "training.fp8_recipe", Fp8Recipe::FrameworkDefault);
    training.optimizerStates = choice<OptimizerStates>(r, "training.optimizer_states", OptimizerStates::Fp32);
    training.moeDispatcher = choice<MoeDispatcher>(r, "training.moe_dispatcher", MoeDispatcher::AllToAll);
    training.moeOverlap = optionalBoolean(r, "training.moe_overlap", false);
    training.activationOffloadLayers = optionalInteger(r, "training.activation_offload_layers", 0, modelLayers - 1);
    return training;
}

EconomicsConfig readEconomics(const JsonFields& r)
{
    EconomicsConfig economics;
    economics.trainingTokens = number(r, "economics.training_tokens");
    economics.gpuHourUsd = number(r, "economics.gpu_hour_usd");
    economics.electricityUsdPerKwh = number(r, "economics.electricity_usd_per_kwh");
    economics.pue = number(r, "economics.pue");
    economics.lifetimeYears = optionalNumber(r, "economics.lifetime_years");
    economics.maintenanceFractionPerYear = optionalNumber(r, "economics.maintenance_fraction_per_year");
    economics.storageUsdPerGpu = optionalNumber(r, "economics.storage_usd_per_gpu");
    economics.facilityUsdPerKw = optionalNumber(r, "economics.facility_usd_per_kw");
    return economics;
}

json moeToJson(const MoeConfig& moe)
{
    return {{"experts", moe.experts}, {"top_k", moe.topK}, {"expert_ffn_hidden", moe.expertFfnHidden},
        {"shared_experts", moe.sharedExperts}, {"moe_layers", moe.moeLayers}, {"capacity_factor", moe.capacityFactor},
        {"expert_groups", moe.expertGroups}, {"groups_per_token", moe.groupsPerToken}};
}

json mlaToJson(const MlaConfig& mla)
{
    return {{"kv_lora_rank", mla.kvLoraRank}, {"q_lora_rank", mla.qLoraRank}, {"qk_nope_head_dim", mla.qkNopeHeadDim},
        {"qk_rope_head_dim", mla.qkRopeHeadDim}, {"v_head_dim", mla.vHeadDim}};
}

json modelToJson(const ModelConfig& m)
{
    return {{"name", m.name}, {"layers", m.layers}, {"hidden", m.hidden}, {"heads", m.heads}, {"kv_heads", m.kvHeads},
        {"head_dim", m.headDim}, {"ffn_hidden", m.ffnHidden}, {"vocab", m.vocab}, {"seq_len", m.seqLen},
        {"mlp", toString(m.mlp)}, {"norm", toString(m.norm)}, {"tied_embeddings", m.tiedEmbeddings},
        {"qk_norm", m.qkNorm}, {"parallel_block", m.parallelBlock}, {"mtp_layers", m.mtpLayers},
        {"rope_base", m.ropeBase}, {"mla", m.mla.enabled() ? mlaToJson(m.mla) : json(nullptr)},
        {"moe", m.moe ? moeToJson(*m.moe) : json(nullptr)}};
}

json trainingToJson(const TrainingConfig& t)
{
    const auto& l = t.layout;
    return {{"global_batch", t.globalBatch}, {"micro_batch", t.microBatch}, {"precision", toString(t.precision)},
        {"optimizer", toString(t.optimizer)}, {"recompute", toString(t.recompute)}, {"zero_stage", t.zeroStage},
        {"distributed_optimizer", t.distributedOptimizer}, {"attention", toString(t.attention)},
        {"schedule", toString(t.schedule)}, {"framework", toString(t.framework)},
        {"layout",
            {{"dp", l.dp}, {"tp", l.tp}, {"pp", l.pp}, {"cp", l.cp}, {"ep", l.ep}, {"expert_tp", l.expertTp},
                {"dp_shard", l.dpShard}, {"virtual_stages", l.virtualStages}, {"sequence_parallel", l.sequenceParallel},
                {"rank_order", toString(l.rankOrder)}}},
        {"cp_load_balance", t.cpLoadBalance}, {"compile", t.compile}, {"compile_loss", t.compileLoss},
        {"fused_loss", t.fusedLoss}, {"async_tp", t.asyncTp}, {"fp8_recipe", toString(t.fp8Recipe)},
        {"optimizer_states", toString(t.optimizerStates)}, {"moe_dispatcher", toString(t.moeDispatcher)},
        {"moe_overlap", t.moeOverlap}, {"activation_offload_layers", t.activationOffloadLayers}};
}

} // namespace

json scenarioToJson(const Scenario& scenario)
{
    // The view's fields win where code edited them without the topology (core/cluster/trainingview.h); a scenario
    // built in code without a topology gets the migrated one.
    Scenario s = scenario;
    cluster::writeViewIntoTopology(s, GpuCatalog::builtin());
    const auto& e = s.economics;
    auto optional = [](const std::optional<double>& value) { return value ? json(*value) : json(nullptr); };
    json training = trainingToJson(s.training);
    training["node_group"] = s.trainingGroup;
    training["gpu_count"] = s.cluster.gpuCount;
    json object = {{"name", s.name}, {"model", modelToJson(s.model)},
        {"cluster", cluster::clusterSpecToJson(s.topology)}, {"training", training},
        {"economics",
            {{"training_tokens", e.trainingTokens}, {"gpu_hour_usd", e.gpuHourUsd},
                {"electricity_usd_per_kwh", e.electricityUsdPerKwh}, {"pue", e.pue},
                {"lifetime_years", optional(e.lifetimeYears)},
                {"maintenance_fraction_per_year", optional(e.maintenanceFractionPerYear)},
                {"storage_usd_per_gpu", optional(e.storageUsdPerGpu)},
                {"facility_usd_per_kw", optional(e.facilityUsdPerKw)}}},
        {"notes", s.notes}};
    if (s.workload) // optional section: files without a workload stay as they were
        object["workload"] = sched::workloadSpecToJson(*s.workload);
    return object;
}

Scenario scenarioFromJson(const json& object)
{
    const JsonFields r = reader(object);
    Scenario scenario;
    scenario.name = text(r, "name");
    scenario.model = readModel(r.object("model"));
    const JsonFields clusterFields = r.object("cluster");
    // The shape tells the versions apart, so that scenarios the library stored in version 1 still open.
    const bool versionOne = clusterFields.has("gpu") && !clusterFields.has("node_groups");
    if (versionOne) {
        scenario.cluster = readClusterView(clusterFields);
        cluster::adoptClusterView(scenario, GpuCatalog::builtin());
        cluster::syncTrainingView(scenario);
    } else {
        scenario.topology = readTopology(r.field("cluster"));
        readTrainingRun(r.object("training"), scenario);
    }
    scenario.training = readTraining(r.object("training"), scenario.model.layers);
    scenario.economics = readEconomics(r.object("economics"));
    scenario.notes = text(r, "notes");
    if (r.has("workload") && !r.isNull("workload"))
        scenario.workload = sched::workloadSpecFromJson(r.object("workload"));
    return scenario;
}

std::string writeScenarioFile(const Scenario& scenario)
{
    const json file = {
        {"format", kScenarioFormatName}, {"version", kScenarioFormatVersion}, {"scenario", scenarioToJson(scenario)}};
    return file.dump(2) + "\n";
}

bool isScenarioDocument(const std::string& text)
{
    const json document = json::parse(text, nullptr, false);
    if (!document.is_object())
        return false;
    const auto format = document.find("format");
    return format != document.end() && format->is_string() && format->get<std::string>() == kScenarioFormatName;
}

Scenario readScenarioFile(const std::string& text)
{
    // The caller prefixes the file name (the text may come from a file, the library or the clipboard).
    const json document = parseJsonText(text, "", &throwScenarioError);
    const JsonFields header = reader(document);
    if (header.text("format", 100) != kScenarioFormatName)
        header.fail("format", "is not \"" + std::string(kScenarioFormatName) + "\": this is not a scenario file");
    const int version = header.integer("version", 1, std::numeric_limits<int>::max());
    if (version > kScenarioFormatVersion)
        header.fail("version",
            "the file was written by a newer ClusterPlanner (format version " + std::to_string(version)
                + "; this version reads up to " + std::to_string(kScenarioFormatVersion) + ")");
    try {
        return scenarioFromJson(document.at("scenario"));
    } catch (const json::out_of_range&) {
        header.fail("scenario", "is missing");
    }
}

} // namespace clusterplanner::core
