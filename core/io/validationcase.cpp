// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/validationcase.h"

#include "core/io/jsonfields.h"
#include "core/io/jsontext.h"
#include "core/model/enumnames.h"
#include "core/model/frameworks.h"
#include "core/model/gpucatalog.h"
#include "core/model/modelpresets.h"
#include "core/model/scenariofields.h"
#include "core/perf/efficiencyparams.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <stdexcept>

namespace clusterplanner::core {

namespace {

using nlohmann::json;

/// Upper bound of counts in a case (GPUs, dimensions, batch): the scenario format's largest, so that products of
/// two stay within 64 bits and each fits an int.
constexpr long long kMaxCaseCount = 10'000'000;
/// Upper bound of one parallel degree (tp, pp, cp): the scenario format's, so that tp·pp·cp fits 64 bits.
constexpr long long kMaxCaseDegree = 4096;

[[noreturn]] void throwCaseError(const std::string& message)
{
    throw std::runtime_error(message);
}

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

    /// A whole number in [min, max]; json's get<int>() would truncate 1e10 or 2.5 without a word.
    int integer(const char* key, int fallback, long long min, long long max, bool* wasNull = nullptr) const
    {
        const json& value = field(key);
        if (wasNull)
            *wasNull = value.is_null();
        if (value.is_null())
            return fallback;
        if (!value.is_number_integer())
            fail(key, "must be a whole number, got " + JsonFields::describe(value));
        const bool tooLarge = value.is_number_unsigned() && value.get<unsigned long long>() > 1ULL << 62;
        if (tooLarge || value.get<long long>() < min || value.get<long long>() > max)
            fail(key, "must be in " + std::to_string(min) + ".." + std::to_string(max) + " (got " + value.dump() + ")");
        return static_cast<int>(value.get<long long>());
    }

    int positive(const char* key, int fallback, bool* wasNull = nullptr, long long max = kMaxCaseCount) const
    {
        return integer(key, fallback, 1, max, wasNull);
    }

    /// A whole number of at least 1 that the case must state: nothing sensible stands in for a null model shape or
    /// GPU count (read as 1, a null head count surfaced as a complaint about kv_heads).
    int requiredPositive(const char* key, long long max = kMaxCaseCount) const
    {
        if (field(key).is_null())
            fail(key, "is required (a whole number of at least 1), got null");
        return integer(key, 1, 1, max);
    }

    /// A string that the case must state, non-empty.
    std::string requiredText(const char* key) const
    {
        const auto text = get<std::string>(key, "");
        if (text.empty())
            fail(key, field(key).is_null() ? "is required, got null" : "is required, got an empty string");
        return text;
    }

    [[noreturn]] void fail(const char* key, const std::string& problem) const
    {
        throw std::runtime_error(m_path + "." + key + ": " + problem);
    }

    template <typename Enum>
    Enum choice(const char* key, Enum fallback, bool* wasNull = nullptr) const
    {
        const auto name = get<std::string>(key, std::string(toString(fallback)), wasNull);
        if (auto value = enumFromString<Enum>(name))
            return *value;
        fail(key, "unknown value \"" + excerpt(name) + "\"");
    }

    /// A choice that case files written before it existed leave out: absent and null both mean `fallback`.
    template <typename Enum>
    Enum optionalChoice(const char* key, Enum fallback) const
    {
        return m_object.contains(key) ? choice(key, fallback) : fallback;
    }

    /// A field that case files written before it existed leave out: absent and null both mean `fallback`.
    template <typename T>
    T optional(const char* key, T fallback) const
    {
        return m_object.contains(key) ? get<T>(key, fallback) : fallback;
    }

    /// Whether an optional field is there with a value (absent and null both leave it open).
    bool stated(const char* key) const
    {
        const auto it = m_object.find(key);
        return it != m_object.end() && !it->is_null();
    }

    /// A whole number in [min, max] that case files written before it existed leave out: absent and null both mean
    /// `fallback`.
    int optionalInteger(const char* key, int fallback, long long min, long long max) const
    {
        return m_object.contains(key) ? integer(key, fallback, min, max) : fallback;
    }

