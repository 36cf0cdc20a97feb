// SPDX-License-Identifier: GPL-3.0-or-later
// One planning scenario: cluster, model, training set-up and notes, as a plain value.
#pragma once

#include "core/cluster/clusterspec.h"
#include "core/model/costdefaults.h"
#include "core/sched/workloadspec.h"

#include <algorithm>
#include <optional>
#include <string>

namespace clusterplanner::core {

enum class MlpKind { Gelu, SwiGlu };
enum class NormKind { LayerNorm, RmsNorm };
/// Numeric regime. AmpBf16/AmpFp16 keep fp32 master weights and optimizer states; Bf16 is pure bf16.
enum class Precision { Fp32, AmpBf16, Bf16, AmpFp16, Fp8 };
enum class Optimizer { AdamW, Adam, Sgd, SgdMomentum };
/// Modules: Megatron-Core's module list (--recompute-granularity selective --recompute-modules moe_act layernorm): the
/// MoE layers' separate pre-MLP norm and expert activation are not kept but recomputed, element-wise, in the backward
/// (docs/methods-memory.md §3.14). Dense Transformer Engine layers fuse their norms into the GEMMs and are unaffected.
enum class Recompute { None, Selective, Full, Modules };
/// Flash: the best fused kernel for the GPU (cuDNN / Transformer Engine, FlashAttention-3 on Hopper); Sdpa: PyTorch's
/// scaled_dot_product_attention (cuDNN on Hopper since PyTorch 2.11, FlashAttention-2 before and on Ampere); Math:
/// scores materialised; Flash2: a FlashAttention-2-generation kernel (FA2, SDPA's flash backend in PyTorch ≤ 2.10),
/// which on Hopper runs at about half the fused kernel's rate (docs/methods-time.md §4.10); Triton: a FlashAttention
/// written in Triton (flash_attn_triton.py, llm-foundry's attn_impl triton), a little slower than FlashAttention-2 in
/// the forward and well behind it in the backward (docs/methods-time.md §4.52).
enum class AttentionKind { Flash, Sdpa, Math, Flash2, Triton };
/// DualPipe: DeepSeek-V3's bidirectional schedule (arXiv 2412.19437 §3.2.1): half the micro-batches enter at each end,
/// each rank holds two stages (two copies of the model over the pipeline) and overlaps a forward chunk with another
/// micro-batch's backward chunk (docs/methods-time.md §4.46).
enum class PipelineSchedule { GPipe, OneFOneB, Interleaved, ZbH1, DualPipe };
/// How FP8 GEMM operands get their scales (Precision::Fp8 only; docs/methods-time.md §4.16). Delayed: one scale per
/// tensor from the amax history of earlier steps, the cast and its transpose in one kernel (Transformer Engine's
/// default: Megatron, NeMo). Tensorwise: one scale per tensor from the tensor's own amax (torchao's default, TE's
/// "current scaling"). Rowwise: a scale per row of each operand, the GEMM through a row-scaled kernel (torchao).
/// RowwiseGwHp: rowwise with the weight-gradient GEMM left in bf16 (torchao). FrameworkDefault: the framework's
/// first recipe (data/frameworks.json "fp8_recipes").
enum class Fp8Recipe { FrameworkDefault, Delayed, Tensorwise, Rowwise, RowwiseGwHp };
/// How a MoE layer moves its tokens to their experts (docs/methods-time.md §4.25). AllToAll: NCCL all-to-all of every
/// token's top-k copies, regrouped by local expert on arrival (Megatron's "alltoall" dispatcher). DeepEp: a
/// deduplicating dispatcher (DeepEP, HybridEP; Megatron's "flex") that sends a token once per destination node and
/// fans it out over NVLink there.
enum class MoeDispatcher { AllToAll, DeepEp };
/// Width of the optimizer's own copies under mixed precision (docs/methods-memory.md §3.15). Fp32: an fp32 master
/// copy of the weights and fp32 Adam moments. Bf16: the moments in bf16 and the master copy in 16 bits, read from
/// 16-bit gradients with no fp32 copy of them: NeMo 1.0's distributed_fused_adam with dtype bf16 (a bf16 master, which
/// rounds) or Megatron-Core's precision-aware optimizer (the 16-bit remainder that rebuilds the fp32 value exactly
/// beside the bf16 weights). Same bytes, different numerics.
enum class OptimizerStates { Fp32, Bf16 };
/// How ranks are numbered across the groups, fastest-varying first: TP is always innermost (inside a node); the
/// choice is whether data-parallel or pipeline neighbours sit closer (Megatron's default vs its tp-pp-dp mapping).
enum class RankOrdering { TpCpEpDpPp, TpCpEpPpDp };
/// The training stack: decides framework-specific memory behaviour (e.g. fp32 logits upcast, fused kernels).
enum class Framework { Megatron, NeMo, TorchTitan, Fsdp, DeepSpeed, HuggingFace, Other };

/// Whether group-limited routing narrows a token's choice: some groups, and fewer allowed than there are (MoeConfig).
constexpr bool limitsExpertGroups(int expertGroups, int groupsPerToken)
{
    return expertGroups > 0 && groupsPerToken > 0 && groupsPerToken < expertGroups;
}

/// Most multi-token-prediction modules a model may state (ModelConfig::mtpLayers): DeepSeek-V3 trains one; the
/// bound keeps a mistyped count from building a model of thousands of extra layers.
inline constexpr int kMaxMtpLayers = 64;

/// Mixture-of-experts part of a model. moeLayers == 0 means every layer is MoE.
struct MoeConfig
{
    int experts = 8;
    int topK = 2;
    int expertFfnHidden = 14336;
    int sharedExperts = 0;
    int moeLayers = 0;
    double capacityFactor = 1.0;
    /// Group-limited routing (DeepSeek-V2's device-limited, DeepSeek-V3's node-limited routing; Hugging Face
    /// n_group / topk_group): the experts form expertGroups equal groups in expert order and a token takes its
    /// top-k among the groupsPerToken groups it scores highest, so its copies reach at most that many groups' nodes
    /// (docs/methods-time.md §4.28). 0 groups, or groupsPerToken 0 or ≥ expertGroups: unlimited routing.
    int expertGroups = 0;
    int groupsPerToken = 0;
    bool limitsGroups() const { return limitsExpertGroups(expertGroups, groupsPerToken); }
    bool operator==(const MoeConfig&) const = default;
};

/// Multi-head latent attention (DeepSeek-V2/V3; Megatron-Core --multi-latent-attention; docs/methods-model.md
/// §2.4): keys and values are projected up per head from a kvLoraRank-wide latent of the hidden state, queries from a
/// qLoraRank-wide one (or straight from the hidden state when qLoraRank is 0). Each query and key head is
/// qkNopeHeadDim + qkRopeHeadDim wide, the rotary part of the key shared by all heads; each value head vHeadDim.
/// kvLoraRank 0: standard attention (the other fields are then not used).
struct MlaConfig
{
    int kvLoraRank = 0;
    int qLoraRank = 0;
    int qkNopeHeadDim = 128;
    int qkRopeHeadDim = 64;
    int vHeadDim = 128;
    bool enabled() const { return kvLoraRank > 0; }
    bool operator==(const MlaConfig&) const = default;
};

struct ModelConfig
{
    std::string name = "Llama 3 8B";
    int layers = 32;
    int hidden = 4096;
    int heads = 32;
    int kvHeads = 8;
    int ffnHidden = 14336;
    int vocab = 128256;
    int seqLen = 8192;
    MlpKind mlp = MlpKind::SwiGlu;
    NormKind norm = NormKind::RmsNorm;
    bool tiedEmbeddings = false;
    std::optional<MoeConfig> moe;
    // Last, so that aggregate initialisers written before it existed keep their meaning.
    int headDim = 0; ///< width of one attention head; 0 = hidden / heads (Qwen3, Gemma and GPT-OSS set their own)
    /// Queries and keys are normalised per head before RoPE (an RMSNorm of head_dim on each): Qwen3, Gemma 3
    /// (Megatron-Core --qk-layernorm). Element-wise work and saved inputs only (docs/methods-time.md §4.36).
    bool qkNorm = false;
    /// Multi-head latent attention in place of Q/K/V projections of head_dim; heads are then its heads and kvHeads is
    /// not used (every head has its own key and value).
    MlaConfig mla {};
    /// Multi-token-prediction modules (DeepSeek-V3 report §2.2; Megatron-Core --mtp-num-layers; Hugging Face
    /// num_nextn_predict_layers): each predicts one token further ahead with a transformer layer of the model's last
    /// kind, a projection of the normalised hidden state and next-token embedding (2·hidden → hidden) and its own
    /// logits and loss through the shared embedding and LM head. They sit after the last layer, on the head's stage
    /// (docs/methods-model.md §2, "Multi-token prediction"). 0: none, the next-token objective alone.
    int mtpLayers = 0;
    /// Attention and MLP read one norm of the same input and their outputs join the residual together (GPT-J,
    /// GPT-NeoX, PaLM, Falcon, Cohere Command R): one norm per layer, and under tensor parallelism one collective per
    /// pass where the sequential block has two (docs/methods-time.md §4.50). Dense layers of standard attention only:
    /// refused with MoE or MLA.
    bool parallelBlock = false;
    /// Base θ of the rotary position embedding (Llama 3: 500,000; Mixtral and Qwen3: 1,000,000); the launch
    /// configurations write it. The estimate reads only whether it is stated: a LayerNorm model with a base rotates
    /// positions and has no learned position embedding (hasLearnedPositions). 0 = not stated: the framework's default
    /// (10,000 in Megatron-LM), which a model with another base must not train with.
    double ropeBase = 0;
    bool operator==(const ModelConfig&) const = default;
};

/// The training engine's view of the run: gpuCount GPUs of one catalog type, gpusPerNode per node (one NVLink domain
/// per node unless the GPU type says otherwise), nicGbps of scale-out bandwidth per GPU. In a scenario every field but
/// gpuCount is derived from the training group of Scenario::topology (core/cluster/trainingview.h).
struct ClusterConfig
{
    std::string gpuId = "H100-SXM-80GB";
    int gpuCount = 64;
    int gpusPerNode = 8;
    double nicGbps = 400.0; ///< per-GPU scale-out bandwidth, Gbit/s per direction (NDR InfiniBand)
    double oversubscription = 1.0; ///< fabric oversubscription ratio (1 = non-blocking)
    /// Board power limit per GPU (nvidia-smi -pl); unset = the catalog TDP. Slows compute and lowers the power drawn
    /// (core/perf/powercap.h, docs/methods-cluster.md §5).
    std::optional<double> gpuPowerLimitW;
    int nodeCount() const { return gpusPerNode > 0 ? (gpuCount + gpusPerNode - 1) / gpusPerNode : 0; }
    bool operator==(const ClusterConfig&) const = default;
};

/// Degrees of parallelism. dp * tp * pp * cp == GPUs; EP folds into tp * cp * dp (MoE parallel folding).
struct ParallelLayout
{
    int dp = 8;
    int tp = 8;
    int pp = 1;
    int cp = 1;
    int ep = 1;
    int virtualStages = 1; ///< interleaved chunks per pipeline rank
    bool sequenceParallel = true;
    RankOrdering rankOrder = RankOrdering::TpCpEpDpPp;
    /// GPUs splitting each routed expert (Megatron-Core --expert-tensor-parallel-size); kExpertTpDefault follows
    /// Megatron-Core's default, TP, or 1 where the expert-parallel group folds over TP (expertTensorParallel).
    int expertTp = 0;
    /// Hybrid sharding (HSDP; TorchTitan's data_parallel_shard_degree, PyTorch FSDP's HYBRID_SHARD, DeepSpeed's
    /// MiCS, Megatron's distributed-optimizer instances): the DP ranks that shard the states, dpShard × CP of them,
    /// each shard replicated over dp / dpShard groups. kDpShardAll (0), or dp itself, shards over all of DP.
    int dpShard = 0;
    int gpuCount() const { return dp * tp * pp * cp; }
    /// DP ranks of one shard group: dpShard where it divides DP (layoutcheck refuses one that does not), else all.
    int shardDp() const { return dpShard > 0 && dpShard < dp && dp % dpShard == 0 ? dpShard : dp; }
    /// Copies of each shard across DP: 1 unless hybrid sharding.
    int shardReplicas() const { return dp / std::max(1, shardDp()); }
    bool operator==(const ParallelLayout&) const = default;
};

/// ParallelLayout::expertTp: Megatron-Core's default expert tensor parallelism.
inline constexpr int kExpertTpDefault = 0;

/// ParallelLayout::dpShard: shard the states over all of DP (no hybrid sharding).
inline constexpr int kDpShardAll = 0;

/// TrainingConfig::activationOffloadLayers: offload as few layers as the layout needs to fit in memory.
inline constexpr int kActivationOffloadAuto = -1;

struct TrainingConfig
{
    int globalBatch = 512; ///< sequences per optimizer step
    int microBatch = 1; ///< sequences per micro-batch
    Precision precision = Precision::AmpBf16;
    Optimizer optimizer = Optimizer::AdamW;
    Recompute recompute = Recompute::Selective;
    int zeroStage = 1; ///< 0..3; 1 with Megatron = distributed optimizer
    bool distributedOptimizer = true;
    AttentionKind attention = AttentionKind::Flash;
    PipelineSchedule schedule = PipelineSchedule::OneFOneB;
    Framework framework = Framework::Megatron;
    ParallelLayout layout;
    /// Context parallelism splits each sequence into 2·cp chunks and gives rank i chunks i and 2cp−1−i, so that
    /// every rank does the same share of the causal attention (Megatron-Core, PyTorch/TorchTitan). Off: contiguous
    /// chunks, the last rank does (2cp−1)/cp of the mean (docs/methods-time.md §4.10).
    bool cpLoadBalance = true;
    /// Graph compilation (torch.compile) on: element-wise work is fused into few kernels. Off: eager PyTorch, one
    /// kernel per op issued from Python. Only frameworks whose fusion comes from the compiler (TorchTitan) are
    /// affected (data/frameworks.json "compile_fuses"; docs/methods-time.md §4.12).
    bool compile = true;
    /// With compile on, the loss is compiled too (TorchTitan since 2025-04: the fp32 upcast, log-softmax and their
    /// gradients fuse into kernels that keep only the logits and their 16-bit gradient); off, it runs eager
    /// (TorchTitan's 2024 runs). Only frameworks whose fusion comes from the compiler (docs/methods-memory.md §3.12).
    bool compileLoss = true;
    /// The cross-entropy is one fused kernel over the 16-bit logits (flash-attn's cross_entropy, llm-foundry's default
    /// loss): it keeps only the logits and a per-row log-sum-exp and writes one 16-bit gradient, where PyTorch's eager
    /// loss holds fp32 copies and moves about 20 bytes per logit. Read by eager frameworks whose models hand the loss
    /// 16-bit logits (core/model/frameworkrules.h fusedLossApplies; docs/methods-memory.md §3.21).
    bool fusedLoss = false;
    /// Asynchronous tensor parallelism: each sequence-parallel all-gather / reduce-scatter is split into TP chunks
    /// that move while the GEMM works on the previous one (TorchTitan async TP, Megatron --tp-comm-overlap).
    /// Needs sequence parallelism, a framework that offers it, and torch.compile where fusion comes from the
    /// compiler (docs/methods-time.md §4.13).
    bool asyncTp = false;
    /// FP8 scaling recipe (only read with Precision::Fp8); one the framework does not offer falls back to its default.
    Fp8Recipe fp8Recipe = Fp8Recipe::FrameworkDefault;
    /// Optimizer state width under mixed precision; one the framework does not offer falls back to fp32.
    OptimizerStates optimizerStates = OptimizerStates::Fp32;
    /// MoE token dispatcher; one the framework does not offer falls back to the all-to-all.
    MoeDispatcher moeDispatcher = MoeDispatcher::AllToAll;
    /// Overlap of the expert all-to-alls with a paired micro-batch's compute: one micro-batch's forward beside
    /// another's backward (Megatron-Core's combined 1F1B, --overlap-moe-expert-parallel-comm; DeepSeek's DualPipe).
    /// Needs expert parallelism, a framework that offers it, no full recompute, and in Megatron interleaved stages
    /// when pipelined (docs/methods-time.md §4.25).
    bool moeOverlap = false;
    /// Transformer layers whose saved activations go to host memory in the forward and come back in the backward
    /// (Megatron-Core --cpu-offloading-num-layers, Transformer Engine's CPU offload context): 0 = none;
    /// kActivationOffloadAuto = the fewest that make the layout fit. Needs a framework that offers it, PP 1 and no
    /// recompute, and fewer layers than the model has (docs/methods-memory.md §3.11, docs/methods-time.md §4.32).
    int activationOffloadLayers = 0;
    /// Full recompute runs on a PyTorch whose non-reentrant checkpoint stops early (2.1 and later, where it is the
    /// default): read only by frameworks that checkpoint that way (FrameworkCapabilities::checkpointStopsEarly).
    /// Not a scenario key (a plan is for today's software); a validation case takes what its framework's published
    /// runs ran, older PyTorch included (docs/methods-time.md §4.54).
    bool checkpointEarlyStop = true;
    /// Optimizer states split over the data-parallel ranks: ZeRO ≥ 1 or Megatron's distributed optimizer.
    bool shardsOptimizerStates() const { return zeroStage >= 1 || distributedOptimizer; }
    bool operator==(const TrainingConfig&) const = default;
};

/// Money and energy assumptions for the run.
struct EconomicsConfig
{
    double trainingTokens = 1.0e12; ///< token budget of the whole run
    double gpuHourUsd = 2.5; ///< rented price per GPU-hour
    double electricityUsdPerKwh = costDefaults().usdPerKwh; ///< data/costs.json
    double pue = costDefaults().pue; ///< facility power usage effectiveness, data/costs.json
    // Overrides of data/costs.json for the owned cluster's capex and opex (docs/methods-cluster.md §6); unset = the
    // default row. Switch, optics, node prices and powers are overridden in the topology itself.
    std::optional<double> lifetimeYears; ///< TCO period; default amortisation_years
    std::optional<double>
        maintenanceFractionPerYear; ///< share of hardware capex per year; default maintenance_fraction_per_year
    std::optional<double> storageUsdPerGpu; ///< default storage_usd_per_gpu
    std::optional<double>
        facilityUsdPerKw; ///< power and cooling build-out per kW of IT load; default facility_usd_per_kw
    bool operator==(const EconomicsConfig&) const = default;
};

struct Scenario
{
    std::string name = "Llama 3 8B on 64 H100";
    ModelConfig model;
    /// The engine's view of the training run, derived from `topology` and `trainingGroup` (gpuCount: the run's GPUs).
    ClusterConfig cluster;
    /// The whole cluster: node groups, racks, fabric and facility (the file's `cluster` section).
    cluster::ClusterSpec topology;
    /// The node group the training run uses (a group name of `topology`).
    std::string trainingGroup;
    TrainingConfig training;
    EconomicsConfig economics;
    std::string notes;
    /// Jobs for the shared-cluster simulator (trace or synthetic); absent in files that have no workload section.
    std::optional<sched::WorkloadSpec> workload;
    bool operator==(const Scenario&) const = default;
};

/// The scenario the application opens on when nothing else is given.
Scenario defaultScenario();

} // namespace clusterplanner::core
