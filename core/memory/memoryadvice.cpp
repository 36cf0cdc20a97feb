// SPDX-License-Identifier: GPL-3.0-or-later
// Remedies for a layout that does not fit: single changes that bring the peak under the usable memory.
#include "core/memory/memorymodel.h"
#include "core/model/frameworkrules.h"
#include "core/model/frameworks.h"
#include "core/model/layoutcheck.h"

#include <cstdio>
#include <functional>

namespace clusterplanner::core {

namespace {

std::string gib(double bytes)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f GiB", bytes / kGiB);
    return text;
}

struct Remedy
{
    std::string name;
    std::function<bool(TrainingConfig&)> apply; ///< false when it does not apply to this layout
};

std::vector<Remedy> remedies(int gpusPerNode, int heads)
{
    const auto moveToModelParallel = [heads](TrainingConfig& t, int* degree, int limit) {
        const int doubled = *degree * 2;
        if (t.layout.dp % 2 != 0 || doubled > limit || (degree == &t.layout.tp && heads % doubled != 0))
            return false;
        *degree = doubled;
        setDataParallel(t.layout, t.layout.dp / 2);
        return true;
    };
    return {
        // Megatron-Core's module list drops the MoE layers' norm and expert-activation outputs and MLA's query, key and
        // value heads at little time.
        {"recompute the MoE norm and activation and MLA's up-projections (modules)",
            [](TrainingConfig& t) {
                const bool offered = frameworkCapabilities(t.framework).supports(Recompute::Modules);
                return offered && t.recompute == Recompute::None ? (t.recompute = Recompute::Modules, true) : false;
            }},
        {"enable selective recompute",
            [](TrainingConfig& t) {
                return t.recompute == Recompute::None ? (t.recompute = Recompute::Selective, true) : false;
            }},
        {"enable full recompute",
            [](TrainingConfig& t) {
                return t.recompute != Recompute::Full ? (t.recompute = Recompute::Full, true) : false;
            }},
        {"micro-batch 1", [](TrainingConfig& t) { return t.microBatch > 1 ? (t.microBatch = 1, true) : false; }},
        {"distributed optimizer / ZeRO-1",
            [](TrainingConfig& t) { return !t.shardsOptimizerStates() ? (t.zeroStage = 1, true) : false; }},
        // Changes the numerics, so it is advice only: the sweep never turns it on (docs/methods-memory.md §3.15).
        {"16-bit optimizer states (bf16 moments and master copy)",
            [](TrainingConfig& t) {
                if (t.optimizerStates != OptimizerStates::Fp32)
                    return false;
                t.optimizerStates = OptimizerStates::Bf16;
                return optimizerStatesInEffect(t, frameworkCapabilities(t.framework)) == OptimizerStates::Bf16;
            }},
        {"ZeRO-2", [](TrainingConfig& t) { return t.zeroStage < 2 ? (t.zeroStage = 2, true) : false; }},
        {"ZeRO-3", [](TrainingConfig& t) { return t.zeroStage < 3 ? (t.zeroStage = 3, true) : false; }},
        {"TP", [=](TrainingConfig& t) { return moveToModelParallel(t, &t.layout.tp, gpusPerNode); }},
        {"PP", [=](TrainingConfig& t) { return moveToModelParallel(t, &t.layout.pp, 1 << 20); }},
    };
}

} // namespace

std::vector<std::string> fitRemedies(const MemoryContext& ctx, const TrainingConfig& training, int gpusPerNode)
{
    const MemoryEstimate base = evaluateMemory(ctx, training);
    std::vector<std::string> out;
    if (base.fits || !ctx.valid)
        return out;
    for (const Remedy& remedy : remedies(gpusPerNode, ctx.model.heads)) {
        TrainingConfig changed = training;
        if (!remedy.apply(changed))
            continue;
        const MemoryEstimate e = evaluateMemory(ctx, changed);
        if (!e.fits)
            continue;
        std::string name = remedy.name;
        if (name == "TP")
            name = "TP " + std::to_string(changed.layout.tp) + " (DP " + std::to_string(changed.layout.dp) + ")";
        else if (name == "PP")
            name = "PP " + std::to_string(changed.layout.pp) + " (DP " + std::to_string(changed.layout.dp) + ")";
        out.push_back(name + ": peak " + gib(e.peakReservedBytes) + " reserved");
    }
    return out;
}

} // namespace clusterplanner::core