    /// A number in [min, max] that case files may leave out: absent and null both mean "not stated".
    std::optional<double> optionalNumber(const char* key, double min, double max) const
    {
        if (const auto it = m_object.find(key); it == m_object.end() || it->is_null())
            return std::nullopt;
        return JsonFields(m_object, m_path, &throwCaseError).number(key, min, max);
    }

    const json& field(const char* key) const
    {
        auto it = m_object.find(key);
        if (it == m_object.end())
            throw std::runtime_error(m_path + "." + key + ": is missing");
        return *it;
    }

    NullableReader object(const char* key) const { return NullableReader(field(key), path(key)); }

    /// The field's path in messages ("cases[3].model.moe.top_k").
    std::string path(const char* key) const { return m_path + "." + key; }

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
    config.experts = moe.requiredPositive("experts");
    config.topK = moe.requiredPositive("top_k");
    config.expertFfnHidden = moe.positive("expert_ffn_hidden", 4 * hidden);
    config.sharedExperts = moe.integer("shared_experts", 0, 0, kMaxCaseCount);
    config.moeLayers = moe.integer("moe_layers", 0, 0, kMaxCaseCount);
    // Beyond the development-set schema (absent: unlimited routing); CaseKeys::DevelopmentSchema drops them.
    config.expertGroups = moe.optionalInteger("expert_groups", 0, 0, config.experts);
    if (config.expertGroups > 0 && config.experts % config.expertGroups != 0)
        throwCaseError(moe.path("expert_groups") + ": must divide experts (" + std::to_string(config.experts)
            + ") into equal groups");
    config.groupsPerToken = moe.optionalInteger("groups_per_token", 0, 0, config.expertGroups);
    return config;
}

/// Multi-head latent attention (model.mla, beyond the development-set schema): absent or null = standard attention.
/// Its head widths, times the heads, stay within the widths the memory maths is bounded for, as head_dim does.
MlaConfig readMla(const NullableReader& r, int heads)
{
    if (!r.stated("mla"))
        return {};
    const auto mla = r.object("mla");
    // Every width is stated: a null would otherwise read as a guess (the scenario file's bounds: ranks to 100,000).
    const auto whole = [&mla](const char* key, long long min, long long max) {
        if (mla.field(key).is_null())
            mla.fail(key, "must be a whole number, got null");
        return mla.integer(key, 0, min, max);
    };
    constexpr long long kMaxRank = 100'000;
    const long long perHead = kMaxDim / heads;
    MlaConfig config;
    config.kvLoraRank = whole("kv_lora_rank", 1, kMaxRank);
    config.qLoraRank = whole("q_lora_rank", 0, kMaxRank);
    config.qkNopeHeadDim = whole("qk_nope_head_dim", 1, perHead);
    config.qkRopeHeadDim = whole("qk_rope_head_dim", 0, perHead - config.qkNopeHeadDim);
    config.vHeadDim = whole("v_head_dim", 1, perHead);
    return config;
}

/// The development-set schema cannot state a model's head width, QK norm, parallel block, latent attention or
/// group-limited routing;
/// a case written to it that has the shape of a preset (data/models.json) takes them from there, so that DeepSeek-V3
/// is read with its latent attention and Qwen3 with heads of 128 rather than hidden / heads (§4.42).
void takeArchitectureFromPreset(ValidationCase& c)
{
    ModelConfig& m = c.scenario.model;
    const ModelConfig* preset = presetOfSameShape(m, !c.unknown.ffnHidden);
    if (!preset)
        return;
    std::vector<std::string> added;
    if (preset->headDim != 0 && preset->headDim != m.headDim) {
        m.headDim = preset->headDim;
        added.push_back("head_dim " + std::to_string(m.headDim));
    }
    if (preset->qkNorm && !m.qkNorm) {
        m.qkNorm = true;
        added.push_back("QK norm");
    }
    if (preset->parallelBlock && !m.parallelBlock) {
        m.parallelBlock = true;
        added.push_back("parallel attention and MLP");
    }
    if (preset->mla.enabled() && !m.mla.enabled()) {
        m.mla = preset->mla;
        added.push_back("multi-head latent attention");
    }
    if (m.moe && preset->moe && preset->moe->expertGroups > 0 && m.moe->expertGroups == 0) {
        m.moe->expertGroups = preset->moe->expertGroups;
        m.moe->groupsPerToken = preset->moe->groupsPerToken;
        added.push_back("routing within " + std::to_string(m.moe->groupsPerToken) + " of "
            + std::to_string(m.moe->expertGroups) + " expert groups");
    }
    if (added.empty())
        return;
    c.architecturePreset = preset->name;
    for (const auto& what : added)
        c.architectureAdded += (c.architectureAdded.empty() ? "" : ", ") + what;
}

void readModel(const NullableReader& r, ValidationCase& c)
{
    ModelConfig& m = c.scenario.model;
    UnknownFields& u = c.unknown;
    m.name = r.get<std::string>("name", "unnamed");
    m.layers = r.requiredPositive("layers");
    m.hidden = r.requiredPositive("hidden");
    m.heads = r.requiredPositive("heads");
    m.kvHeads = r.positive("kv_heads", m.heads);
    m.headDim = r.optionalInteger("head_dim", 0, 0, kMaxDim / m.heads); // absent or null = hidden / heads
    m.vocab = r.requiredPositive("vocab");
    m.seqLen = r.requiredPositive("seq_len");
    m.mlp = r.choice("mlp", MlpKind::Gelu, &u.mlp);
    m.norm = r.choice("norm", m.mlp == MlpKind::SwiGlu ? NormKind::RmsNorm : NormKind::LayerNorm, &u.norm);
    m.ffnHidden = r.positive("ffn_hidden", 4 * m.hidden, &u.ffnHidden);
    m.tiedEmbeddings = r.get<bool>("tied_embeddings", false, &u.tiedEmbeddings);
    m.qkNorm = r.optional<bool>("qk_norm", false); // absent or null: no QK norm, as cases written before it meant
    m.parallelBlock = r.optional<bool>("parallel_block", false); // absent or null: the sequential block
    // Absent or null: no multi-token prediction. Not taken from a preset (below): it is a training choice, which
    // published runs of one model make both ways (Megatron-Bridge's DeepSeek-V3 rows "w/ MTP" and "w/o MTP").
    m.mtpLayers = r.optionalInteger("mtp_layers", 0, 0, kMaxMtpLayers);
    m.mla = readMla(r, m.heads);
    if (m.mla.enabled() && m.kvHeads != m.heads)
        r.fail("kv_heads", "must equal heads with mla: every latent-attention head has its own key and value");
    if (m.mla.enabled() && m.headDim != 0)
        r.fail("head_dim", "must be null or 0 with mla, whose head widths it states");
    if (m.mla.enabled() && m.qkNorm)
        r.fail("qk_norm", "must be false with mla: latent attention normalises its latents, not its heads");
    m.moe = readMoe(r, m.hidden);
    if (m.parallelBlock && (m.moe || m.mla.enabled()))
        r.fail("parallel_block", "must be false with moe or mla: parallel blocks are modelled for dense layers only");
    if (!r.field("params").is_null())
        c.statedParams = r.get<double>("params", 0);
    const bool routingStated
        = r.stated("moe") && (r.object("moe").stated("expert_groups") || r.object("moe").stated("groups_per_token"));
    if (!r.stated("head_dim") && !r.stated("qk_norm") && !r.stated("mla") && !r.stated("parallel_block")
        && !routingStated)
        takeArchitectureFromPreset(c);
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
    t.zeroStage = r.integer("zero_stage", 0, 0, 3, &u.zeroStage);
    t.distributedOptimizer = r.get<bool>("distributed_optimizer", false, &u.distributedOptimizer);
    t.attention = r.choice("attention", AttentionKind::Flash, &u.attention);
    t.framework = r.choice("framework", Framework::Other, &u.framework);
    t.cpLoadBalance = r.optional<bool>("cp_load_balance", true);
    // Unstated, these four are open (UnknownFields): the framework's defaults (applyDependentDefaults), or for
    // "other" the fastest it offers (casepredictor.cpp fastestSoftware); until then they read as the scenario's.
    t.compile = r.optional<bool>("compile", true);
    t.compileLoss = r.optional<bool>("compile_loss", false);
    u.compileLoss = !r.stated("compile_loss");
    t.fusedLoss = r.optional<bool>("fused_loss", false);
    u.fusedLoss = !r.stated("fused_loss");
    t.checkpointEarlyStop = r.optional<bool>("checkpoint_early_stop", true);
    u.checkpointEarlyStop = !r.stated("checkpoint_early_stop");
    t.asyncTp = r.optional<bool>("async_tp", false);
    t.fp8Recipe = r.optionalChoice("fp8_recipe", Fp8Recipe::FrameworkDefault);
    t.optimizerStates = r.optionalChoice("optimizer_states", OptimizerStates::Fp32);
    t.moeDispatcher = r.optionalChoice("moe_dispatcher", MoeDispatcher::AllToAll);
    t.moeOverlap = r.optional<bool>("moe_overlap", false);
    u.compile = !r.stated("compile");
    u.asyncTp = !r.stated("async_tp");
    u.moeDispatcher = !r.stated("moe_dispatcher");
    u.moeOverlap = !r.stated("moe_overlap");
    // Unstated, activation offload is the planner's: as few layers as a layout without recompute needs to fit, where
    // the framework offers it (activationOffloadObstacle); a layout that fits offloads nothing.
    t.activationOffloadLayers
        = r.optionalInteger("activation_offload_layers", kActivationOffloadAuto, 0, kMaxCaseDegree);
}

void readParallelism(const NullableReader& r, ValidationCase& c)
{
    ParallelLayout& l = c.scenario.training.layout;
    UnknownFields& u = c.unknown;
    l.tp = r.positive("tp", 1, &u.tp, kMaxCaseDegree);
    l.pp = r.positive("pp", 1, &u.pp, kMaxCaseDegree);
    l.cp = r.positive("cp", 1, &u.cp, kMaxCaseDegree);
    l.ep = r.positive("ep", 1, &u.ep);
    // Unstated, the framework's published runs decide (applyDependentDefaults).
    u.expertTp = !r.stated("etp");
    l.expertTp = r.optionalInteger("etp", 1, 1, kMaxCaseDegree);
    l.virtualStages = r.positive("vpp", 1, &u.virtualStages, kMaxCaseDegree);
    const long long modelParallel = static_cast<long long>(l.tp) * l.pp * l.cp;
    const auto dataParallel = std::max(1LL, c.scenario.cluster.gpuCount / modelParallel);
    l.dp = r.positive("dp", static_cast<int>(dataParallel), &u.dp);
    // Beyond the development-set schema: hybrid sharding's shard degree within DP (absent or null: all of DP).
    l.dpShard = r.optionalInteger("dp_shard", kDpShardAll, 0, kMaxCaseCount);
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
    // An unstated kernel is the one the framework uses by default (e.g. Megatron-DeepSpeed materialises scores),
    // on this GPU generation where that differs (Megatron-LM's published A100 runs predate its flash kernels).
    const std::string generation = perf::EfficiencyTable::builtin().forGpu(c.scenario.cluster.gpuId).family;
    if (c.unknown.attention)
        t.attention = caps.defaultAttentionOn(generation);
    // A published run's "flash" or "sdpa" is the kernel its framework called then (FlashAttention-2 in TorchTitan's
    // 2024 Hopper runs), where a scenario's names mean today's kernels (docs/methods-time.md §4.27).
    t.attention = caps.publishedRunAttention(t.attention, generation);
    if (c.unknown.globalBatch)
        t.globalBatch = t.layout.dp * t.microBatch;
    if (c.unknown.asyncTp)
        t.asyncTp = caps.defaultAsyncTp;
    if (c.unknown.compileLoss)
        t.compileLoss = caps.compiledLossInPublishedRuns;
    if (c.unknown.fusedLoss)
        t.fusedLoss = caps.fusedLossInPublishedRuns;
    if (c.unknown.checkpointEarlyStop)
        t.checkpointEarlyStop = caps.checkpointStopsEarlyInPublishedRuns;
    if (c.unknown.expertTp)
        t.layout.expertTp = caps.expertTpInPublishedRuns;
    c.scenario.name = c.id;
}

/// The id pairs a case with its truth, so it is kept whole; only an absurdly long one is cut (and then matches
/// nothing) so that messages stay short.
std::string caseId(const json& object)
{
    constexpr std::size_t kMaxIdChars = 200;
    const auto id = object.is_object() ? object.find("id") : object.end();
    if (id == object.end() || !id->is_string())
        return "(case without id)";
    const auto& text = id->get_ref<const std::string&>();
    return text.size() <= kMaxIdChars ? text : excerpt(text);
}

/// The development schema's GPU list names B200 and no GB200. B200 GPUs come eight to an HGX or DGX board; four to a
/// node they are a GB200 compute tray (two Grace-Blackwell superchips), whose NVLink domain is the NVL72 rack, not the
/// node. A case that states B200 at four GPUs per node is read as GB200, and the prediction says so.
void readBlackwellTray(ValidationCase& c)
{
    ClusterConfig& cluster = c.scenario.cluster;
    if (cluster.gpuId != "B200" || c.unknown.gpusPerNode || cluster.gpusPerNode != 4)
        return;
    cluster.gpuId = "GB200";
    c.gpuReading = "GPU GB200 (stated B200 at four GPUs per node: a GB200 compute tray, whose NVLink domain is the "
                   "NVL72 rack)";
}

ValidationCase readCase(const json& object)
{
    ValidationCase c;
    c.id = caseId(object);
    const NullableReader root(object, c.id);
    auto& cluster = c.scenario.cluster;
    const auto clusterReader = root.object("cluster");
    cluster.gpuId = GpuCatalog::builtin().currentId(clusterReader.requiredText("gpu"));
    cluster.gpuCount = clusterReader.requiredPositive("num_gpus");
    cluster.gpusPerNode
        = clusterReader.positive("gpus_per_node", std::min(8, cluster.gpuCount), &c.unknown.gpusPerNode);
    readBlackwellTray(c);
    // A board power limit below TDP (Meta's Grand Teton H100s run at 500 W of 700 W); absent = the catalog's TDP.
    cluster.gpuPowerLimitW = clusterReader.optionalNumber("gpu_power_limit_w", 1, 1e5);
    // A case that does not state its network takes the GPU's reference system (DGX A100: 200 Gb/s HDR per GPU,
    // ...); one that does (BLOOM's 4 × 100 Gb/s Omni-Path per 8-GPU node) gives Gb/s per GPU.
    if (const auto nicGbps = clusterReader.optionalNumber("nic_gbps_per_gpu", 1, 1e5))
        cluster.nicGbps = *nicGbps;
    else if (const GpuSpec* gpu = GpuCatalog::builtin().find(cluster.gpuId); gpu && gpu->scaleoutGbpsPerGpu > 0)
        cluster.nicGbps = gpu->scaleoutGbpsPerGpu;
    readModel(root.object("model"), c);
    readTraining(root.object("training"), c);
    readParallelism(root.object("parallelism"), c);
    applyDependentDefaults(c);
    return c;
}

/// One entry of a truth file; every field but the id may be absent or null.
class TruthReader
{
public:
    TruthReader(const json& entry, std::size_t index)
        : m_entry(entry)
        , m_path("truths[" + std::to_string(index) + "]")
    {
        if (!m_entry.is_object())
            throw std::runtime_error(m_path + ": must be an object, got " + JsonFields::describe(m_entry));
    }

