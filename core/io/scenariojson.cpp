// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/scenariojson.h"

#include "core/io/jsonfields.h"
#include "core/io/jsontext.h"
#include "core/model/enumnames.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>

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

template <typename Enum>
Enum choice(const JsonFields& r, const char* key)
{
    const auto name = r.text(key, 64);
    if (auto value = enumFromString<Enum>(name))
        return *value;
    std::string allowed;
    for (Enum option : allValues<Enum>())
        allowed += (allowed.empty() ? "" : ", ") + std::string(toString(option));
    r.fail(key, "unknown value \"" + name + "\" (expected one of: " + allowed + ")");
}

// Upper bounds: generous beyond anything built today, tight enough to catch unit mistakes and overflow.
constexpr long long kMaxGpus = 10'000'000;
constexpr long long kMaxDim = 1'000'000;

MoeConfig readMoe(const JsonFields& r)
{
    MoeConfig moe;
    moe.experts = r.integer("experts", 1, 100'000);
    moe.topK = r.integer("top_k", 1, moe.experts);
    moe.expertFfnHidden = r.integer("expert_ffn_hidden", 1, kMaxDim);
    moe.sharedExperts = r.integer("shared_experts", 0, 1024);
    moe.moeLayers = r.integer("moe_layers", 0, 100'000);
    moe.capacityFactor = r.number("capacity_factor", 0.1, 64.0);
    return moe;
}

ModelConfig readModel(const JsonFields& r)
{
    ModelConfig model;
    model.name = r.text("name", 200);
    model.layers = r.integer("layers", 1, 100'000);
    model.hidden = r.integer("hidden", 1, kMaxDim);
    model.heads = r.integer("heads", 1, 100'000);
    model.kvHeads = r.integer("kv_heads", 1, model.heads);
    model.ffnHidden = r.integer("ffn_hidden", 1, kMaxDim * 8);
    model.vocab = r.integer("vocab", 1, 100'000'000);
    model.seqLen = r.integer("seq_len", 1, 100'000'000);
    model.mlp = choice<MlpKind>(r, "mlp");
    model.norm = choice<NormKind>(r, "norm");
    model.tiedEmbeddings = r.boolean("tied_embeddings");
    if (model.hidden % model.heads != 0)
        r.fail("hidden", "must be a multiple of heads (" + std::to_string(model.heads) + ")");
    if (model.heads % model.kvHeads != 0)
        r.fail("kv_heads", "must divide heads (" + std::to_string(model.heads) + ")");
    if (!r.isNull("moe"))
        model.moe = readMoe(r.object("moe"));
    if (model.moe && model.moe->moeLayers > model.layers)
        r.fail("moe.moe_layers", "must not exceed layers (" + std::to_string(model.layers) + ")");
    return model;
}

ClusterConfig readCluster(const JsonFields& r)
{
    ClusterConfig cluster;
    cluster.gpuId = r.text("gpu", 64);
    cluster.gpuCount = r.integer("gpu_count", 1, kMaxGpus);
    cluster.gpusPerNode = r.integer("gpus_per_node", 1, 1024);
    cluster.nicGbps = r.number("nic_gbps", 0.1, 100'000);
    cluster.oversubscription = r.number("oversubscription", 1.0, 64.0);
    return cluster;
}

ParallelLayout readLayout(const JsonFields& r)
{
    ParallelLayout layout;
    layout.dp = r.integer("dp", 1, kMaxGpus);
    layout.tp = r.integer("tp", 1, 4096);
    layout.pp = r.integer("pp", 1, 4096);
    layout.cp = r.integer("cp", 1, 4096);
    layout.ep = r.integer("ep", 1, 100'000);
    layout.virtualStages = r.integer("virtual_stages", 1, 1024);
    layout.sequenceParallel = r.boolean("sequence_parallel");
    // Added after the first files were written; older files mean Megatron's default order.
    layout.rankOrder = r.has("rank_order") ? choice<RankOrdering>(r, "rank_order") : RankOrdering::TpCpEpDpPp;
    return layout;
}

TrainingConfig readTraining(const JsonFields& r)
{
    TrainingConfig training;
    training.globalBatch = r.integer("global_batch", 1, 100'000'000);
    training.microBatch = r.integer("micro_batch", 1, training.globalBatch);
    training.precision = choice<Precision>(r, "precision");
    training.optimizer = choice<Optimizer>(r, "optimizer");
    training.recompute = choice<Recompute>(r, "recompute");
    training.zeroStage = r.integer("zero_stage", 0, 3);
    training.distributedOptimizer = r.boolean("distributed_optimizer");
    training.attention = choice<AttentionKind>(r, "attention");
    training.schedule = choice<PipelineSchedule>(r, "schedule");
    // Added after the first files were written; older files mean Megatron.
    training.framework = r.has("framework") ? choice<Framework>(r, "framework") : Framework::Megatron;
    training.layout = readLayout(r.object("layout"));
    return training;
}

EconomicsConfig readEconomics(const JsonFields& r)
{
    EconomicsConfig economics;
    economics.trainingTokens = r.number("training_tokens", 0, 1e18);
    economics.gpuHourUsd = r.number("gpu_hour_usd", 0, 10'000);
    economics.electricityUsdPerKwh = r.number("electricity_usd_per_kwh", 0, 100);
    economics.pue = r.number("pue", 1.0, 5.0);
    return economics;
}

json moeToJson(const MoeConfig& moe)
{
    return {{"experts", moe.experts}, {"top_k", moe.topK}, {"expert_ffn_hidden", moe.expertFfnHidden},
        {"shared_experts", moe.sharedExperts}, {"moe_layers", moe.moeLayers}, {"capacity_factor", moe.capacityFactor}};
}

json modelToJson(const ModelConfig& m)
{
    return {{"name", m.name}, {"layers", m.layers}, {"hidden", m.hidden}, {"heads", m.heads}, {"kv_heads", m.kvHeads},
        {"ffn_hidden", m.ffnHidden}, {"vocab", m.vocab}, {"seq_len", m.seqLen}, {"mlp", toString(m.mlp)},
        {"norm", toString(m.norm)}, {"tied_embeddings", m.tiedEmbeddings},
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
            {{"dp", l.dp}, {"tp", l.tp}, {"pp", l.pp}, {"cp", l.cp}, {"ep", l.ep}, {"virtual_stages", l.virtualStages},
                {"sequence_parallel", l.sequenceParallel}, {"rank_order", toString(l.rankOrder)}}}};
}

} // namespace

json scenarioToJson(const Scenario& s)
{
    const auto& c = s.cluster;
    const auto& e = s.economics;
    return {{"name", s.name}, {"model", modelToJson(s.model)},
        {"cluster",
            {{"gpu", c.gpuId}, {"gpu_count", c.gpuCount}, {"gpus_per_node", c.gpusPerNode}, {"nic_gbps", c.nicGbps},
                {"oversubscription", c.oversubscription}}},
        {"training", trainingToJson(s.training)},
        {"economics",
            {{"training_tokens", e.trainingTokens}, {"gpu_hour_usd", e.gpuHourUsd},
                {"electricity_usd_per_kwh", e.electricityUsdPerKwh}, {"pue", e.pue}}},
        {"notes", s.notes}};
}

Scenario scenarioFromJson(const json& object)
{
    const JsonFields r = reader(object);
    Scenario scenario;
    scenario.name = r.text("name", 200);
    scenario.model = readModel(r.object("model"));
    scenario.cluster = readCluster(r.object("cluster"));
    scenario.training = readTraining(r.object("training"));
    scenario.economics = readEconomics(r.object("economics"));
    scenario.notes = r.text("notes", 1'000'000);
    return scenario;
}

std::string writeScenarioFile(const Scenario& scenario)
{
    const json file = {
        {"format", kScenarioFormatName}, {"version", kScenarioFormatVersion}, {"scenario", scenarioToJson(scenario)}};
    return file.dump(2) + "\n";
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
