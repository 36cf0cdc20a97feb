// SPDX-License-Identifier: GPL-3.0-or-later
// "clusterplanner pipeline": one pipeline schedule as a timeline (makespan, bubble, peaks, every op).
#include "cli/commandline.h"
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

std::vector<std::string> scheduleNames()
{
    std::vector<std::string> names;
    for (PipelineSchedule v : allValues<PipelineSchedule>())
        names.emplace_back(toString(v));
    return names;
}

CLI::Option* addOptions(
    CLI::App& app, perf::PipelineParams& p, std::string& schedule, std::optional<int>& chunks, CLI::Option*& backward)
{
    app.add_option("--schedule", schedule, "pipeline schedule")->required()->check(oneOf(scheduleNames()));
    app.add_option("--stages", p.stages, "pipeline stages p")->required()->check(CLI::Range(1, 4096));
    app.add_option("--microbatches", p.microBatches, "micro-batches m per step")
        ->required()
        ->check(CLI::Range(1, 1'000'000));
    app.add_option("--chunks", chunks, "model chunks v per stage (interleaved only; default 2 there, else 1)")
        ->check(CLI::Range(1, 64));
    app.add_option("--fwd", p.forward, "time of one forward op, any unit (the output uses it)")
        ->check(CLI::Range(1e-12, 1e12));
    backward = app.add_option("--bwd", p.backward,
                      "time of one backward op: the input gradients B where W is split (zb-h1, dualpipe; default 1), "
                      "else the whole backward B + W (default 2)")
                   ->check(CLI::Range(1e-12, 1e12));
    return app
        .add_option("--wgrad", p.weightGrad,
            "time of one weight-gradient op W, for the schedules that split it (zb-h1, dualpipe; default 1 there)")
        ->check(CLI::Range(0.0, 1e12));
}

perf::PipelineParams parseParams(const Args& args, std::ostream& out, bool& asJson)
{
    perf::PipelineParams p;
    p.forward = p.backward = p.weightGrad = 1.0;
    std::string schedule;
    std::optional<int> chunks;
    auto app = makeCommandApp("pipeline",
        "One pipeline schedule as an event timeline: makespan, bubble, peak in-flight micro-batches, every op.",
        {"clusterplanner pipeline --schedule 1f1b --stages 4 --microbatches 8",
            "clusterplanner pipeline --schedule interleaved --stages 4 --microbatches 8 --chunks 2 --json"});
    CLI::Option* backward = nullptr;
    const CLI::Option* wgrad = addOptions(*app, p, schedule, chunks, backward);
    app->add_flag("--json", asJson, "JSON output");
    parseCommand(*app, args, out);
    p.schedule = *enumFromString<PipelineSchedule>(schedule);
    // Where W is not split, --bwd is the whole backward (B + W): a W of its own would be counted twice.
    if (!perf::splitsWeightGradient(p.schedule)) {
        if (wgrad->count() > 0)
            throw UsageError("--wgrad: " + schedule
                + " does not split the weight gradient; give the whole backward (B + W) as --bwd");
        if (backward->count() == 0)
            p.backward += p.weightGrad; // the default whole backward: B 1 + W 1
        p.weightGrad = 0;
    }
    p.chunks = chunks.value_or(p.schedule == PipelineSchedule::Interleaved ? 2 : 1);
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
    bool asJson = false;
    const perf::PipelineParams params = parseParams(args, out, asJson);
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
