// SPDX-License-Identifier: GPL-3.0-or-later
// Megatron-LM command-line arguments (megatron/training/arguments.py, Megatron-LM core_r0.12.0).
#include "core/launch/launchplan.h"
#include "core/model/enumnames.h"
#include "core/model/modelmath.h"

#include <cctype>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <utility>

namespace clusterplanner::core::launch {

namespace {

using ArgList = std::vector<std::pair<std::string, std::string>>; ///< name and value ("" for a flag)
/// Separates the items of a list value (a flag with nargs); no value holds a newline otherwise.
constexpr char kListSeparator = '\n';

void addParallelism(const LaunchPlan& p, ArgList& a)
{
    const ParallelLayout& l = p.layout();
    a.push_back({"--tensor-model-parallel-size", std::to_string(l.tp)});
    a.push_back({"--pipeline-model-parallel-size", std::to_string(l.pp)});
    a.push_back({"--context-parallel-size", std::to_string(l.cp)});
    if (p.model().moe) {
        a.push_back({"--expert-model-parallel-size", std::to_string(l.ep)});
        // Megatron's default expert TP is the TP size. A layout that sets another, or whose EP group reaches into
        // the TP ranks (parallel folding: experts unsplit by TP, where ETP = TP would need ETP·EP·PP GPUs beyond the
        // world size), says so.
        if (const int expertTp = expertTensorParallel(l); expertTp != l.tp)
            a.push_back({"--expert-tensor-parallel-size", std::to_string(expertTp)});
    }
    // The interleaved schedule is chosen by giving more than one model chunk per pipeline rank; an uneven split is
    // spelled out chunk by chunk, the embedding before the first and the loss after the last.
    if (p.unevenSplit())
        a.push_back({"--pipeline-model-parallel-layout", p.megatronPipelineLayout()});
    else if (p.virtualStages > 1)
        a.push_back({"--num-layers-per-virtual-pipeline-stage", std::to_string(p.layersPerVirtualStage)});
    if (l.sequenceParallel && l.tp > 1)
        a.push_back({"--sequence-parallel", ""});
    if (p.asyncTpInEffect())
        a.push_back({"--tp-comm-overlap", ""}); // Transformer Engine userbuffers (the engine's async TP)
    if (l.rankOrder == RankOrdering::TpCpEpPpDp)
        a.push_back({"--use-tp-pp-dp-mapping", ""});
}

/// A whole number as digits (500000, not 5e+05); other values with up to 10 significant digits.
std::string shortNumber(double value)
{
    if (value == std::floor(value) && value < 1e15)
        return std::to_string(static_cast<long long>(value));
    std::ostringstream text;
    text << std::setprecision(10) << value;
    return text.str();
}

void addModel(const ModelConfig& m, ArgList& a, std::vector<std::string>& notes)
{
    a.push_back({"--num-layers", std::to_string(m.layers)});
    a.push_back({"--hidden-size", std::to_string(m.hidden)});
    a.push_back({"--ffn-hidden-size", std::to_string(m.ffnHidden)});
    a.push_back({"--num-attention-heads", std::to_string(m.heads)});
    if (m.headDim > 0)
        a.push_back({"--kv-channels", std::to_string(m.headDim)}); // Megatron's name for the head dimension
    if (m.kvHeads < m.heads) {
        a.push_back({"--group-query-attention", ""});
        a.push_back({"--num-query-groups", std::to_string(m.kvHeads)});
    }
    a.push_back({"--seq-length", std::to_string(m.seqLen)});
    a.push_back({"--max-position-embeddings", std::to_string(m.seqLen)});
    if (m.mlp == MlpKind::SwiGlu)
        a.push_back({"--swiglu", ""});
    if (m.norm == NormKind::RmsNorm)
        a.push_back({"--normalization", "RMSNorm"});
    // Rotary positions wherever the parameter count has no learned ones (RMSNorm families, GPT-NeoX's LayerNorm with
    // a stated base); Megatron-LM's --rotary-base defaults to 10,000, which trains a Llama 3 (500,000) as another
    // model.
    if (!hasLearnedPositions(m)) {
        a.push_back({"--position-embedding-type", "rope"});
        if (m.norm != NormKind::RmsNorm) // GPT-NeoX rotates a quarter of each head (rotary_pct 0.25)
            notes.push_back("the scenario does not say which share of each head is rotated (GPT-NeoX: 25 %); "
                            "Megatron-LM's --rotary-percent defaults to 1.0: set it to the model's");
        if (m.ropeBase > 0)
            a.push_back({"--rotary-base", shortNumber(m.ropeBase)});
        else
            notes.push_back("the scenario states no RoPE base (model.rope_base): Megatron-LM's --rotary-base default, "
                            "10000, applies; set it to the model's");
    }
    if (m.norm == NormKind::RmsNorm)
        a.push_back({"--disable-bias-linear", ""});
    if (!m.tiedEmbeddings)
        a.push_back({"--untie-embeddings-and-output-weights", ""});
    if (m.mla.enabled()) {
        a.push_back({"--multi-latent-attention", ""});
        if (m.mla.qLoraRank > 0) // unset: queries projected from the hidden state (DeepSeek-V2-Lite)
            a.push_back({"--q-lora-rank", std::to_string(m.mla.qLoraRank)});
        a.push_back({"--kv-lora-rank", std::to_string(m.mla.kvLoraRank)});
        a.push_back({"--qk-head-dim", std::to_string(m.mla.qkNopeHeadDim)});
        a.push_back({"--qk-pos-emb-head-dim", std::to_string(m.mla.qkRopeHeadDim)});
        a.push_back({"--v-head-dim", std::to_string(m.mla.vHeadDim)});
    }
    // With --normalization RMSNorm the QK norm is an RMSNorm too; under MLA the flag gives the query and key/value
    // latents their norms (Megatron-Core's q_layernorm and kv_layernorm), which DeepSeek's models have.
    if (m.qkNorm || m.mla.enabled())
        a.push_back({"--qk-layernorm", ""});
    if (m.mtpLayers > 0) // the MTP modules go to the last pipeline stage, after its layers
        a.push_back({"--mtp-num-layers", std::to_string(m.mtpLayers)});
}

std::string moeLayerPattern(const ModelConfig& m, int moeLayers)
{
    // The dense layers come first (DeepSeek's first_k_dense_replace); Megatron evaluates this Python list.
    return "([0]*" + std::to_string(m.layers - moeLayers) + "+[1]*" + std::to_string(moeLayers) + ")";
}

void addMoe(const LaunchPlan& p, ArgList& a, std::vector<std::string>& notes)
{
    const ModelConfig& m = p.model();
    if (!m.moe)
        return;
    // Megatron's default dispatcher is "allgather"; the estimate models the all-to-all or DeepEP (§4.25).
    a.push_back({"--moe-token-dispatcher-type", p.deepEpInEffect() ? "flex" : "alltoall"});
    if (p.deepEpInEffect())
        a.push_back({"--moe-enable-deepep", ""});
    if (p.moeOverlapInEffect()) {
        a.push_back({"--overlap-moe-expert-parallel-comm", ""});
        a.push_back({"--delay-wgrad-compute", ""});
        notes.push_back("--overlap-moe-expert-parallel-comm needs Megatron-Core 0.14 or later");
    }
    // Off by default in Megatron-Core; the estimate hides part of each all-to-all behind the shared experts (§4.39).
    if (p.sharedExpertOverlapInEffect())
        a.push_back({"--moe-shared-expert-overlap", ""});
    // Megatron-Core's TransformerConfig refuses moe_act in recompute_modules without the grouped GEMM.
    if (p.training().recompute == Recompute::Modules)
        a.push_back({"--moe-grouped-gemm", ""});
    a.push_back({"--num-experts", std::to_string(m.moe->experts)});
    a.push_back({"--moe-router-topk", std::to_string(m.moe->topK)});
    a.push_back({"--moe-ffn-hidden-size", std::to_string(m.moe->expertFfnHidden)});
    if (m.moe->limitsGroups()) {
        a.push_back({"--moe-router-num-groups", std::to_string(m.moe->expertGroups)});
        a.push_back({"--moe-router-group-topk", std::to_string(m.moe->groupsPerToken)});
    }
    if (m.moe->sharedExperts > 0)
        a.push_back(
            {"--moe-shared-expert-intermediate-size", std::to_string(m.moe->sharedExperts * m.moe->expertFfnHidden)});
    if (m.moe->moeLayers > 0 && m.moe->moeLayers < m.layers)
        a.push_back({"--moe-layer-freq", moeLayerPattern(m, m.moe->moeLayers)});
}

void addPrecision(Precision precision, Fp8Recipe recipe, ArgList& a)
{
    switch (precision) {
    case Precision::Fp32:
        return; // Megatron trains in fp32 unless --bf16 or --fp16 is given
    case Precision::AmpFp16:
        a.push_back({"--fp16", ""});
        return;
    case Precision::Bf16: // not a Megatron-LM mode: LaunchPlan::precisionNote says so for every writer
    case Precision::AmpBf16:
        a.push_back({"--bf16", ""});
        return;
    case Precision::Fp8:
        a.push_back({"--bf16", ""});
        a.push_back({"--fp8-format", "hybrid"});
        a.push_back({"--fp8-recipe", std::string(toString(recipe))}); // Megatron-Core: delayed or tensorwise
        return;
    }
}

/// How the states are sharded and the data-parallel collectives overlapped, as the estimate assumes.
void addDataParallel(const LaunchPlan& p, ArgList& a, std::vector<std::string>& notes)
{
    const TrainingConfig& t = p.training();
    if (t.zeroStage >= 3) {
        // Megatron-FSDP shards parameters, gradients and optimizer states (ZeRO-3) over the distributed optimizer;
        // its README lists these flags as required.
        a.push_back({"--use-megatron-fsdp", ""});
        a.push_back({"--data-parallel-sharding-strategy", "optim_grads_params"});
        a.push_back({"--use-distributed-optimizer", ""});
        a.push_back({"--no-gradient-accumulation-fusion", ""});
        a.push_back({"--ckpt-format", "fsdp_dtensor"});
        notes.push_back("ZeRO-3 is written as Megatron-FSDP (--use-megatron-fsdp); Megatron-Core versions before its "
                        "rename call it --use-custom-fsdp");
    } else if (t.shardsOptimizerStates()) { // Megatron's ZeRO-1 is its distributed optimizer
        a.push_back({"--use-distributed-optimizer", ""});
    }
    if (const int copies = p.layout().shardReplicas(); copies > 1 && t.shardsOptimizerStates()) {
        // Hybrid sharding: the distributed optimizer (or Megatron-FSDP) shards within each of `copies` DP groups;
        // Megatron-FSDP keeps the outer groups unsharded, their gradients all-reduced.
        a.push_back({"--num-distributed-optimizer-instances", std::to_string(copies)});
        if (t.zeroStage >= 3)
            a.push_back({"--outer-dp-sharding-strategy", "no_shard"});
    }
    // The estimate hides the gradient reduction under the backward and the parameter gather under the forward
    // (data/efficiency.json dp_overlap); Megatron-LM overlaps neither unless asked.
    const ParallelLayout& l = p.layout();
    if (reducesGradients(l)) {
        a.push_back({"--overlap-grad-reduce", ""});
        if (t.shardsOptimizerStates())
            a.push_back({"--overlap-param-gather", ""}); // needs the distributed optimizer
    }
}

void addTraining(const LaunchPlan& p, ArgList& a, std::vector<std::string>& notes)
{
    const TrainingConfig& t = p.training();
    a.push_back({"--micro-batch-size", std::to_string(t.microBatch)});
    a.push_back({"--global-batch-size", std::to_string(t.globalBatch)});
    addPrecision(t.precision, p.fp8RecipeInEffect(), a);
    if (t.recompute != Recompute::None)
        a.push_back({"--recompute-granularity", t.recompute == Recompute::Full ? "full" : "selective"});
    if (t.recompute == Recompute::Modules) { // one value per word: the flag takes a list (nargs='*')
        std::string modules;
        for (const std::string& module : p.recomputeModules())
            modules += (modules.empty() ? "" : std::string(1, kListSeparator)) + module;
        a.push_back({"--recompute-modules", modules});
        notes.push_back(std::string("--recompute-modules (recompute the MoE activation and the separate norms")
            + (p.model().mla.enabled() ? ", and MLA's up-projections" : "")
            + ") needs a Megatron-Core release that has it (2025 and later), and one that recomputes them under FP8 "
              "when the run is FP8");
    }
    if (t.recompute == Recompute::Full) {
        a.push_back({"--recompute-method", "uniform"});
        a.push_back({"--recompute-num-layers", "1"});
    }
    if (p.activationOffloadLayers > 0) {
        a.push_back({"--cpu-offloading", ""});
        a.push_back({"--cpu-offloading-num-layers", std::to_string(p.activationOffloadLayers)});
    }
    addDataParallel(p, a, notes);
    // Megatron's "adam" is AdamW (decoupled weight decay).
    const bool sgd = t.optimizer == Optimizer::Sgd || t.optimizer == Optimizer::SgdMomentum;
    a.push_back({"--optimizer", sgd ? "sgd" : "adam"});
    if (p.optimizerStatesInEffect() == OptimizerStates::Bf16) {
        // Transformer Engine's FusedAdam keeps bf16 moments and, by store_param_remainders' default, only the 16
        // bits of each fp32 master weight that the bf16 weight lacks; it reads the bf16 gradients directly.
        a.push_back({"--use-precision-aware-optimizer", ""});
        a.push_back({"--main-grads-dtype", "bf16"});
        a.push_back({"--exp-avg-dtype", "bf16"});
        a.push_back({"--exp-avg-sq-dtype", "bf16"});
    }
    const bool flash = t.attention == AttentionKind::Flash || t.attention == AttentionKind::Flash2
        || t.attention == AttentionKind::Triton;
    const char* backend = flash ? "flash" : t.attention == AttentionKind::Sdpa ? "fused" : "unfused";
    a.push_back({"--attention-backend", backend});
}

/// The value as one shell word: single-quoted when it holds anything beyond letters, digits and "._-/".
std::string shellWord(const std::string& value)
{
    if (const auto at = value.find(kListSeparator); at != std::string::npos) // a list: one word per item
        return shellWord(value.substr(0, at)) + " " + shellWord(value.substr(at + 1));
    for (const char c : value)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-' && c != '/')
            return "'" + value + "'";
    return value;
}

} // namespace

LaunchFile writeMegatronArgs(const LaunchPlan& plan)
{
    LaunchFile file;
    ArgList args;
    addParallelism(plan, args);
    if (const std::string note = plan.unevenSplitNote(); !note.empty())
        file.notes.push_back(note);
    addModel(plan.model(), args, file.notes);
    addMoe(plan, args, file.notes);
    addTraining(plan, args, file.notes);
    file.notes.push_back("the vocabulary size comes from the tokenizer (--tokenizer-type); the model has "
        + std::to_string(plan.model().vocab) + " entries");
    file.launchLine = torchrunLine(*plan.scenario, "pretrain_gpt.py");
    file.text = "# Megatron-LM core_r0.12.0 arguments for " + quoted(plan.scenario->name) + ": "
        + std::to_string(plan.nodes) + " nodes x " + std::to_string(plan.gpusPerNode) + " GPUs\n" + file.launchLine;
    for (const auto& [name, value] : args)
        file.text += " \\\n    " + name + (value.empty() ? "" : " " + shellWord(value));
    file.text += "\n";
    file.fileName = "megatron-launch.sh";
    return file;
}

} // namespace clusterplanner::core::launch
