// SPDX-License-Identifier: GPL-3.0-or-later
// Pipeline-parallel schedules (GPipe, 1F1B, interleaved 1F1B, ZB-H1, DualPipe) as an event timeline and as a closed
// form.
#pragma once

#include "core/model/scenario.h"

#include <string>
#include <vector>

namespace clusterplanner::core::perf {

enum class PipelineOpKind { Forward, Backward, WeightGrad };

/// One operation of one pipeline rank. Times are in the unit of the op durations given in PipelineParams.
struct PipelineOp
{
    int stage = 0; ///< pipeline rank, 0-based
    int chunk = 0; ///< model chunk on that rank (interleaved: 0..v-1; otherwise 0)
    int microBatch = 0;
    PipelineOpKind kind = PipelineOpKind::Forward;
    double start = 0;
    double end = 0;
};

/// Inputs of a schedule. forward, backward and weightGrad are the times of one micro-batch on one full stage
/// (all of its layers); an interleaved chunk takes 1/v of them. backward is the input-gradient part: schedules
/// that do not split the backward (all but ZB-H1 and DualPipe) run backward + weightGrad as one op. DualPipe: stages
/// are the pipeline ranks (each runs one stage of each direction, the times being their mean) and microBatches both
/// directions' together.
struct PipelineParams
{
    PipelineSchedule schedule = PipelineSchedule::OneFOneB;
    int stages = 1;
    int microBatches = 1;
    int chunks = 1; ///< virtual stages per rank; only interleaved may use more than 1
    double forward = 1;
    double backward = 1;
    double weightGrad = 1;
};

/// Whether the schedule runs the weight gradient as ops of its own (ZB-H1, DualPipe); elsewhere it is part of the
/// backward op.
inline bool splitsWeightGradient(PipelineSchedule schedule)
{
    return schedule == PipelineSchedule::ZbH1 || schedule == PipelineSchedule::DualPipe;
}

/// Makespan and bubble of a schedule, without the op list.
struct PipelineSummary
{
    double makespan = 0;
    double idealTime = 0; ///< m · (F + B + W): one stage's work without any bubble
    double bubbleTime = 0; ///< makespan − idealTime
    double bubbleFraction = 0; ///< bubbleTime / idealTime (Megatron convention, docs/methods-time.md §4.4)
    double bubbleRate = 0; ///< bubbleTime / makespan
    double worstPeakInFlight = 0; ///< largest peakInFlight over stages
};

struct PipelineTimeline
{
    PipelineSummary summary;
    /// Per stage, the most micro-batches whose activations are held at once, in stage-micro-batch units
    /// (an interleaved chunk counts 1/v). ZB-H1 holds a micro-batch until its weight-gradient op.
    std::vector<double> peakInFlight;
    std::vector<PipelineOp> ops; ///< every op of every stage, by stage then start time
};

/// The first rule params break, worded with the numbers (stages/micro-batches < 1, chunks > 1 for a
/// non-interleaved schedule, interleaved with microBatches % stages != 0, non-positive or non-finite durations);
/// empty when the schedule is well defined. Never throws; builds a string only on failure.
std::string pipelineProblem(const PipelineParams& params);
/// pipelineProblem(params) is empty, without building a string (the sweep's hot path).
bool isSchedulable(const PipelineParams& params);
/// Schedulable and small enough for the op replay (stages × micro-batches × chunks <= 5·10⁷).
bool isSimulable(const PipelineParams& params);

/// Throws std::invalid_argument with pipelineProblem()'s text when params are not schedulable.
void validatePipeline(const PipelineParams& params);

/// Runs the schedule op by op: every op starts when its rank is free and its dependency (the previous
/// virtual stage's forward, the next virtual stage's backward, the own backward for W) has finished.
/// Throws std::invalid_argument unless isSimulable(params).
PipelineTimeline simulatePipeline(const PipelineParams& params);

/// The same makespan, bubble and worst peak as simulatePipeline, from a closed form where one holds
/// (docs/methods-time.md §4.4) and from an op-less simulation otherwise. No allocation on the closed-form path,
/// which takes any number of micro-batches. Throws std::invalid_argument unless isSchedulable(params), and for a
/// ZB-H1 outside its closed form or a DualPipe (replayed: the report's closed form overstates its bubble) unless
/// isSimulable(params).
PipelineSummary pipelineSummary(const PipelineParams& params);

/// Peak in-flight micro-batches of one stage (closed form, same units as PipelineTimeline::peakInFlight).
double peakInFlight(const PipelineParams& params, int stage);

} // namespace clusterplanner::core::perf