    std::optional<double> number(const char* key) const
    {
        const json* value = find(key);
        if (value && !value->is_number())
            fail(key, "must be a number or null, got " + JsonFields::describe(*value));
        return value ? std::optional(value->get<double>()) : std::nullopt;
    }

    std::string text(const char* key) const
    {
        const json* value = find(key);
        if (value && !value->is_string())
            fail(key, "must be a string or null, got " + JsonFields::describe(*value));
        return value ? value->get<std::string>() : std::string();
    }

private:
    const json* find(const char* key) const
    {
        const auto it = m_entry.find(key);
        return it == m_entry.end() || it->is_null() ? nullptr : &*it;
    }

    [[noreturn]] void fail(const char* key, const std::string& problem) const
    {
        throw std::runtime_error(m_path + "." + key + ": " + problem);
    }

    const json& m_entry;
    std::string m_path;
};

/// The case with only the development-set schema's keys (developmentSchemaSections()); what a case file adds beyond
/// them is dropped, so the case reads as one written to that schema would.
json developmentSchemaKeys(const json& entry)
{
    if (!entry.is_object())
        return entry; // readCase names the problem
    json kept = json::object();
    if (const auto id = entry.find("id"); id != entry.end())
        kept["id"] = *id;
    for (const auto& [section, keys] : developmentSchemaSections()) {
        const auto found = entry.find(section);
        if (found == entry.end() || !found->is_object()) {
            if (found != entry.end())
                kept[section] = *found;
            continue;
        }
        json& target = kept[section] = json::object();
        for (const auto& key : keys)
            if (const auto value = found->find(key); value != found->end())
                target[key] = *value;
    }
    if (auto moe = kept.find("model"); moe != kept.end() && moe->contains("moe") && moe->at("moe").is_object()) {
        json& routed = moe->at("moe");
        json schemaOnly = json::object();
        for (const auto& key : developmentSchemaMoeKeys())
            if (const auto value = routed.find(key); value != routed.end())
                schemaOnly[key] = *value;
        routed = std::move(schemaOnly);
    }
    return kept;
}

ValidationCase readCase(const json& object, CaseKeys keys)
{
    return keys == CaseKeys::DevelopmentSchema ? readCase(developmentSchemaKeys(object)) : readCase(object);
}

} // namespace

