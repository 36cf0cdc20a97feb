// SPDX-License-Identifier: GPL-3.0-or-later
// Step time of one layout: compute, exposed communication per parallel dimension, pipeline bubble, optimizer,
// and what follows from it (tokens/s, MFU, time, GPU-hours, energy and cost of the run).
#pragma once

#include "core/memory/memorycontext.h"
#include "core/model/gpucatalog.h"
#include "core/model/layoutcheck.h"
#include "core/model/modelmath.h"
#include "core/model/scenario.h"
#include "core/perf/collectives.h"
#include "core/perf/efficiencyparams.h"
#include "core/perf/pipeline.h"
#include "core/perf/topology.h"

namespace clusterplanner::core::perf {

/// Everything of a scenario that does not change across layouts, computed once (the sweep's per-model context).
struct StepTimeContext
{
    const ModelConfig* model = nullptr; ///< not owned; must outlive the context
    const GpuSpec* gpu = nullptr; ///< not owned
    EfficiencyParams efficiency;
    ParameterCounts counts;
    double modelFlopsPerToken = 0; ///< 6·N_mm + 12·L·s·h (modelmath)
    double hardwareFlopsPerToken[4] = {0, 0, 0, 0}; ///< by Recompute (None, Selective, Full, Modules)
    Fabric fabric;
    ClusterConfig cluster;
    EconomicsConfig economics;
    MemoryContext memory; ///< activation offload: which layers go to the host, and their bytes
};

/// The context points at scenario.model and gpu: both must outlive it, so temporaries are refused.
StepTimeContext makeStepTimeContext(const Scenario& scenario, const GpuSpec& gpu, const EfficiencyParams& efficiency);
StepTimeContext makeStepTimeContext(Scenario&&, const GpuSpec&, const EfficiencyParams&) = delete;
StepTimeContext makeStepTimeContext(const Scenario&, GpuSpec&&, const EfficiencyParams&) = delete;

/// Seconds per optimizer step, by term. Exposed terms add up (with the per-op pipeline terms inside the makespan);
/// "total" terms are the full communication time before overlap. All zero when valid is false.
struct StepTimeResult
{
    bool valid = false;
    const char* error = ""; ///< why the layout cannot run (static text, the first problem)
    LayoutProblems problems = 0; ///< layout-check violations (describeLayoutProblems() words them); 0 when it passes
    PipelineParams pipeline; ///< the schedule the makespan came from: seconds per op of the slowest stage

    double stepTimeS = 0;
    int microBatches = 0; ///< m per pipeline per step
    double computeForwardS = 0; ///< m · forward of the slowest stage
    double computeBackwardS = 0;
    double recomputeS = 0;
    double bubbleS = 0; ///< pipeline idle time of the slowest stage
    double bubbleFraction = 0; ///< bubble / (m · (F + B)) (Megatron convention)
    double optimizerS = 0;
    double overheadS = 0; ///< fixed per-step and per-micro-batch costs
    double overlapSlowdownS = 0; ///< compute slowed by communication that runs under it
    // Communication per dimension: total time and the part on the critical path.
    double tpTotalS = 0, tpExposedS = 0; ///< TP/SP collectives: exposed unless TP-comm overlap
    double cpTotalS = 0, cpExposedS = 0; ///< ring-attention KV exchanges: hidden behind blockwise attention
    double epTotalS = 0, epExposedS = 0; ///< MoE all-to-all: partly hidden
    double dpTotalS = 0, dpExposedS = 0; ///< gradient all-reduce / ZeRO RS + AG: hidden behind the last backward
    double ppTotalS = 0, ppExposedS = 0; ///< activation send/recv between stages: partly asynchronous
    double offloadTotalS = 0, offloadExposedS = 0; ///< activation offload copies to and from host memory
    int offloadedLayers = 0; ///< layers whose activations go to the host (0: no offload)

    double tokensPerSPerGpu = 0;
    double tokensPerS = 0;
    double modelTflopsPerGpu = 0;
    double mfu = 0; ///< model FLOPs (no recompute) / peak of the training precision
    double hfu = 0; ///< hardware FLOPs (with recompute) / peak
    double trainingTimeS = 0; ///< economics.trainingTokens / tokensPerS
    double gpuHours = 0;
    double energyKwh = 0; ///< facility energy: GPUs at TDP·utilization plus node overhead, × PUE
    double energyCostUsd = 0;
    double costUsd = 0; ///< gpuHours × economics.gpuHourUsd
};

/// The fast path: no allocation, no pipeline timeline.
StepTimeResult estimateStepTime(const StepTimeContext& context, const TrainingConfig& training, const RankOrder& order);
/// The same with the rank order the layout names (training.layout.rankOrder).
StepTimeResult estimateStepTime(const StepTimeContext& context, const TrainingConfig& training);
/// The same for a layout the caller has already checked (checkLayout() == 0): the sweep checks every candidate once
/// for memory and time together, so the check is not repeated on its hot path.
StepTimeResult estimateValidLayoutStepTime(
    const StepTimeContext& context, const TrainingConfig& training, const RankOrder& order);
StepTimeResult estimateValidLayoutStepTime(const StepTimeContext& context, const TrainingConfig& training);
/// Convenience: builds the context for the scenario and evaluates its training set-up.
StepTimeResult estimateStepTime(const Scenario& scenario, const GpuSpec& gpu, const EfficiencyParams& efficiency);

/// Facility energy in kWh: gpus · powerPerGpuW · hours / 1000 · pue (docs/methods-cost.md §8).
double runEnergyKwh(double gpus, double hours, double powerPerGpuW, double pue);
/// Rented cost: gpus · hours · usdPerGpuHour.
double runCostUsd(double gpus, double hours, double usdPerGpuHour);

} // namespace clusterplanner::core::perf
