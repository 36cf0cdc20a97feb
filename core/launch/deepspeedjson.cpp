// SPDX-License-Identifier: GPL-3.0-or-later
// A DeepSpeed JSON config (deepspeed/runtime/config.py, DeepSpeed v0.16.4): batch, precision, ZeRO, activation
// checkpointing, AutoTP tensor parallelism, Ulysses sequence parallelism and the pipeline section.
#include "core/launch/launchplan.h"
#include "core/model/modelmath.h"

#include "core/model/enumnames.h"

#include <nlohmann/json.hpp>

namespace clusterplanner::core::launch {

namespace {

using nlohmann::ordered_json;

void addPrecision(Precision precision, ordered_json& config, std::vector<std::string>& notes)
{
    switch (precision) {
    case Precision::Fp32:
        return;
    case Precision::AmpFp16:
        config["fp16"] = {{"enabled", true}, {"loss_scale", 0}, {"initial_scale_power", 16}}; // 0: dynamic
        return;
    case Precision::Fp8:
        notes.push_back("fp8 runs through Transformer Engine in the model code; the config sets bf16");
        [[fallthrough]];
    case Precision::AmpBf16:
    case Precision::Bf16:
        config["bf16"] = {{"enabled", true}};
        return;
    }
}

ordered_json layoutRecord(const LaunchPlan& p)
{
    const ParallelLayout& l = p.layout();
    return {{"dp", l.dp}, {"tp", l.tp}, {"pp", l.pp}, {"cp", l.cp}, {"ep", l.ep},
        {"expert_tp", expertTensorParallel(l)}, {"schedule", std::string(toString(p.training().schedule))},
        {"nodes", p.nodes}, {"gpus_per_node", p.gpusPerNode}};
}

} // namespace

LaunchFile writeDeepSpeedJson(const LaunchPlan& plan)
{
    LaunchFile file;
    const TrainingConfig& t = plan.training();
    const ParallelLayout& l = plan.layout();
    ordered_json config;
    config["train_batch_size"] = t.globalBatch;
    config["train_micro_batch_size_per_gpu"] = t.microBatch;
    config["gradient_accumulation_steps"] = plan.gradientAccumulation;
    addPrecision(t.precision, config, file.notes);
    config["zero_optimization"] = {{"stage", t.zeroStage}};
    if (const int copies = l.shardReplicas(); copies > 1 && t.zeroStage >= 3) {
        // Hybrid sharding is DeepSpeed's MiCS: ZeRO-3 states sharded within groups of mics_shard_size GPUs.
        config["zero_optimization"]["mics_shard_size"] = l.shardDp() * l.cp; // in ranks of the ZeRO (DP × CP) group
        file.notes.push_back("hybrid sharding is written as MiCS (mics_shard_size): states sharded within "
            + std::to_string(l.shardDp()) + " DP ranks, copied " + std::to_string(copies) + " times");
    }
    const bool sgd = t.optimizer == Optimizer::Sgd || t.optimizer == Optimizer::SgdMomentum;
    config["optimizer"] = {{"type", sgd ? "SGD" : "AdamW"}};
    if (t.recompute == Recompute::Full)
        config["activation_checkpointing"] = {{"partition_activations", l.tp > 1}, {"number_checkpoints", nullptr}};
    if (l.tp > 1)
        config["tensor_parallel"] = {{"autotp_size", l.tp}};
    if (l.cp > 1)
        config["sequence_parallel_size"] = l.cp;
    if (l.pp > 1) // the engine's TrainSchedule is 1F1B; PipelineModule(num_stages=...) must match "stages"
        config["pipeline"] = {{"stages", l.pp}, {"partition", "parameters"}};
    // DeepSpeed reads only the keys it knows; this record carries what the training script passes to
    // PipelineModule(num_stages=) and deepspeed.moe.layer.MoE(ep_size=).
    config["clusterplanner_layout"] = layoutRecord(plan);
    if (const int expertTp = expertTensorParallel(l); plan.model().moe && expertTp > 1)
        file.notes.push_back("the plan splits each expert over expert tp " + std::to_string(expertTp)
            + ": DeepSpeed-MoE does so only with deepspeed.moe.layer.MoE(enable_expert_tensor_parallelism=True) in "
              "the model code");
    file.text = config.dump(2) + "\n";
    file.fileName = "ds_config.json";
    file.launchLine = torchrunLine(*plan.scenario, "train.py --deepspeed --deepspeed_config " + file.fileName);
    return file;
}

} // namespace clusterplanner::core::launch
