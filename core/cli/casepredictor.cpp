// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cli/casepredictor.h"

#include "core/memory/layoutcheck.h"
#include "core/memory/layoutchooser.h"
#include "core/memory/memorymodel.h"
#include "core/model/gpucatalog.h"
#include "core/model/modelmath.h"

namespace clusterplanner::core::cli {

namespace {

std::string joined(const std::vector<std::string>& parts)
{
    std::string text;
    for (const auto& part : parts)
        text += (text.empty() ? "" : "; ") + part;
    return text;
}

} // namespace

CasePrediction predictCase(const ValidationCase& c)
{
    CasePrediction p;
    p.id = c.id;
    const Scenario& s = c.scenario;
    p.params = countParameters(s.model).total;
    p.modelFlopsPerToken = modelFlopsPerToken(s.model);
    const GpuSpec* gpu = GpuCatalog::builtin().find(s.cluster.gpuId);
    if (!gpu) {
        p.error = "unknown GPU \"" + s.cluster.gpuId + "\" (see clusterplanner catalog)";
        return p;
    }
    const MemoryContext ctx = makeMemoryContext(s.model, gpu);
    const LayoutChoice choice = chooseLayout(c, ctx);
    p.chosen = choice.training;
    p.choices = choice.chosen;
    if (!choice.found) {
        const LayoutProblems problems = checkLayout(s.model, p.chosen, s.cluster.gpuCount);
        p.error = c.unknown.anyLayout() ? "no valid layout for the open parallel degrees: " : "invalid layout: ";
        p.error += joined(describeLayoutProblems(problems, s.model, p.chosen, s.cluster.gpuCount));
        return p;
    }
    p.memory = evaluateMemory(ctx, p.chosen);
    if (!p.memory.fits)
        p.remedies = fitRemedies(ctx, p.chosen, s.cluster.gpusPerNode);
    p.maxMicroBatch = maxMicroBatch(ctx, p.chosen);
    p.peakMemoryGiB = p.memory.peakAllocatedBytes / kGiB;
    p.peakReservedGiB = p.memory.peakReservedBytes / kGiB;
    p.ok = true;
    return p;
}

} // namespace clusterplanner::core::cli
