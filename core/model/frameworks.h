// SPDX-License-Identifier: GPL-3.0-or-later
// What each training framework can run (pipeline schedules, recompute modes, ZeRO stages, sequence
// parallelism), what it does when a setting is left open, and how it behaves where the time and memory models
// depend on it (kernels, mixed precision, ZeRO-3 collectives, pipeline transfers), from data/frameworks.json.
#pragma once

#include "core/model/scenario.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace clusterplanner::core {

/// How a framework runs a MoE layer's shared experts beside the expert all-to-alls (data/frameworks.json
/// shared_expert_overlap): not at all; on a side stream during both (Megatron-Core's moe_shared_expert_overlap); or
/// between the combine's launch and its wait (TorchTitan's async functional all-to-all).
enum class SharedExpertOverlap { None, SideStream, CombineOnly };

struct FrameworkCapabilities
{
    Framework framework = Framework::Other;
    std::vector<PipelineSchedule> schedules;
    std::vector<Recompute> recomputeModes;
    std::vector<int> zeroStages; ///< 0..3; 1 is Megatron's distributed optimizer where distributedOptimizer
    int maxZeroStageWithPipeline = 3; ///< DeepSpeed: ZeRO-2/3 do not combine with pipeline stages
    int maxPipelineStages = 0; ///< 0 = no limit; 1 = no pipeline engine
    bool sequenceParallel = true; ///< Megatron-style norm/dropout activations split over TP
    bool distributedOptimizer = false; ///< stage 1 is Megatron's distributed optimizer (over DP×CP)
    AttentionKind defaultAttention = AttentionKind::Flash; ///< used when the attention kernel is not stated
    /// Where the kernel an unstated case ran depends on the GPU generation (efficiency family name, e.g.
    /// "Ampere"): Megatron-LM's published A100 runs of 2021-23 predate its flash kernels and materialise the
    /// scores, its H100 runs use Transformer Engine's fused attention (docs/methods-time.md §4.27).
    std::map<std::string, AttentionKind> defaultAttentionByGeneration;
    /// The kernel a case that does not state one ran on a GPU of this generation.
    AttentionKind defaultAttentionOn(const std::string& generation) const;
    /// Attention names that, in a published run of this framework on a GPU generation, called a
    /// FlashAttention-2-generation kernel (docs/methods-time.md §4.27): TorchTitan's and DeepSpeed's runs on Hopper
    /// before PyTorch 2.11 (SDPA's flash backend first, flash-attn 2), where Transformer
    /// Engine stacks and PyTorch >= 2.11's SDPA run cuDNN's fused attention. Case files only: a scenario's "flash"
    /// and "sdpa" are today's kernels, and "flash2" says FA2 outright.
    std::map<std::string, std::vector<AttentionKind>> flash2InPublishedRuns;
    /// Attention names that, in the framework's published runs on a generation, called a FlashAttention written in
    /// Triton (llm-foundry's 2023 benchmarks: attn_impl triton by default, on A100 and H100; docs/methods-time.md
    /// §4.52).
    /// Takes precedence over flash2InPublishedRuns.
    std::map<std::string, std::vector<AttentionKind>> tritonInPublishedRuns;
    /// The kernel a published run that names `named` ran on this generation.
    AttentionKind publishedRunAttention(AttentionKind named, const std::string& generation) const;
    bool zero3GathersOnRecompute = false; ///< a recomputed forward gathers ZeRO-3 parameters once more
    /// Under hybrid sharding with ZeRO-3, each unit's reduce-scattered gradients are all-reduced over the shard's
    /// copies in the same post-backward hook, every micro-batch (PyTorch FSDP's HYBRID_SHARD and HSDP); else once at
    /// the step's end (Megatron's distributed-optimizer instances, DeepSpeed's MiCS; docs/methods-time.md §4.57).
    bool hybridShardReducesEveryMicroBatch = false;
    /// Full recompute is PyTorch's non-reentrant checkpoint, which stops recomputing once every tensor the backward
    /// saved is back (torch.utils.checkpoint early stop, on by default): a dense block's last matmul, whose inputs
    /// are its last saved tensors, and the collective after it do not run again (docs/methods-time.md §4.54).
    bool checkpointStopsEarly = false;
    /// Whether the framework's published runs had that early stop (a case that does not say): false where they
    /// predate PyTorch 2.1 (llm-foundry's 2023 tables) or an older framework default (Hugging Face before 2026-01).
    bool checkpointStopsEarlyInPublishedRuns = false;
    bool autocast = false; ///< 16-bit training is torch.autocast over fp32 parameters (else 16-bit parameters)
    /// Pure bf16 (16-bit weights, gradients and optimizer states) is a mode of the framework: a Hugging Face model
    /// loaded in bf16. Where false, the framework's bf16 keeps fp32 master weights and optimizer states whatever
    /// it is called (Megatron-LM's --bf16, NeMo's bf16-mixed, TorchTitan's and PyTorch FSDP's mixed-precision
    /// parameters, Composer's bf16 with FSDP mixed precision PURE, DeepSpeed's bf16 optimizer), and a scenario's
    /// pure bf16 runs as bf16 mixed precision (precisionInEffect, docs/methods-memory.md §3.13).
    bool pureBf16 = true;
    std::optional<double> zero3Overlap; ///< replaces the family's zero3_overlap for frameworks that prefetch
    std::optional<double> zero3Hierarchy; ///< replaces the family's zero3_hierarchy (1 = every NIC of a node)
    bool asyncP2p = true; ///< pipeline sends/receives overlap compute (else they run in turn, fully exposed)
    bool fusedKernels = true; ///< fused kernels (time model); false = eager PyTorch ops issued from Python
    bool gradReduceFp32 = true; ///< mixed-precision gradients are reduced as fp32 (else in the 16-bit dtype)
    /// Eager GELU written as Python arithmetic (Hugging Face gelu_new: pow, tanh, adds, muls: 8 ops, fp32
    /// intermediates under autocast) rather than one native nn.GELU kernel (docs/methods-time.md §4.6).
    bool pythonGelu = false;
    /// What "selective" recompute means (docs/methods-time.md §4.7): Megatron recomputes the attention core only
    /// (Korthikanti et al. 2022); TorchTitan's op-level selective checkpointing saves the outputs of every other
    /// matmul and of attention and recomputes the rest of the block.
    bool selectiveIsOpLevel = false;
    /// FSDP inside pipeline stages keeps the stage's gathered 16-bit parameters between forward and backward
    /// (TorchTitan: reshard_after_forward is off when pipeline parallelism is on), docs/methods-memory.md §3.8.
    bool keepsGatheredParamsWithPipeline = false;
    /// The sharded gradients are the output of a reduce-scatter that FSDP allocates on its own stream (PyTorch
    /// FSDP2's foreach_reduce, FSDP1's post-backward stream). Freed between steps (zero_grad sets them to None), their
    /// blocks stay cached in that stream's pool, which the compute stream's allocations cannot reuse, so the
    /// allocator keeps them reserved through the next forward (docs/methods-memory.md §3.23).
    bool shardedGradientsOnReduceStream = false;
    /// MoE experts apply the routing probabilities inside their activation (Megatron-Core 0.13 and later, 2025-07:
    /// TEGroupedMLP's weighted SwiGLU), so the combine is a plain sum that keeps no expert outputs for the gradient of
    /// the probabilities (docs/methods-memory.md §3.18); else the combine multiplies by them and keeps the k outputs.
    bool moeProbsInActivation = false;
    /// How the shared experts' MLP runs beside the expert all-to-alls (docs/methods-time.md §4.39). None: an unpaired
    /// all-to-all is exposed whole.
    SharedExpertOverlap sharedExpertOverlap = SharedExpertOverlap::None;
    /// The fused kernels come from torch.compile (TorchTitan): with TrainingConfig::compile off the framework runs
    /// eager PyTorch ops (docs/methods-time.md §4.12).
    bool compileFuses = false;
    /// Where the transformer layers do not divide into the pipeline's model chunks but the layers plus two do, the
    /// embedding and the loss each take one layer's slot: the first and the last stage hold one layer fewer, in their
    /// first and last model chunk (Megatron-Core's account_for_embedding_in_pipeline_split and
    /// account_for_loss_in_pipeline_split; docs/methods-memory.md §3.25).
    bool pipelineEndsTakeLayerSlots = false;
    /// The framework's published runs compiled the loss with the model (TrainingConfig::compileLoss for a validation
    /// case that does not say): TorchTitan's 2024 runs did not, its loss compile arrived in 2025-04.
    bool compiledLossInPublishedRuns = false;
    /// The framework's published runs used a fused cross-entropy kernel (TrainingConfig::fusedLoss for a validation
    /// case that does not say): llm-foundry's benchmarks, entered as PyTorch FSDP, ran flash-attn's
    /// (docs/methods-memory.md §3.21).
    bool fusedLossInPublishedRuns = false;
    /// The framework's models upcast the logits to fp32 before the loss (Hugging Face's causal-LM heads: logits.float()
    /// in forward, later in ForCausalLMLoss), so no loss kernel sees 16-bit logits (docs/methods-memory.md §3.21).
    bool upcastsLogitsBeforeLoss = false;
    /// With TP > 1 the loss runs over vocabulary-sharded logits as PyTorch DTensor's loss_parallel composes it from
    /// unfused ops (TorchTitan, on by default): its backward materialises exp(log-probabilities) and a zeroed
    /// one-hot gradient beside the fused kernel's buffers (docs/methods-memory.md §3.10).
    bool dtensorLossParallel = false;
    /// The training loop drops its reference to the logits between loss and backward (TorchTitan's train step:
    /// "del pred", "need to free to before bwd to avoid peaking memory"), so they are not part of the backward's
    /// peak unless a pipeline schedule keeps them (docs/methods-memory.md §3.10).
    bool freesLogitsBeforeBackward = false;
    /// Offers asynchronous tensor parallelism (TrainingConfig::asyncTp): TorchTitan, Megatron-LM, NeMo.
    bool asyncTp = false;
    /// What a case that does not say runs (docs/methods-time.md §4.27): NeMo's performance recipes overlap TP
    /// communication (MegatronCommOverlapCallback, "required for performance"); Megatron-LM and TorchTitan need it
    /// asked for.
    bool defaultAsyncTp = false;
    /// What a case that does not say runs for Megatron's distributed optimizer (docs/methods-time.md §4.29):
    /// Megatron-LM's --use-distributed-optimizer is off unless given; NeMo's and Megatron-Bridge's recipes turn it
    /// on. Empty where the framework has no such default (the sweep chooses).
    std::optional<bool> defaultDistributedOptimizer;
    /// Where a framework's published runs on a GPU generation ran otherwise: Megatron's Hopper and Blackwell runs
    /// (Megatron-Core, NVIDIA's performance recipes) shard the optimizer, its Ampere-era runs did not say.
    std::map<std::string, bool> defaultDistributedOptimizerByGeneration;
    /// The distributed optimizer a case that does not state it ran on a GPU of this generation (empty: open).
    std::optional<bool> defaultDistributedOptimizerOn(const std::string& generation) const;
    /// Software settings a case leaves open (compile, async TP, MoE dispatcher and overlap) are the fastest this
    /// entry offers, as the planner chooses an open layout, instead of the framework's defaults: the entry for
    /// frameworks the project does not know ("other"), whose defaults are unknown too.
    bool openSettingsFastest = false;
    /// Offers a deduplicating MoE dispatcher (TrainingConfig::moeDispatcher DeepEp): Megatron-Core's flex
    /// dispatcher with DeepEP or HybridEP (Megatron-LM, NeMo), DeepSeek's and NeMo AutoModel's stacks (other).
    bool deepEp = false;
    /// Offers the expert all-to-all overlap of paired micro-batches (TrainingConfig::moeOverlap).
    bool moeOverlap = false;
    /// That overlap needs interleaved (virtual) stages when the layout is pipelined: Megatron-Core's combined 1F1B
    /// pairs chunks of the interleaved schedule (DualPipe pairs its own chunks and needs none).
    bool moeOverlapNeedsVirtualStages = false;
    /// What a case that does not say ran (docs/methods-time.md §4.41): NVIDIA's published MoE recipes
    /// (Megatron-Bridge's performance presets, Megatron-Core's MoE README) pair micro-batches where the expert
    /// all-to-all leaves the NVLink domain of a pipelined run, and leave it off elsewhere (data/frameworks.json
    /// `moe_overlap_in_published_runs`).
    bool moeOverlapInPublishedRunsAcrossDomains = false;
    /// Expert tensor parallelism a case that does not say ran (ParallelLayout::expertTp; docs/methods-time.md
    /// §4.48): NeMo's and Megatron-Bridge's MoE performance recipes set expert_tensor_parallel_size 1 whatever
    /// their TP; kExpertTpDefault (0) where the framework's published runs left Megatron-Core's default.
    int expertTpInPublishedRuns = 0;
    /// Offers activation offload to host memory (TrainingConfig::activationOffloadLayers; Megatron-Core's
    /// --cpu-offloading through Transformer Engine).
    bool activationOffload = false;
    /// With pipeline stages and no stated micro-batch, the local batch is split into as many micro-batches as there
    /// are pipeline stages (TorchTitan of 2024: experimental.pipeline_parallel_microbatches defaults to the pipeline
    /// degree). Else an unstated micro-batch is left to the planner (docs/methods-time.md §4.14).
    bool microBatchesDefaultToStages = false;
    /// Model chunks per pipeline rank of an interleaved schedule whose split the source does not state (TorchTitan:
    /// two, generate_split_points); 0 = left to the planner.
    int defaultVirtualStages = 0;
    /// FP8 scaling recipes the framework runs, its default first (docs/methods-time.md §4.16): Transformer Engine's
    /// delayed scaling where FP8 goes through TE, torchao's tensorwise / rowwise recipes in TorchTitan.
    std::vector<Fp8Recipe> fp8Recipes {Fp8Recipe::Delayed};
    /// Optimizer state widths the framework offers (TrainingConfig::optimizerStates), fp32 first: 16-bit states
    /// where the stack has them (NeMo's distributed_fused_adam dtype, Megatron-Core's precision-aware optimizer).
    std::vector<OptimizerStates> optimizerStates {OptimizerStates::Fp32};
    /// FP8 runs through Transformer Engine, which saves the FP8 copies of GEMM inputs for the backward; else torchao,
    /// which saves the bf16 inputs and casts them again in the backward (docs/methods-time.md §4.16).
    bool fp8ViaTransformerEngine = true;
    /// Transformer Engine's fused norm-and-linear layers feed the QKV and first MLP projections (Megatron-Core's TE
    /// spec: LayerNormColumnParallelLinear); other stacks swap in te.Linear after a separate norm (§4.27).
    bool teFusedNormLinear = false;
    std::string source;

    bool supports(PipelineSchedule schedule) const;
    bool supports(Recompute recompute) const;
    /// Whether the stage is offered, given how many pipeline stages the layout has.
    bool supportsZeroStage(int stage, int pipelineStages) const;
};

/// The capabilities compiled in from data/frameworks.json; every Framework value has an entry.
const FrameworkCapabilities& frameworkCapabilities(Framework framework);

/// Parses a frameworks document; throws std::runtime_error naming the entry and field that are wrong.
std::vector<FrameworkCapabilities> parseFrameworkCapabilities(const std::string& text);

} // namespace clusterplanner::core
