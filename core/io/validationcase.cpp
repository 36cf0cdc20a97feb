// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/validationcase.h"

#include "core/model/enumnames.h"
#include "core/model/frameworks.h"
#include "core/model/gpucatalog.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <stdexcept>

namespace clusterplanner::core {

namespace {

using nlohmann::json;

/// Reads nullable fields of one object; records nulls in the flag passed along.
class NullableReader
{
public:
    NullableReader(const json& object, std::string path)
        : m_object(object)
        , m_path(std::move(path))
    {
        if (!m_object.is_object())
            throw std::runtime_error(m_path + ": must be an object");
    }

    template <typename T>
    T get(const char* key, T fallback, bool* wasNull = nullptr) const
    {
        const json& value = field(key);
        if (wasNull)
            *wasNull = value.is_null();
        if (value.is_null())
            return fallback;
        try {
            return value.get<T>();
        } catch (const json::exception&) {
            throw std::runtime_error(m_path + "." + key + ": wrong type (" + value.type_name() + ")");
        }
    }

    int positive(const char* key, int fallback, bool* wasNull = nullptr) const
    {
        const int value = get<int>(key, fallback, wasNull);
        if (value < 1)
            throw std::runtime_error(m_path + "." + key + ": must be at least 1 (got " + std::to_string(value) + ")");
        return value;
    }

    template <typename Enum>
    Enum choice(const char* key, Enum fallback, bool* wasNull = nullptr) const
    {
        const auto name = get<std::string>(key, std::string(toString(fallback)), wasNull);
        if (auto value = enumFromString<Enum>(name))
            return *value;
        throw std::runtime_error(m_path + "." + key + ": unknown value \"" + name + "\"");
    }

    const json& field(const char* key) const
    {
        auto it = m_object.find(key);
        if (it == m_object.end())
            throw std::runtime_error(m_path + "." + key + ": is missing");
        return *it;
    }

