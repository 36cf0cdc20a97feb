// SPDX-License-Identifier: GPL-3.0-or-later
// The derived numbers every launch writer needs, checked once, and the four writers.
#pragma once

#include "core/launch/launchconfig.h"

#include <string>
#include <vector>

namespace clusterplanner::core::launch {

/// Degrees, batch split and placement of one scenario's layout. All values are >= 1.
struct LaunchPlan
{
    const Scenario* scenario = nullptr;
    Framework framework = Framework::Megatron; ///< the stack the config is written for
    int nodes = 1;
    int gpusPerNode = 1; ///< ranks started on each node
    int gradientAccumulation = 1; ///< global batch / (micro-batch × dp)
    int virtualStages = 1; ///< chunks per pipeline rank (interleaved schedules)
    int layersPerVirtualStage = 1; ///< layers / (pp × virtualStages) where they divide; 0 where they do not
    /// Layers of each model chunk in schedule order (chunk i on pipeline rank i mod pp), pp × virtualStages of them:
    /// as even as the count allows, the first chunks one layer more where it does not divide.
    std::vector<int> layersPerChunk;
    /// Whether the chunks hold different layer counts (written as an explicit split: Megatron's
    /// --pipeline-model-parallel-layout, TorchTitan's module_fqns_per_model_part).
    /// (Without a pipeline there is one chunk, which the layers always divide.)
    bool unevenSplit() const { return layersPerVirtualStage == 0; }
    /// Megatron-Core's pipeline_model_parallel_layout for the chunks (Megatron-LM's --pipeline-model-parallel-layout,
    /// Megatron-Bridge's model key): E the embedding, t a transformer layer, m a multi-token-prediction module, L the
    /// loss; '|' ends a chunk, chunk i runs on pipeline rank i mod pp.
    std::string megatronPipelineLayout() const;
    /// Says that an uneven split needs a Megatron-Core release with the layout string; empty for an even split.
    std::string unevenSplitNote() const;
    /// Layers whose activations the run offloads to host memory, as the estimate resolves them (auto: the fewest
    /// that fit; 0 where the framework, PP or recompute rules it out).
    int activationOffloadLayers = 0;

    const ParallelLayout& layout() const { return scenario->training.layout; }
    const TrainingConfig& training() const { return scenario->training; }
    const ModelConfig& model() const { return scenario->model; }
    /// Async TP as the estimate models it for this framework (core/model/frameworkrules.h).
    bool asyncTpInEffect() const;
    /// Why async TP, asked for, is not written (no TP, no sequence parallelism, compile off); empty otherwise.
    std::string asyncTpLeftOutNote() const;
    /// The FP8 recipe the target framework runs for this scenario (its default where the one asked for is not
    /// offered); meaningful with Precision::Fp8 only.
    Fp8Recipe fp8RecipeInEffect() const;
    /// Says so when an FP8 recipe asked for is not one the target framework offers; empty otherwise.
    std::string fp8RecipeNote() const;
    /// The optimizer state width the target framework runs (fp32 where 16-bit states are not offered).
    OptimizerStates optimizerStatesInEffect() const;
    /// Says so when 16-bit optimizer states are asked of a framework or precision that has none; empty otherwise.
    std::string optimizerStatesNote() const;
    /// Says so when pure bf16 is asked of a framework whose bf16 keeps fp32 master weights (the estimate plans it
    /// that way too, core/model/frameworkrules.h precisionInEffect); empty otherwise.
    std::string precisionNote() const;
    /// The MoE dispatcher and expert overlap as the estimate models them (MoE models only).
    bool deepEpInEffect() const;
    bool moeOverlapInEffect() const;
    /// The shared experts run on Megatron-Core's side stream beside the all-to-all dispatcher, as the estimate models
    /// them (§4.39).
    bool sharedExpertOverlapInEffect() const;
    /// Why a MoE setting asked for is not written (not offered, no EP, full recompute, no interleaving); empty
    /// otherwise.
    std::string moeLeftOutNote() const;
    /// Megatron-Core's recompute_modules for training.recompute "modules" (docs/methods-time.md §4.35, §4.37): the
    /// MoE activation and the separate norms, and MLA's up-projections where the model has MLA (alone for a dense MLA
    /// model).
    std::vector<std::string> recomputeModules() const;
    /// Why activation offload, asked for, is not written (not offered, PP > 1, recompute on, too many layers, or
    /// auto with a layout that fits without it); empty otherwise.
    std::string activationOffloadNote() const;
    /// Where the written config has no key for the multi-token-prediction modules the estimate counts (TorchTitan,
    /// DeepSpeed: the model code builds them), a note saying so; empty otherwise.
    std::string mtpLeftOutNote() const;
    /// Where the estimate timed an older attention kernel (training.attention flash2 or triton) than the written
    /// config runs (every writer asks for the framework's own kernel), a note saying so; empty otherwise.
    std::string attentionKernelNote() const;
};

/// Checks the scenario and derives the plan; throws LaunchConfigError naming the first problem.
LaunchPlan makeLaunchPlan(const Scenario& scenario, Framework framework);

LaunchFile writeMegatronArgs(const LaunchPlan& plan);
LaunchFile writeBridgeYaml(const LaunchPlan& plan);
LaunchFile writeTorchTitanToml(const LaunchPlan& plan);
LaunchFile writeDeepSpeedJson(const LaunchPlan& plan);

/// A double-quoted string that TOML basic strings and YAML double-quoted scalars both read back unchanged.
std::string quoted(const std::string& text);

} // namespace clusterplanner::core::launch
