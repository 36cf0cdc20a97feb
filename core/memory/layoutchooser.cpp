// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/memory/layoutchooser.h"

#include "core/memory/activations.h"
#include "core/memory/memorymodel.h"
#include "core/model/enumnames.h"
#include "core/model/frameworks.h"
#include "core/model/layoutcheck.h"
#include "core/model/modelmath.h"

namespace clusterplanner::core {

namespace {

std::vector<int> candidates(bool unknown, int known, int limit)
{
    if (!unknown)
        return {known};
    std::vector<int> values;
    for (int v = 1; v <= limit; v *= 2)
        values.push_back(v);
    return values;
}

/// Pipeline degrees to try for a given TP: the stated one, the one a stated DP forces, or every divisor of the
/// GPUs left per TP × CP group, up to the layer count.
std::vector<int> pipelineCandidates(const ValidationCase& c, int tp)
{
    const Scenario& s = c.scenario;
    const ParallelLayout& l = s.training.layout;
    if (!c.unknown.pp)
        return {l.pp};
    const int group = tp * l.cp * (c.unknown.dp ? 1 : l.dp);
    if (group <= 0 || s.cluster.gpuCount % group != 0)
        return {};
    const int rest = s.cluster.gpuCount / group;
    if (!c.unknown.dp)
        return {rest};
    std::vector<int> values;
    for (int p = 1; p <= std::min(rest, s.model.layers); ++p)
        if (rest % p == 0)
            values.push_back(p);
    return values;
}

/// Fills fields that follow from the layout: DP, global batch, sequence parallel, schedule.
bool completeLayout(const ValidationCase& c, TrainingConfig& t)
{
    const UnknownFields& u = c.unknown;
    ParallelLayout& l = t.layout;
    const int gpus = c.scenario.cluster.gpuCount;
    const int modelParallel = l.tp * l.pp * l.cp;
    if (u.dp) {
        if (gpus % modelParallel != 0)
            return false;
        l.dp = gpus / modelParallel;
    }
    if (u.globalBatch)
        t.globalBatch = l.dp * t.microBatch;
    if (u.sequenceParallel)
        l.sequenceParallel = l.tp > 1 && kernelStyle(t.framework) == KernelStyle::Fused;
    if (u.schedule)
        t.schedule = l.virtualStages > 1 ? PipelineSchedule::Interleaved : PipelineSchedule::OneFOneB;
    return true;
}

/// Chunks per pipeline rank to try: the stated count, or, where an interleaved schedule leaves it open, every power
/// of two up to the layers per stage (more chunks: a smaller bubble, more activations in flight).
std::vector<int> virtualStageCandidates(const ValidationCase& c, int pp)
{
    const TrainingConfig& t = c.scenario.training;
    const bool interleavable = c.unknown.schedule || t.schedule == PipelineSchedule::Interleaved;
    if (!c.unknown.virtualStages || !interleavable || pp < 2)
        return {t.layout.virtualStages};
    return candidates(true, 1, c.scenario.model.layers / pp);
}

std::vector<Recompute> recomputeOptions(const ValidationCase& c)
{
    if (!c.unknown.recompute)
        return {c.scenario.training.recompute};
    std::vector<Recompute> options {Recompute::None, Recompute::Selective, Recompute::Full};
    // Megatron-Core's module list, where the framework has it, between none and the heavier kinds in memory.
    if (hasRecomputeModules(c.scenario.model)
        && frameworkCapabilities(c.scenario.training.framework).supports(Recompute::Modules))
        options.insert(options.begin() + 1, Recompute::Modules);
    return options;
}

} // namespace

LayoutChoice chooseLayout(const ValidationCase& c, const MemoryContext& ctx)
{
    const Scenario& s = c.scenario;
    const UnknownFields& u = c.unknown;
    const int nodeGpus = std::min(s.cluster.gpusPerNode, s.cluster.gpuCount);
    LayoutChoice best;
    bool haveValid = false;
    double leastPeakBytes = 0;
    for (int tp : candidates(u.tp, s.training.layout.tp, nodeGpus)) {
        for (int pp : pipelineCandidates(c, tp)) {
            for (int chunks : virtualStageCandidates(c, pp)) {
                for (Recompute recompute : recomputeOptions(c)) {
                    TrainingConfig t = s.training;
                    t.layout.tp = tp;
                    t.layout.pp = pp;
                    t.layout.virtualStages = chunks;
                    t.recompute = recompute;
                    if (!completeLayout(c, t) || checkLayout(s.model, t, s.cluster.gpuCount) != 0)
                        continue;
                    const MemoryEstimate memory = evaluateMemory(ctx, t);
                    if (memory.fits) {
                        best.training = t;
                        best.found = true;
                        describeChoices(c, best);
                        return best;
                    }
                    // Nothing fits yet: keep the valid layout that comes closest; on a tie the later one, which has
                    // more chunks per rank (a smaller bubble for the same memory) or more recompute.
                    if (!haveValid || memory.peakAllocatedBytes <= leastPeakBytes) {
                        best.training = t;
                        leastPeakBytes = memory.peakAllocatedBytes;
                    }
                    haveValid = true;
                }
            }
        }
    }
    if (!haveValid)
        best.training = s.training;
    best.found = haveValid;
    describeChoices(c, best);
    return best;
}

void describeChoices(const ValidationCase& c, LayoutChoice& choice)
{
    const UnknownFields& u = c.unknown;
    const TrainingConfig& t = choice.training;
    const auto note = [&](bool unknown, const std::string& text) {
        if (unknown)
            choice.chosen.push_back(text);
    };
    note(u.tp, "tp " + std::to_string(t.layout.tp));
    note(u.pp, "pp " + std::to_string(t.layout.pp));
    note(u.cp, "cp " + std::to_string(t.layout.cp));
    note(u.dp, "dp " + std::to_string(t.layout.dp));
    note(u.ep && c.scenario.model.moe.has_value(), "ep " + std::to_string(t.layout.ep));
    note(u.virtualStages, "vpp " + std::to_string(t.layout.virtualStages));
    note(u.microBatch, "micro_batch " + std::to_string(t.microBatch));
    note(u.globalBatch, "global_batch " + std::to_string(t.globalBatch));
    note(u.recompute, "recompute " + std::string(toString(t.recompute)));
    note(u.sequenceParallel, std::string("sequence_parallel ") + (t.layout.sequenceParallel ? "true" : "false"));
    note(u.schedule, "schedule " + std::string(toString(t.schedule)));
    note(u.precision, "precision " + std::string(toString(t.precision)));
    note(u.zeroStage, "zero_stage " + std::to_string(t.zeroStage));
    note(u.attention, "attention " + std::string(toString(t.attention)));
}

} // namespace clusterplanner::core