const std::vector<SchemaSection>& developmentSchemaSections()
{
    static const std::vector<SchemaSection> kSections = {
        {"model",
            {"name", "layers", "hidden", "heads", "kv_heads", "ffn_hidden", "vocab", "seq_len", "mlp", "norm",
                "tied_embeddings", "params", "moe"}},
        {"training",
            {"global_batch_seqs", "micro_batch", "precision", "optimizer", "recompute", "sequence_parallel",
                "zero_stage", "distributed_optimizer", "attention", "framework"}},
        {"cluster", {"gpu", "num_gpus", "gpus_per_node"}},
        {"parallelism", {"tp", "pp", "cp", "dp", "ep", "vpp", "schedule"}},
    };
    return kSections;
}

const std::vector<std::string>& developmentSchemaMoeKeys()
{
    static const std::vector<std::string> kKeys
        = {"experts", "top_k", "expert_ffn_hidden", "shared_experts", "moe_layers"};
    return kKeys;
}

std::vector<ValidationCase> readValidationCases(const std::string& jsonText, CaseKeys keys)
{
    const json document = parseJsonText(jsonText, "cases", &throwCaseError);
    if (document.is_array() && document.size() > limits::kMaxValidationCases)
        throw std::runtime_error("cases: " + std::to_string(document.size()) + " cases, more than the limit of "
            + std::to_string(limits::kMaxValidationCases));
    std::vector<ValidationCase> cases;
    if (document.is_array()) {
        for (const auto& entry : document)
            cases.push_back(readCase(entry, keys));
    } else {
        cases.push_back(readCase(document, keys));
    }
    return cases;
}

std::vector<ValidationTruth> readValidationTruths(const std::string& jsonText)
{
    const json document = parseJsonText(jsonText, "truths", &throwCaseError);
    if (!document.is_array())
        throw std::runtime_error("truths: must be an array of entries, got " + JsonFields::describe(document));
    std::vector<ValidationTruth> truths;
    for (std::size_t i = 0; i < document.size(); ++i) {
        const TruthReader entry(document[i], i);
        ValidationTruth t;
        t.id = entry.text("id");
        if (t.id.empty())
            throw std::runtime_error("truths[" + std::to_string(i) + "].id: is missing");
        t.tokensPerSPerGpu = entry.number("tokens_per_s_per_gpu");
        t.stepTimeS = entry.number("step_time_s");
        t.modelTflopsPerGpu = entry.number("model_tflops_per_gpu");
        t.mfu = entry.number("mfu");
        t.peakMemoryGiB = entry.number("peak_memory_gib");
        t.memoryKind = entry.text("memory_kind");
        t.source = entry.text("source");
        truths.push_back(std::move(t));
    }
    return truths;
}

} // namespace clusterplanner::core
