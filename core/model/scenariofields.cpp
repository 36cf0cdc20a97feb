// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/scenariofields.h"

#include "core/model/enumnames.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace clusterplanner::core {

namespace {

template <typename Enum>
std::vector<std::string> names()
{
    std::vector<std::string> result;
    for (Enum value : allValues<Enum>())
        result.emplace_back(toString(value));
    return result;
}

using K = FieldKind;
constexpr double kMaxWidth = 100'000; // heads, layers, experts: far beyond any model, small enough for the memory maths
constexpr double kMaxCount = 100'000'000; // vocabulary, sequence length, batch: counts of tokens or sequences
constexpr double kMaxDegree = 4'096; // tp, pp, cp: no group spans more GPUs than a cluster has nodes

// A data table: one row per field, in the order of the file. Bounds that depend on another field (heads % kv_heads)
// are checked by the reader and named in `bound` for the documentation.
const std::vector<ScenarioField>& table()
{
    static const std::vector<ScenarioField> fields = {
        {"name", K::Text, "", 0, 200, R"("Llama 3 70B on 256 H100")", "Name", "Name of this planning scenario"},
        {"model.name", K::Text, "", 0, 200, R"("Llama 3 70B")", "Model name", "Display name of the model architecture"},
        {"model.layers", K::Integer, "", 1, kMaxWidth, "80", "Layers", "Number of transformer blocks (L)"},
        {"model.hidden", K::Integer, "", 1, kMaxDim, "8192", "Hidden size",
            "Model width h; a multiple of the heads unless the head dimension or latent attention is set", nullptr,
            false, "a multiple of model.heads when model.head_dim is 0 and model.mla null"},
        {"model.heads", K::Integer, "", 1, kMaxWidth, "64", "Attention heads", "Query heads a"},
        {"model.kv_heads", K::Integer, "", 1, kMaxWidth, "8", "KV heads",
            "Key/value heads (grouped-query attention); must divide the heads, and equal them with latent attention",
            nullptr, false, "divides model.heads; equals it when model.mla is set"},
        {"model.head_dim", K::Integer, "", 0, kMaxWidth, "0", "Head dimension",
            "Width of one attention head; 0 = hidden / heads. Qwen3, Gemma and GPT-OSS set their own: queries and the "
            "attention output are heads × head_dim wide, keys and values kv_heads × head_dim",
            nullptr, true},
        {"model.ffn_hidden", K::Integer, "", 1, kMaxDim * 8, "28672", "FFN size", "Inner width of the dense MLP"},
        {"model.vocab", K::Integer, "tokens", 1, kMaxCount, "128256", "Vocabulary", "Vocabulary size V"},
        {"model.seq_len", K::Integer, "tokens", 1, kMaxCount, "8192", "Sequence length", "Training sequence length s"},
        {"model.mlp", K::Choice, "", 0, 0, R"("swiglu")", "MLP", "Activation and number of MLP matrices",
            &names<MlpKind>},
        {"model.norm", K::Choice, "", 0, 0, R"("rmsnorm")", "Normalisation", "Normalisation layer type",
            &names<NormKind>},
        {"model.tied_embeddings", K::Boolean, "", 0, 0, "false", "Tied embeddings",
            "Input embedding and output layer share one matrix"},
        {"model.qk_norm", K::Boolean, "", 0, 0, "false", "QK norm",
            "Queries and keys normalised per head before attention (Qwen3, Gemma 3; Megatron --qk-layernorm)", nullptr,
            true},
        {"model.parallel_block", K::Boolean, "", 0, 0, "false", "Parallel attention and MLP",
            "Attention and MLP read one norm of the layer input and are added to the residual together (GPT-J, "
            "GPT-NeoX, PaLM, Falcon): one norm per layer, one TP collective per pass instead of two; dense models",
            nullptr, true, "false when model.moe or model.mla is set"},
        {"model.mtp_layers", K::Integer, "", 0, kMaxMtpLayers, "0", "Multi-token prediction",
            "Multi-token-prediction modules trained beside the next-token head (DeepSeek-V3: 1; Megatron "
            "--mtp-num-layers; Hugging Face num_nextn_predict_layers): each one more layer, projection, head pass and "
            "loss on the last stage",
            nullptr, true},
        {"model.rope_base", K::Number, "", 0, 1e12, "500000", "RoPE base",
            "Base θ of the rotary position embedding (Hugging Face rope_theta; Megatron --rotary-base): Llama 3 "
            "500,000, Mixtral and Qwen3 1,000,000, Llama 2 and DeepSeek-V3 10,000. Written into the launch "
            "configurations; a LayerNorm model with a base has rotary, not learned, positions. 0 = not stated (the "
            "framework's default, 10,000 in Megatron-LM)",
            nullptr, true, "0 = the framework's default"},
        {"model.mla", K::OptionalObject, "", 0, 0, "null", "Multi-head latent attention",
            "Keys and values projected up per head from a low-rank latent (DeepSeek-V2/V3; Megatron "
            "--multi-latent-attention). null: attention of heads × head_dim",
            nullptr, true},
        {"model.mla.kv_lora_rank", K::Integer, "", 1, kMaxWidth, "512", "KV latent rank",
            "Width of the key/value latent (Hugging Face kv_lora_rank; DeepSeek-V3: 512)"},
        {"model.mla.q_lora_rank", K::Integer, "", 0, kMaxWidth, "1536", "Query latent rank",
            "Width of the query latent (q_lora_rank; DeepSeek-V3: 1536). 0 = queries projected from the hidden "
            "state directly (DeepSeek-V2-Lite)"},
        {"model.mla.qk_nope_head_dim", K::Integer, "", 1, kMaxWidth, "128", "Query/key head (no RoPE)",
            "Part of each query and key head without rotary positions (qk_nope_head_dim)", nullptr, false,
            "model.heads × (qk_nope_head_dim + qk_rope_head_dim) ≤ 1,000,000"},
        {"model.mla.qk_rope_head_dim", K::Integer, "", 0, kMaxWidth, "64", "Query/key head (RoPE)",
            "Rotary part of each query and key head; the key's is one shared by every head (qk_rope_head_dim)"},
        {"model.mla.v_head_dim", K::Integer, "", 1, kMaxWidth, "128", "Value head",
            "Width of each value head and of each head of the attention output (v_head_dim)", nullptr, false,
            "model.heads × v_head_dim ≤ 1,000,000"},
        {"model.moe", K::OptionalObject, "", 0, 0, "null", "Mixture-of-experts MLP",
            "Replace the dense MLP by routed experts in some or all layers (null: a dense model)"},
        {"model.moe.experts", K::Integer, "", 1, kMaxWidth, "8", "Routed experts", "Experts per MoE layer (E)"},
        {"model.moe.top_k", K::Integer, "", 1, kMaxWidth, "2", "Active experts",
            "Experts each token is routed to (top-k)", nullptr, false, "≤ model.moe.experts"},
        {"model.moe.expert_ffn_hidden", K::Integer, "", 1, kMaxDim, "14336", "Expert FFN size",
            "Inner width of one expert"},
        {"model.moe.shared_experts", K::Integer, "", 0, 1024, "0", "Shared experts",
            "Experts every token goes through"},
        {"model.moe.moe_layers", K::Integer, "", 0, kMaxWidth, "0", "MoE layers",
            "Layers with experts; the others are dense. 0 = every layer", nullptr, false, "≤ model.layers"},
        {"model.moe.capacity_factor", K::Number, "", 0.1, 64, "1.0", "Capacity factor",
            "Token slots per expert relative to a balanced load"},
        {"model.moe.expert_groups", K::Integer, "", 0, kMaxWidth, "0", "Expert groups",
            "Groups the experts form for group-limited routing (Hugging Face n_group; DeepSeek-V3: 8). 0 = none",
            nullptr, true, "divides model.moe.experts"},
        {"model.moe.groups_per_token", K::Integer, "", 0, kMaxWidth, "0", "Groups per token",
            "Expert groups a token may use (topk_group; DeepSeek-V3: 4, so each token reaches at most 4 nodes). "
            "0 = unlimited",
            nullptr, true, "≤ model.moe.expert_groups"},
        {"cluster.name", K::Text, "", 0, 200, R"("256 × H100-SXM-80GB")", "Cluster name",
            "Name of the cluster (topology panel, simulator output)"},
        {"cluster.node_groups", K::List, "", 0, 0, "", "Node groups",
            "Identical servers per group: GPU type, nodes, GPUs per node, scale-up domain, NICs, CPU, memory, power "
            "limit, overhead, price, nodes per rack (docs/methods-cluster.md §1)"},
        {"cluster.fabric.rail_optimized", K::Boolean, "", 0, 0, "true", "Rail-optimised",
            "NIC k of every node goes to leaf (rail) switch k, as in NVIDIA's DGX SuperPOD"},
        {"cluster.fabric.tiers", K::List, "", 0, 0, "", "Fabric tiers",
            "Switching tiers from the NICs up (leaf, spine, core): oversubscription, radix, port speed, switch price "
            "and power (docs/methods-cluster.md §3)"},
        {"cluster.fabric.optics_usd_per_link", K::Number, "$", 0, 1e12, "null", "Optics per link",
            "Transceivers and cable of one link; null = data/costs.json", nullptr, true},
        {"cluster.facility.rack_power_limit_kw", K::Number, "kW", 0.1, 10'000, "40.0", "Rack power limit",
            "Power one rack may draw (air-cooled 15-40 kW, liquid-cooled NVL72 about 132 kW)"},
        {"cluster.facility.pue", K::Number, "", 1, 10, "null", "Facility PUE",
            "Facility power / IT power of this cluster's site; null = economics.pue", nullptr, true},
        {"cluster.gpu", K::Text, "", 0, 64, R"("H100-SXM-80GB")", "GPU type",
            "Accelerator of the training group, from the built-in GPU catalog (an id that `clusterplanner catalog` "
            "lists)",
            nullptr, false, {}, true},
        {"cluster.gpu_count", K::Integer, "GPUs", 1, kMaxGpus, "256", "GPUs",
            "Total number of GPUs in the job (version 2: training.gpu_count)", nullptr, false, {}, true},
        {"cluster.gpus_per_node", K::Integer, "GPUs", 1, 1024, "8", "GPUs per node",
            "GPUs sharing one server in the training group", nullptr, false, {}, true},
        {"cluster.nic_gbps", K::Number, "Gbit/s", 0.1, 100'000, "400.0", "Scale-out NIC",
            "Network bandwidth per GPU, each way (the training group's NICs × speed / GPUs per node); follows the GPU "
            "type's reference system (DGX A100: 200 Gb/s) until you set it",
            nullptr, false, {}, true},
        {"cluster.oversubscription", K::Number, ": 1", 1, 64, "1.0", "Oversubscription",
            "Fabric oversubscription a job spanning the fabric sees (1 = non-blocking): the product of the tiers' "
            "ratios below the top",
            nullptr, false, {}, true},
        {"training.node_group", K::Text, "", 1, 200, R"("H100-SXM-80GB-x8")", "Training group",
            "The node group of cluster.node_groups the training run uses", nullptr, false,
            "names a group of cluster.node_groups"},
        {"training.gpu_count", K::Integer, "GPUs", 1, kMaxGpus, "256", "GPUs", "GPUs of the training run", nullptr,
            false, "≤ the training group's GPUs"},
        {"training.global_batch", K::Integer, "sequences", 1, kMaxCount, "512", "Global batch",
            "Sequences per optimizer step"},
        {"training.micro_batch", K::Integer, "sequences", 1, kMaxCount, "1", "Micro-batch",
            "Sequences per forward/backward pass", nullptr, false, "≤ training.global_batch"},
        {"training.precision", K::Choice, "", 0, 0, R"("amp_bf16")", "Precision",
            "Numeric format of training; bf16 is pure bf16 (16-bit optimizer states) where the framework has that "
            "mode, else that framework's bf16 with fp32 master weights",
            &names<Precision>},
        {"training.optimizer", K::Choice, "", 0, 0, R"("adamw")", "Optimizer", "Optimizer and its states",
            &names<Optimizer>},
        {"training.recompute", K::Choice, "", 0, 0, R"("selective")", "Recomputation",
            "Activation checkpointing: what is recomputed in backward. Selective: the attention core (Megatron) or "
            "every "
            "other matmul and the memory-bound work (TorchTitan); full: each layer's forward again (PyTorch 2.1's "
            "non-reentrant checkpoint, in TorchTitan, FSDP and Hugging Face, stops before its last matmul)",
            &names<Recompute>},
        {"training.zero_stage", K::Integer, "", 0, 3, "1", "ZeRO stage",
            "0 none, 1 optimizer states, 2 + gradients, 3 + parameters"},
        {"training.distributed_optimizer", K::Boolean, "", 0, 0, "true", "Distributed optimizer",
            "Shard optimizer states across data-parallel ranks (Megatron)"},
        {"training.attention", K::Choice, "", 0, 0, R"("flash")", "Attention kernel",
            "Whether attention scores are materialised; flash and sdpa run the kernel generation of the framework "
            "(FlashAttention-2 in TorchTitan, FSDP and DeepSpeed, cuDNN under Megatron, NeMo and PyTorch 2.11 SDPA); "
            "flash2 and triton name older kernels outright (FlashAttention-2; FlashAttention in Triton, 2022)",
            &names<AttentionKind>},
        {"training.schedule", K::Choice, "", 0, 0, R"("interleaved")", "Pipeline schedule",
            "Order of micro-batches across pipeline stages", &names<PipelineSchedule>},
        {"training.framework", K::Choice, "", 0, 0, R"("megatron")", "Framework",
            "Training stack: decides which schedules, recompute modes and ZeRO stages the explorer offers, fused "
            "kernels vs eager PyTorch, and how gradients and ZeRO-3 traffic move",
            &names<Framework>, true},
        {"training.layout.dp", K::Integer, "", 1, kMaxGpus, "8", "Data parallel", "Model replicas (dp)"},
        {"training.layout.tp", K::Integer, "", 1, kMaxDegree, "8", "Tensor parallel",
            "GPUs splitting each matrix (tp)"},
        {"training.layout.pp", K::Integer, "", 1, kMaxDegree, "4", "Pipeline parallel", "Pipeline stages (pp)"},
        {"training.layout.cp", K::Integer, "", 1, kMaxDegree, "1", "Context parallel",
            "GPUs splitting each sequence (cp)"},
        {"training.layout.ep", K::Integer, "", 1, kMaxWidth, "1", "Expert parallel",
            "GPUs the experts are spread over (ep); folds into dp×tp×cp"},
        {"training.layout.expert_tp", K::Integer, "", 0, kMaxDegree, "0", "Expert tensor parallel",
            "GPUs splitting each routed expert (Megatron-Core --expert-tensor-parallel-size; NeMo and Megatron-Bridge "
            "MoE recipes use 1); expert TP × EP must divide dp×tp×cp. 0 = Megatron-Core's default: TP, or 1 where EP "
            "folds over TP",
            nullptr, true, "× EP divides dp×tp×cp; 0 = default"},
        {"training.layout.dp_shard", K::Integer, "", 0, kMaxGpus, "0", "Hybrid shard degree",
            "Hybrid sharding (HSDP): the DP ranks that shard the ZeRO / FSDP states, each shard copied over "
            "dp / degree groups whose gradients are all-reduced over the copies (TorchTitan "
            "data_parallel_shard_degree, PyTorch FSDP HYBRID_SHARD, DeepSpeed MiCS, Megatron distributed-optimizer "
            "instances). Read only with ZeRO or a distributed optimizer. 0 = shard over all of DP",
            nullptr, true, "divides dp; 0 = all of DP"},
        {"training.layout.virtual_stages", K::Integer, "", 1, 1024, "5", "Virtual stages",
            "Interleaved model chunks per pipeline rank"},
        {"training.layout.sequence_parallel", K::Boolean, "", 0, 0, "true", "Sequence parallel",
            "Split norm and dropout activations across the tensor-parallel group"},
        {"training.layout.rank_order", K::Choice, "", 0, 0, R"("tp-cp-ep-dp-pp")", "Rank order",
            "How ranks map to nodes: TP innermost, then either DP or PP neighbours closer (Megatron's default vs its "
            "tp-pp-dp mapping)",
            &names<RankOrdering>, true},
        {"training.cp_load_balance", K::Boolean, "", 0, 0, "true", "CP load balancing",
            "Context parallelism gives every rank an equal share of the causal attention (2·cp chunks, zig-zag); off: "
            "contiguous chunks, the last rank does almost twice the mean",
            nullptr, true},
        {"training.compile", K::Boolean, "", 0, 0, "true", "torch.compile",
            "Graph compilation fuses element-wise ops (norms, activations, RoPE) into few kernels; off: eager PyTorch, "
            "one kernel per op issued from Python. Changes the step time of frameworks whose fusion comes from the "
            "compiler (TorchTitan), and under its op-level selective checkpointing the memory: a compiled block keeps "
            "only what its backward reads",
            nullptr, true},
        {"training.compile_loss", K::Boolean, "", 0, 0, "true", "Compile the loss",
            "With torch.compile on, compile the cross-entropy loss too (TorchTitan since 2025-04): it keeps only the "
            "logits and their 16-bit gradient where the eager loss holds fp32 copies; off: the eager loss of "
            "TorchTitan's 2024 runs",
            nullptr, true},
        {"training.fused_loss", K::Boolean, "", 0, 0, "false", "Fused cross-entropy",
            "The loss is one fused kernel over the 16-bit logits (flash-attn's cross-entropy, llm-foundry's default): "
            "it keeps only the logits and their 16-bit gradient and moves about 8 bytes per logit, where PyTorch's "
            "eager loss holds fp32 copies and moves about 20. Changes PyTorch FSDP and TorchTitan without a compiled "
            "loss (not with TP: DTensor's loss parallelism); Hugging Face models upcast their logits first",
            nullptr, true},
        {"training.async_tp", K::Boolean, "", 0, 0, "false", "Async TP",
            "Split each tensor-parallel all-gather and reduce-scatter into chunks that move while the GEMM computes "
            "(TorchTitan async TP, Megatron --tp-comm-overlap); needs sequence parallelism",
            nullptr, true},
        {"training.fp8_recipe", K::Choice, "", 0, 0, R"("framework_default")", "FP8 scaling",
            "How FP8 GEMM operands are scaled (precision fp8 only): delayed (Transformer Engine), tensorwise, "
            "rowwise or rowwise with the weight gradient in bf16 (torchao); the framework's default where it does "
            "not offer the one chosen",
            &names<Fp8Recipe>, true},
        {"training.optimizer_states", K::Choice, "", 0, 0, R"("fp32")", "Optimizer states",
            "Width of the optimizer's copies under mixed precision: fp32 master weights and Adam moments, or bf16 "
            "moments and a 16-bit master copy read from 16-bit gradients (NeMo's distributed_fused_adam dtype bf16, "
            "Megatron-Core --use-precision-aware-optimizer); fp32 where the framework does not offer bf16",
            &names<OptimizerStates>, true},
        {"training.moe_dispatcher", K::Choice, "", 0, 0, R"("all_to_all")", "MoE dispatcher",
            "How MoE layers send tokens to their experts: an NCCL all-to-all of every token's top-k copies, or "
            "DeepEP / HybridEP, which send a token once per destination node and fan it out over NVLink there "
            "(Megatron's flex dispatcher); the all-to-all where the framework does not offer DeepEP",
            &names<MoeDispatcher>, true},
        {"training.moe_overlap", K::Boolean, "", 0, 0, "false", "MoE comm overlap",
            "Hide the expert all-to-alls of one micro-batch under another's compute (Megatron-Core "
            "--overlap-moe-expert-parallel-comm, DeepSeek DualPipe); needs EP > 1, no full recompute, and "
            "interleaved stages when Megatron pipelines",
            nullptr, true},
        {"training.activation_offload_layers", K::Integer, "layers", -1, kMaxWidth, "0", "Activation offload",
            "Layers whose saved activations go to host memory in the forward and come back in the backward "
            "(Megatron-Core --cpu-offloading-num-layers); -1 = auto, the fewest that make the layout fit. Needs "
            "Megatron or NeMo, PP 1 and no recomputation",
            nullptr, true, "< model.layers; -1 = auto"},
        {"economics.training_tokens", K::Number, "tokens", 0, 1e18, "2000000000000.0", "Training tokens",
            "Token budget of the whole run"},
        {"economics.gpu_hour_usd", K::Number, "$/GPU·h", 0, 10'000, "2.5", "GPU price",
            "Price per GPU-hour, US dollars"},
        {"economics.electricity_usd_per_kwh", K::Number, "$/kWh", 0, 100, "0.0806", "Electricity",
            "Electricity price, US dollars per kWh"},
        {"economics.pue", K::Number, "", 1, 5, "1.3", "PUE", "Facility power usage effectiveness (≥ 1)"},
        {"economics.lifetime_years", K::Number, "years", 0.01, 100, "null", "Lifetime",
            "Years the owned cluster is costed over (TCO); null = data/costs.json amortisation_years", nullptr, true},
        {"economics.maintenance_fraction_per_year", K::Number, "", 0, 1, "null", "Maintenance",
            "Share of the hardware capex spent on support each year; null = data/costs.json", nullptr, true},
        {"economics.storage_usd_per_gpu", K::Number, "$/GPU", 0, 1e9, "null", "Storage",
            "Shared storage bought per GPU; null = data/costs.json", nullptr, true},
        {"economics.facility_usd_per_kw", K::Number, "$/kW", 0, 1e9, "null", "Facility build-out",
            "Power and cooling build-out per kW of IT load; 0 for a rented hall; null = data/costs.json", nullptr,
            true},
        {"notes", K::Text, "", 0, 1'000'000,
            R"("Default scenario: a Llama 3 70B pre-training run on 32 HGX H100 nodes.")", "Notes",
            "Free-form notes saved with the scenario"},
    };
    return fields;
}

std::string_view kindName(FieldKind kind)
{
    switch (kind) {
    case FieldKind::Integer:
        return "whole number";
    case FieldKind::Number:
        return "number";
    case FieldKind::Boolean:
        return "true / false";
    case FieldKind::Text:
        return "string";
    case FieldKind::Choice:
        return "one of";
    case FieldKind::OptionalObject:
        return "object or null";
    case FieldKind::List:
        return "list of objects";
    }
    return "";
}

/// Whole numbers with thousands separators ("10,000,000"), powers of ten beyond that as "10^18".
std::string showBound(double value)
{
    if (value >= 1e9 && std::pow(10.0, std::round(std::log10(value))) == value)
        return "10^" + std::to_string(static_cast<int>(std::round(std::log10(value))));
    if (value != std::floor(value)) {
        char text[32];
        std::snprintf(text, sizeof text, "%g", value);
        return text;
    }
    std::string digits = std::to_string(static_cast<long long>(value));
    for (auto at = static_cast<long>(digits.size()) - 3; at > 0; at -= 3)
        digits.insert(static_cast<std::size_t>(at), ",");
    return digits;
}

std::string accepted(const ScenarioField& f)
{
    std::string text;
    if (f.kind == FieldKind::Integer || f.kind == FieldKind::Number)
        text = showBound(f.min) + " … " + showBound(f.max);
    if (f.kind == FieldKind::Text)
        text = "up to " + showBound(f.max) + " bytes";
    if (f.choices) {
        for (const auto& name : f.choices())
            text += (text.empty() ? "`" : ", `") + name + "`";
    }
    if (!f.bound.empty())
        text += (text.empty() ? "" : "; ") + std::string(f.bound);
    return text;
}

std::string markdownRow(const ScenarioField& f)
{
    auto cell = [](std::string_view text) { return " " + std::string(text.empty() ? "–" : text) + " |"; };
    std::string type = std::string(kindName(f.kind)) + (f.optional ? " (optional)" : "")
        + (f.view ? " (version 1 only: derived from the training group)" : "");
    return "|" + cell("`" + std::string(f.path) + "`") + cell(type) + cell(f.unit) + cell(accepted(f))
        + cell(f.path == "notes" || f.path == "name" || f.kind == FieldKind::List
                ? "see the sample"
                : "`" + std::string(f.defaultJson) + "`")
        + cell(f.label) + cell(f.toolTip) + "\n";
}

} // namespace

const char* ScenarioField::key() const
{
    // Table paths are string literals, so the suffix after the last dot is itself null-terminated.
    const auto dot = path.rfind('.');
    return path.data() + (dot == std::string_view::npos ? 0 : dot + 1);
}

std::span<const ScenarioField> scenarioFields()
{
    return table();
}

const ScenarioField& scenarioField(std::string_view path)
{
    const auto& fields = table();
    const auto it = std::find_if(fields.begin(), fields.end(), [&](const auto& f) { return f.path == path; });
    if (it == fields.end())
        throw std::out_of_range("no scenario field " + std::string(path));
    return *it;
}

std::string scenarioFieldsMarkdown()
{
    std::string text = "| Field | Type | Unit | Accepted | Default | Form label | Meaning |\n"
                       "|---|---|---|---|---|---|---|\n";
    for (const auto& field : table())
        text += markdownRow(field);
    return text;
}

} // namespace clusterplanner::core
