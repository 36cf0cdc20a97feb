// SPDX-License-Identifier: GPL-3.0-or-later
// Reader of the normalized planner-input and truth schema of the validation sets (data/validation/README.md).
#pragma once

#include "core/model/scenario.h"

#include <optional>
#include <string>
#include <vector>

namespace clusterplanner::core {

/// Which inputs the source left open (null): the planner chooses them. Fields not listed here are required.
struct UnknownFields
{
    bool ffnHidden = false, mlp = false, norm = false, tiedEmbeddings = false;
    bool globalBatch = false, microBatch = false, precision = false, optimizer = false, recompute = false;
    bool sequenceParallel = false, zeroStage = false, distributedOptimizer = false, attention = false;
    bool framework = false, gpusPerNode = false;
    bool tp = false, pp = false, cp = false, dp = false, ep = false, virtualStages = false, schedule = false;
    /// Software settings the development-set schema has no key for (case files may add them), absent or null: the
    /// framework's defaults, or for the unknown framework "other" the fastest it offers for the chosen layout
    /// (docs/methods-time.md §4.27).
    bool compile = false, asyncTp = false, moeDispatcher = false, moeOverlap = false;
    /// Whether the loss was compiled with the model: unstated, what the framework's published runs did
    /// (FrameworkCapabilities::compiledLossInPublishedRuns; docs/methods-memory.md §3.12).
    bool compileLoss = false;
    /// Whether the loss was a fused cross-entropy kernel: unstated, what the framework's published runs used
    /// (FrameworkCapabilities::fusedLossInPublishedRuns; docs/methods-memory.md §3.21).
    bool fusedLoss = false;
    /// Whether full recompute stopped early (training.checkpoint_early_stop): unstated, what the framework's
    /// published runs' PyTorch did (FrameworkCapabilities::checkpointStopsEarlyInPublishedRuns; methods-time §4.54).
    bool checkpointEarlyStop = false;
    /// Expert TP (parallelism.etp): unstated, what the framework's published runs set
    /// (FrameworkCapabilities::expertTpInPublishedRuns; docs/methods-time.md §4.48).
    bool expertTp = false;

    /// True when any of the parallel degrees must be chosen.
    bool anyLayout() const { return tp || pp || cp || dp; }
};

/// One case: a complete scenario (nulls replaced by neutral defaults: see readValidationCases) plus the list of
/// what was null.
struct ValidationCase
{
    std::string id;
    Scenario scenario;
    UnknownFields unknown;
    std::optional<double> statedParams; ///< total parameter count printed by the source, if any
    /// A case that states none of the architecture keys beyond the development-set schema (head_dim, qk_norm,
    /// parallel_block, mla, expert_groups, groups_per_token) takes them from the model preset of its shape: that
    /// preset's name, and what it added in words ("head_dim 128, QK norm"); empty when nothing was taken
    /// (docs/methods-time.md §4.42).
    std::string architecturePreset, architectureAdded;
    /// How the case's GPU was read where it is not the id it names ("B200, four to a node: read as GB200 ..."), for
    /// the prediction to say; empty otherwise (docs/methods-time.md §4.51).
    std::string gpuReading;
};

struct ValidationTruth
{
    std::string id;
    std::optional<double> tokensPerSPerGpu;
    std::optional<double> stepTimeS;
    std::optional<double> modelTflopsPerGpu;
    std::optional<double> mfu;
    std::optional<double> peakMemoryGiB;
    std::string memoryKind; ///< "allocated", "reserved", "unknown" or empty
    std::string source;
};

/// One object of the development-set schema (data/validation/README.md, "Input schema") and its keys.
struct SchemaSection
{
    std::string name; ///< "model", "training", "cluster", "parallelism"
    std::vector<std::string> keys;
};
/// The development-set schema's objects and keys, besides the case's "id".
const std::vector<SchemaSection>& developmentSchemaSections();
/// The keys of the development-set schema's model.moe object.
const std::vector<std::string>& developmentSchemaMoeKeys();

/// What a case file may say beyond the development-set schema (data/validation/README.md).
enum class CaseKeys {
    All, ///< every key the reader knows: compile, async_tp, fp8_recipe, head_dim, gpu_power_limit_w, ...
    DevelopmentSchema ///< only the schema's keys, the rest ignored: what a case written to that schema gets
};
/// Parses one case object or an array of them. Defaults for nulls: ffn 4h (gelu) , gelu/layernorm, untied, global
/// batch = DP × micro-batch, micro-batch 1, amp_bf16, AdamW, no recompute, sequence parallel when TP > 1 under
/// Megatron, ZeRO 0, no distributed optimizer, flash attention, framework "other", 8 GPUs per node (capped at the
/// GPU count), degrees 1 (DP = GPUs / (TP·PP·CP)), 1F1B (interleaved when vpp > 1). Keys later case files may add
/// take the scenario's default when absent (fp8_recipe, cp_load_balance, cluster.gpu_power_limit_w, ...) or are
/// open (compile, async_tp, moe_dispatcher, moe_overlap: UnknownFields); `keys` says whether to read them at all.
/// Throws std::runtime_error naming the case id and the field.
std::vector<ValidationCase> readValidationCases(const std::string& jsonText, CaseKeys keys = CaseKeys::All);
std::vector<ValidationTruth> readValidationTruths(const std::string& jsonText);

} // namespace clusterplanner::core
