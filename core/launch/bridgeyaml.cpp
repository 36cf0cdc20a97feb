// SPDX-License-Identifier: GPL-3.0-or-later
// A Megatron-Bridge ConfigContainer override in YAML (Megatron-Bridge 0.1.0, the successor of NeMo 2's
// MegatronStrategy recipes): model.*, train.*, mixed_precision, optimizer.*, ddp.*, dataset.*.
#include "core/launch/launchplan.h"
#include "core/model/modelmath.h"

#include <sstream>

namespace clusterplanner::core::launch {

namespace {

const char* mixedPrecisionRecipe(Precision precision, Fp8Recipe recipe)
{
    switch (precision) {
    case Precision::Fp32:
        return "null";
    case Precision::AmpFp16:
        return "fp16_mixed";
    case Precision::AmpBf16:
    case Precision::Bf16:
        return "bf16_mixed";
    case Precision::Fp8: // Megatron-Bridge's TE recipes: delayed scaling or current (per-tensor) scaling
        return recipe == Fp8Recipe::Tensorwise ? "bf16_with_fp8_current_scaling_mixed"
                                               : "bf16_with_fp8_delayed_scaling_mixed";
    }
    return "bf16_mixed";
}

const char* yamlBool(bool value)
{
    return value ? "true" : "false";
}

void writeModel(const LaunchPlan& p, std::ostream& y)
{
    const ParallelLayout& l = p.layout();
    const TrainingConfig& t = p.training();
    y << "model:\n";
    y << "  tensor_model_parallel_size: " << l.tp << "\n";
    y << "  pipeline_model_parallel_size: " << l.pp << "\n";
    // null selects the plain 1F1B schedule; a number of chunks per rank selects the interleaved one.
    y << "  virtual_pipeline_model_parallel_size: ";
    if (p.virtualStages > 1)
        y << p.virtualStages << "\n";
    else
        y << "null\n";
    if (p.unevenSplit())
        y << "  pipeline_model_parallel_layout: \"" << p.megatronPipelineLayout() << "\"\n";
    y << "  context_parallel_size: " << l.cp << "\n";
    y << "  expert_model_parallel_size: " << l.ep << "\n";
    // Megatron-Core's default is the TP size; Megatron-Bridge's MoE presets state theirs, and so does this.
    if (p.model().moe)
        y << "  expert_tensor_parallel_size: " << expertTensorParallel(l) << "\n";
    if (p.model().moe) {
        y << "  moe_token_dispatcher_type: " << (p.deepEpInEffect() ? "flex" : "alltoall") << "\n";
        if (p.deepEpInEffect())
            y << "  moe_flex_dispatcher_backend: deepep\n";
        y << "  moe_shared_expert_overlap: " << yamlBool(p.sharedExpertOverlapInEffect()) << "\n";
        if (p.model().moe->limitsGroups())
            y << "  moe_router_num_groups: " << p.model().moe->expertGroups
              << "\n  moe_router_group_topk: " << p.model().moe->groupsPerToken << "\n";
    }
    y << "  sequence_parallel: " << yamlBool(l.sequenceParallel && l.tp > 1) << "\n";
    y << "  tp_comm_overlap: " << yamlBool(p.asyncTpInEffect()) << "\n";
    y << "  seq_length: " << p.model().seqLen << "\n";
    // Stated either way: Megatron-Bridge's DeepSeek-V3 recipe turns one MTP module on by itself.
    y << "  mtp_num_layers: ";
    if (p.model().mtpLayers > 0)
        y << p.model().mtpLayers << "\n";
    else
        y << "null\n";
    if (t.recompute == Recompute::None)
        y << "  recompute_granularity: null\n";
    else
        y << "  recompute_granularity: " << (t.recompute == Recompute::Full ? "full" : "selective") << "\n";
    if (t.recompute == Recompute::Full)
        y << "  recompute_method: uniform\n  recompute_num_layers: 1\n";
    if (t.recompute == Recompute::Modules) {
        y << "  recompute_modules: [";
        const std::vector<std::string> modules = p.recomputeModules();
        for (std::size_t i = 0; i < modules.size(); ++i)
            y << (i > 0 ? ", " : "") << modules[i];
        y << "]\n";
        if (modules.front() == "moe_act") // moe_act needs the grouped GEMM (Megatron-Core's TransformerConfig)
            y << "  moe_grouped_gemm: true\n";
    }
    if (p.activationOffloadLayers > 0)
        y << "  cpu_offloading: true\n  cpu_offloading_num_layers: " << p.activationOffloadLayers << "\n";
}

void writeBridgeTraining(const LaunchPlan& p, std::ostream& y)
{
    const TrainingConfig& t = p.training();
    // ZeRO-3 is Megatron-FSDP (NVIDIA's Llama 3 presets: use_megatron_fsdp), which runs on the distributed optimizer.
    const bool fsdp = t.zeroStage >= 3;
    const bool distributed = t.shardsOptimizerStates(); // Megatron's ZeRO-1 is its distributed optimizer
    y << "train:\n";
    y << "  micro_batch_size: " << t.microBatch << "\n";
    y << "  global_batch_size: " << t.globalBatch << "\n";
    y << "mixed_precision: " << mixedPrecisionRecipe(t.precision, p.fp8RecipeInEffect()) << "\n";
    y << "optimizer:\n  optimizer: "
      << (t.optimizer == Optimizer::Sgd || t.optimizer == Optimizer::SgdMomentum ? "sgd" : "adam")
      << "\n  use_distributed_optimizer: " << yamlBool(distributed) << "\n";
    if (p.optimizerStatesInEffect() == OptimizerStates::Bf16) // Megatron-Core's OptimizerConfig fields
        y << "  use_precision_aware_optimizer: true\n  main_grads_dtype: torch.bfloat16\n"
          << "  exp_avg_dtype: torch.bfloat16\n  exp_avg_sq_dtype: torch.bfloat16\n";
    y << "ddp:\n  use_distributed_optimizer: " << yamlBool(distributed) << "\n";
    // The estimate overlaps the gradient reduction and the parameter gather (data/efficiency.json dp_overlap).
    const bool dataParallel = reducesGradients(p.layout());
    y << "  overlap_grad_reduce: " << yamlBool(dataParallel) << "\n";
    y << "  overlap_param_gather: " << yamlBool(dataParallel && distributed) << "\n";
    // Hybrid sharding: the distributed optimizer (or Megatron-FSDP) shards within each of the DP groups' copies.
    const int copies = p.layout().shardReplicas();
    if (distributed && copies > 1)
        y << "  num_distributed_optimizer_instances: " << copies << "\n";
    if (fsdp && copies > 1)
        y << "  outer_dp_sharding_strategy: no_shard\n";
    if (fsdp)
        y << "  use_megatron_fsdp: true\n  data_parallel_sharding_strategy: optim_grads_params\n"
          << "checkpoint:\n  ckpt_format: fsdp_dtensor\n";
    y << "dataset:\n  sequence_length: " << p.model().seqLen << "\n";
}

} // namespace

LaunchFile writeBridgeYaml(const LaunchPlan& plan)
{
    LaunchFile file;
    file.fileName = "megatron-bridge-override.yaml";
    file.launchLine = torchrunLine(*plan.scenario, "pretrain.py --config-file " + file.fileName);
    std::ostringstream y;
    y << "# Megatron-Bridge 0.1.0 recipe override for " << quoted(plan.scenario->name) << ": " << plan.nodes
      << " nodes x " << plan.gpusPerNode << " GPUs, data-parallel size " << plan.layout().dp << "\n";
    y << "# launch: " << file.launchLine << "\n";
    writeModel(plan, y);
    writeBridgeTraining(plan, y);
    if (plan.model().moe) {
        // CommOverlapConfig copies its flags onto the model config: set here, a recipe's own section cannot undo them.
        y << "comm_overlap:\n  overlap_moe_expert_parallel_comm: " << yamlBool(plan.moeOverlapInEffect())
          << "\n  delay_wgrad_compute: " << yamlBool(plan.moeOverlapInEffect()) << "\n";
    }
    file.text = y.str();
    file.notes.push_back(
        "data-parallel size is derived by Megatron-Bridge from the world size: " + std::to_string(plan.layout().dp));
    if (const std::string note = plan.unevenSplitNote(); !note.empty())
        file.notes.push_back(note);
    if (plan.optimizerStatesInEffect() == OptimizerStates::Bf16) // MixedPrecisionConfig.setup overrides ddp's flag
        file.notes.push_back("bf16 optimizer states read bf16 gradients: set the mixed-precision recipe's "
                             "grad_reduce_in_fp32 to False in the training script (bf16_mixed reduces in fp32 and "
                             "copies that onto the DDP config), as NVIDIA's performance scripts do");
    return file;
}

} // namespace clusterplanner::core::launch
