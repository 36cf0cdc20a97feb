// SPDX-License-Identifier: GPL-3.0-or-later
// "clusterplanner pipeline": one pipeline schedule as a timeline (makespan, bubble, peaks, every op).
#include "cli/arguments.h"
#include "cli/commandlist.h"
#include "core/model/enumnames.h"
#include "core/perf/pipeline.h"

#include <nlohmann/json.hpp>

#include <iomanip>
#include <ostream>
#include <stdexcept>

namespace clusterplanner::cli {

using namespace clusterplanner::core; // commands are thin wrappers over the engine

namespace {

const char* kindName(perf::PipelineOpKind kind)
{
    switch (kind) {
    case perf::PipelineOpKind::Forward:
        return "F";
    case perf::PipelineOpKind::Backward:
        return "B";
    case perf::PipelineOpKind::WeightGrad:
        break;
    }
    return "W";
}

perf::PipelineParams parseParams(Arguments& a)
{
    perf::PipelineParams p;
    const std::string name = a.required("--schedule");
    const auto schedule = enumFromString<PipelineSchedule>(name);
    if (!schedule)
        throw UsageError("--schedule: \"" + name + "\" is not one of gpipe, 1f1b, interleaved, zb-h1");
    p.schedule = *schedule;
    const auto stages = a.optionalInteger("--stages", 1, 4096);
    const auto microBatches = a.optionalInteger("--microbatches", 1, 1'000'000);
    if (!stages || !microBatches)
        throw UsageError("--stages and --microbatches are required");
    p.stages = int(*stages);
    p.microBatches = int(*microBatches);
    p.chunks = int(a.integer("--chunks", p.schedule == PipelineSchedule::Interleaved ? 2 : 1, 1, 64));
    p.forward = a.number("--fwd", 1.0, 1e-12, 1e12);
    p.backward = a.number("--bwd", 1.0, 1e-12, 1e12); // schedules without a split backward run B + W as one op
    p.weightGrad = a.number("--wgrad", 1.0, 0.0, 1e12);
    return p;
}

nlohmann::json toJson(const perf::PipelineParams& p, const perf::PipelineTimeline& t)
{
    nlohmann::json ops = nlohmann::json::array();
    for (const auto& op : t.ops)
        ops.push_back({{"stage", op.stage}, {"chunk", op.chunk}, {"micro_batch", op.microBatch},
            {"kind", kindName(op.kind)}, {"start", op.start}, {"end", op.end}});
    return {{"schedule", toString(p.schedule)}, {"stages", p.stages}, {"micro_batches", p.microBatches},
        {"chunks", p.chunks}, {"fwd", p.forward}, {"bwd", p.backward}, {"wgrad", p.weightGrad},
        {"makespan", t.summary.makespan}, {"ideal", t.summary.idealTime}, {"bubble_fraction", t.summary.bubbleFraction},
        {"bubble_rate", t.summary.bubbleRate}, {"peak_in_flight", t.peakInFlight}, {"ops", ops}};
}

void printText(std::ostream& out, const perf::PipelineParams& p, const perf::PipelineTimeline& t)
{
    out << "schedule " << toString(p.schedule) << ", " << p.stages << " stages, " << p.microBatches
        << " micro-batches, " << p.chunks << " chunk(s); F " << p.forward << ", B " << p.backward << ", W "
        << p.weightGrad << "\n";
    out << "makespan " << t.summary.makespan << "  (ideal " << t.summary.idealTime << ", bubble fraction "
        << t.summary.bubbleFraction << ", bubble rate " << t.summary.bubbleRate << ")\n";
    out << "peak in-flight micro-batches per stage:";
    for (double peak : t.peakInFlight)
        out << " " << peak;
    out << "\n\nstage chunk micro-batch kind start end\n";
    for (const auto& op : t.ops)
        out << std::setw(5) << op.stage << std::setw(6) << op.chunk << std::setw(12) << op.microBatch << std::setw(5)
            << kindName(op.kind) << " " << op.start << " " << op.end << "\n";
}

} // namespace

int runPipeline(const Args& args, std::ostream& out, std::ostream&)
{
    Arguments arguments(args);
    const bool asJson = arguments.flag("--json");
    const perf::PipelineParams params = parseParams(arguments);
    arguments.finish();
    perf::PipelineTimeline timeline;
    try {
        timeline = perf::simulatePipeline(params);
    } catch (const std::invalid_argument& error) {
        throw UsageError(error.what());
    }
    if (asJson)
        out << toJson(params, timeline).dump(2) << "\n";
    else
        printText(out, params, timeline);
    return 0;
}

} // namespace clusterplanner::cli