    NullableReader object(const char* key) const { return NullableReader(field(key), m_path + "." + key); }

private:
    const json& m_object;
    std::string m_path;
};

std::optional<MoeConfig> readMoe(const NullableReader& r, int hidden)
{
    if (r.field("moe").is_null())
        return std::nullopt;
    const auto moe = r.object("moe");
    MoeConfig config;
    config.experts = moe.positive("experts", 8);
    config.topK = moe.positive("top_k", 2);
    config.expertFfnHidden = moe.positive("expert_ffn_hidden", 4 * hidden);
    config.sharedExperts = moe.get<int>("shared_experts", 0);
    config.moeLayers = moe.get<int>("moe_layers", 0);
    return config;
}

void readModel(const NullableReader& r, ValidationCase& c)
{
    ModelConfig& m = c.scenario.model;
    UnknownFields& u = c.unknown;
    m.name = r.get<std::string>("name", "unnamed");
    m.layers = r.positive("layers", 1);
    m.hidden = r.positive("hidden", 1);
    m.heads = r.positive("heads", 1);
    m.kvHeads = r.positive("kv_heads", m.heads);
    m.vocab = r.positive("vocab", 1);
    m.seqLen = r.positive("seq_len", 1);
    m.mlp = r.choice("mlp", MlpKind::Gelu, &u.mlp);
    m.norm = r.choice("norm", m.mlp == MlpKind::SwiGlu ? NormKind::RmsNorm : NormKind::LayerNorm, &u.norm);
    m.ffnHidden = r.positive("ffn_hidden", 4 * m.hidden, &u.ffnHidden);
    m.tiedEmbeddings = r.get<bool>("tied_embeddings", false, &u.tiedEmbeddings);
    m.moe = readMoe(r, m.hidden);
    if (!r.field("params").is_null())
        c.statedParams = r.get<double>("params", 0);
}

void readTraining(const NullableReader& r, ValidationCase& c)
{
    TrainingConfig& t = c.scenario.training;
    UnknownFields& u = c.unknown;
    t.microBatch = r.positive("micro_batch", 1, &u.microBatch);
    t.globalBatch = r.positive("global_batch_seqs", 0 + 1, &u.globalBatch); // fixed up once DP is known
    t.precision = r.choice("precision", Precision::AmpBf16, &u.precision);
    t.optimizer = r.choice("optimizer", Optimizer::AdamW, &u.optimizer);
    t.recompute = r.choice("recompute", Recompute::None, &u.recompute);
    t.layout.sequenceParallel = r.get<bool>("sequence_parallel", false, &u.sequenceParallel);
    t.zeroStage = r.get<int>("zero_stage", 0, &u.zeroStage);
    if (t.zeroStage < 0 || t.zeroStage > 3)
        throw std::runtime_error(c.id + ": training.zero_stage must be 0..3");
    t.distributedOptimizer = r.get<bool>("distributed_optimizer", false, &u.distributedOptimizer);
    t.attention = r.choice("attention", AttentionKind::Flash, &u.attention);
    t.framework = r.choice("framework", Framework::Other, &u.framework);
}

void readParallelism(const NullableReader& r, ValidationCase& c)
{
    ParallelLayout& l = c.scenario.training.layout;
    UnknownFields& u = c.unknown;
    l.tp = r.positive("tp", 1, &u.tp);
    l.pp = r.positive("pp", 1, &u.pp);
    l.cp = r.positive("cp", 1, &u.cp);
    l.ep = r.positive("ep", 1, &u.ep);
    l.virtualStages = r.positive("vpp", 1, &u.virtualStages);
    const int modelParallel = l.tp * l.pp * l.cp;
    l.dp = r.positive("dp", std::max(1, c.scenario.cluster.gpuCount / modelParallel), &u.dp);
    auto& schedule = c.scenario.training.schedule;
    schedule = r.choice(
        "schedule", l.virtualStages > 1 ? PipelineSchedule::Interleaved : PipelineSchedule::OneFOneB, &u.schedule);
}

void applyDependentDefaults(ValidationCase& c)
{
    auto& t = c.scenario.training;
    const FrameworkCapabilities& caps = frameworkCapabilities(t.framework);
    if (c.unknown.sequenceParallel)
        t.layout.sequenceParallel = t.layout.tp > 1 && caps.sequenceParallel;
    // An unstated kernel is the one the framework uses by default (e.g. Megatron-DeepSpeed materialises scores).
    if (c.unknown.attention)
        t.attention = caps.defaultAttention;
    if (c.unknown.globalBatch)
        t.globalBatch = t.layout.dp * t.microBatch;
    c.scenario.name = c.id;
}

ValidationCase readCase(const json& object)
{
    ValidationCase c;
    c.id = object.is_object() && object.contains("id") && object["id"].is_string() ? object["id"].get<std::string>()
                                                                                   : "(case without id)";
    const NullableReader root(object, c.id);
    auto& cluster = c.scenario.cluster;
    const auto clusterReader = root.object("cluster");
    cluster.gpuId = clusterReader.get<std::string>("gpu", "");
    cluster.gpuCount = clusterReader.positive("num_gpus", 1);
    cluster.gpusPerNode
        = clusterReader.positive("gpus_per_node", std::min(8, cluster.gpuCount), &c.unknown.gpusPerNode);
    // Cases do not state the network: take the GPU's reference system (DGX A100: 200 Gb/s HDR per GPU, ...).
    if (const GpuSpec* gpu = GpuCatalog::builtin().find(cluster.gpuId); gpu && gpu->scaleoutGbpsPerGpu > 0)
        cluster.nicGbps = gpu->scaleoutGbpsPerGpu;
    readModel(root.object("model"), c);
    readTraining(root.object("training"), c);
    readParallelism(root.object("parallelism"), c);
    applyDependentDefaults(c);
    return c;
}

std::optional<double> optionalNumber(const json& object, const char* key)
{
    auto it = object.find(key);
    return it == object.end() || it->is_null() ? std::nullopt : std::optional(it->get<double>());
}

} // namespace

std::vector<ValidationCase> readValidationCases(const std::string& jsonText)
{
    json document;
    try {
        document = json::parse(jsonText);
    } catch (const json::parse_error& error) {
        throw std::runtime_error(std::string("cases are not valid JSON: ") + error.what());
    }
    std::vector<ValidationCase> cases;
    if (document.is_array()) {
        for (const auto& entry : document)
            cases.push_back(readCase(entry));
    } else {
        cases.push_back(readCase(document));
    }
    return cases;
}

std::vector<ValidationTruth> readValidationTruths(const std::string& jsonText)
{
    const json document = json::parse(jsonText);
    std::vector<ValidationTruth> truths;
    for (const auto& entry : document) {
        ValidationTruth t;
        t.id = entry.at("id").get<std::string>();
        t.tokensPerSPerGpu = optionalNumber(entry, "tokens_per_s_per_gpu");
        t.stepTimeS = optionalNumber(entry, "step_time_s");
        t.modelTflopsPerGpu = optionalNumber(entry, "model_tflops_per_gpu");
        t.mfu = optionalNumber(entry, "mfu");
        t.peakMemoryGiB = optionalNumber(entry, "peak_memory_gib");
        t.memoryKind
            = entry.value("memory_kind", json(nullptr)).is_null() ? "" : entry["memory_kind"].get<std::string>();
        t.source = entry.value("source", "");
        truths.push_back(std::move(t));
    }
    return truths;
}

} // namespace clusterplanner::core
