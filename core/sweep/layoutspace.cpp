// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/sweep/layoutspace.h"

#include "core/model/frameworkrules.h"
#include "core/model/layoutcheck.h"

#include "core/model/frameworks.h"
#include "core/model/gpucatalog.h"
#include "core/model/modelmath.h"

#include <algorithm>

namespace clusterplanner::core {

namespace {

bool isPowerOfTwo(int n)
{
    return n > 0 && (n & (n - 1)) == 0;
}

/// Values of one dimension: the fixed value when set, else every divisor of `of` that passes `keep`.
template <typename Keep>
std::vector<int> choices(const std::optional<int>& fixed, int of, Keep keep)
{
    if (fixed)
        return of % *fixed == 0 ? std::vector<int> {*fixed} : std::vector<int> {};
    std::vector<int> values;
    for (int d : divisorsOf(of))
        if (keep(d))
            values.push_back(d);
    return values;
}

int tpLimit(const Scenario& scenario, const SweepConstraints& constraints)
{
    if (constraints.maxTp > 0)
        return constraints.maxTp;
    int domain = scenario.cluster.gpusPerNode;
    if (const GpuSpec* gpu = GpuCatalog::builtin().find(scenario.cluster.gpuId))
        domain = std::max(domain, gpu->scaleupDomainGpus);
    return std::min(domain, scenario.cluster.gpuCount);
}

// Free dimensions offer only what the scenario's framework can run (data/frameworks.json); a value the user
// fixed is taken as given, so a stated set-up is always evaluated.

std::vector<Recompute> recomputeChoices(
    const SweepConstraints& c, const FrameworkCapabilities& caps, bool hasRecomputeModules)
{
    if (c.recompute)
        return {*c.recompute};
    // Module recompute touches only MoE layers' separate norm and expert activation and MLA's up-projections: on a
    // dense model without MLA it is None again, and would only double the rows.
    std::vector<Recompute> modes = caps.recomputeModes;
    if (!hasRecomputeModules)
        std::erase(modes, Recompute::Modules);
    return modes;
}

std::vector<int> zeroChoices(const SweepConstraints& c, const FrameworkCapabilities& caps, int pp)
{
    if (c.zeroStage)
        return {*c.zeroStage};
    std::vector<int> stages;
    for (int stage = 0; stage <= c.maxZeroStage.value_or(3); ++stage)
        if (caps.supportsZeroStage(stage, pp))
            stages.push_back(stage);
    return stages;
}

/// Schedules that make sense for pp stages with v chunks: interleaving needs v > 1, the others v == 1, DualPipe an
/// even pp (its micro-batch count is the layout check's). DualPipe only where asked for: its bubble comes from a
/// replay of its order (tens of µs a layout, docs/methods-time.md §4.46) where every other schedule has a closed form,
/// and an open sweep would spend most of its time there.
std::vector<PipelineSchedule> scheduleChoices(
    const SweepConstraints& c, const FrameworkCapabilities& caps, int pp, int v)
{
    std::vector<PipelineSchedule> all;
    if (pp == 1)
        all = {PipelineSchedule::OneFOneB};
    else if (v > 1)
        all = {PipelineSchedule::Interleaved};
    else
        all = {PipelineSchedule::OneFOneB, PipelineSchedule::GPipe, PipelineSchedule::ZbH1};
    if (c.schedule == PipelineSchedule::DualPipe && pp > 1 && v == 1 && pp % 2 == 0)
        all.push_back(PipelineSchedule::DualPipe);
    if (c.schedule)
        return std::find(all.begin(), all.end(), *c.schedule) != all.end() ? std::vector {*c.schedule}
                                                                           : std::vector<PipelineSchedule> {};
    if (pp > 1)
        std::erase_if(all, [&](PipelineSchedule s) { return !caps.supports(s); });
    return all;
}

std::vector<int> virtualStageChoices(
    const Scenario& s, const SweepConstraints& c, const FrameworkCapabilities& caps, int pp)
{
    if (c.virtualStages)
        return {*c.virtualStages};
    std::vector<int> values {1};
    // Uneven chunks are allowed (the slowest stage carries ceil(layers / pp)); every chunk needs a layer, or the
    // embedding's or the loss's slot where the framework counts them and they make the split even (Megatron-Core,
    // core/model/frameworkrules.h pipelineEndSlots, which the layout check applies).
    const int layers = s.model.layers;
    if (pp > 1 && (c.schedule || caps.supports(PipelineSchedule::Interleaved)))
        for (int v = 2; v <= c.maxVirtualStages && pp * v <= layers + 2; ++v)
            if (pp * v <= layers + pipelineEndSlots(layers, pp * v, caps))
                values.push_back(v);
    return values;
}

std::vector<int> expertChoices(const Scenario& s, const SweepConstraints& c, int foldable)
{
    if (!s.model.moe)
        return {1};
    return choices(c.ep, s.model.moe->experts,
        [&](int ep) { return foldable % ep == 0 && (!c.powersOfTwoOnly || isPowerOfTwo(ep)); });
}

/// The order only matters when both DP and PP groups exist: which of them gets the nearer ranks.
std::vector<RankOrdering> orderChoices(const SweepConstraints& c, int dp, int pp)
{
    if (c.rankOrder)
        return {*c.rankOrder};
    if (dp == 1 || pp == 1)
        return {RankOrdering::TpCpEpDpPp};
    return {RankOrdering::TpCpEpDpPp, RankOrdering::TpCpEpPpDp};
}

struct Emitter
{
    const Scenario& scenario;
    const SweepConstraints& constraints;
    const FrameworkCapabilities& caps; ///< of the scenario's framework: what the free dimensions may take

    void emit(ParallelLayout layout, std::vector<LayoutCandidate>& out) const
    {
        const int perRank = scenario.training.globalBatch / layout.dp;
        if (scenario.training.globalBatch % layout.dp != 0)
            return;
        const auto microBatches
            = choices(constraints.microBatch, perRank, [&](int b) { return b <= constraints.maxMicroBatch; });
        const auto recomputeModes = recomputeChoices(constraints, caps, hasRecomputeModules(scenario.model));
        const auto zeroStages = zeroChoices(constraints, caps, layout.pp);
        for (int v : virtualStageChoices(scenario, constraints, caps, layout.pp))
            for (PipelineSchedule schedule : scheduleChoices(constraints, caps, layout.pp, v))
                for (int b : microBatches)
                    for (Recompute recompute : recomputeModes)
                        for (int zero : zeroStages) {
                            layout.virtualStages = v;
                            out.push_back({layout, b, recompute, zero, schedule});
                        }
    }
};

/// Every EP degree and rank order of one DP×TP×PP×CP factoring: the groups of the space.
void addGroups(const Scenario& scenario, const SweepConstraints& constraints, ParallelLayout layout,
    std::vector<ParallelLayout>& groups)
{
    const int foldable = layout.dp * layout.cp * layout.tp;
    // Expert TP is the scenario's choice (its default follows each layout's TP); a stated one that does not fit a
    // layout's ranks is reported by the layout check like any other rule.
    layout.expertTp = scenario.training.layout.expertTp;
    for (int ep : expertChoices(scenario, constraints, foldable))
        for (RankOrdering order : orderChoices(constraints, layout.dp, layout.pp)) {
            layout.ep = ep;
            layout.rankOrder = order;
            // The scenario's hybrid shard degree where it divides this layout's DP, else sharding over all of it.
            layout.dpShard = fittingDpShard(layout, scenario.training.layout.dpShard);
            groups.push_back(layout);
        }
}

std::vector<ParallelLayout> factoringGroups(
    const Scenario& scenario, const SweepConstraints& constraints, const FrameworkCapabilities& caps)
{
    std::vector<ParallelLayout> groups;
    const int gpus = scenario.cluster.gpuCount;
    const int maxTp = tpLimit(scenario, constraints);
    const bool pow2 = constraints.powersOfTwoOnly;
    const int maxPp = caps.maxPipelineStages;
    for (int tp : choices(constraints.tp, gpus, [&](int t) { return t <= maxTp && (!pow2 || isPowerOfTwo(t)); }))
        for (int cp : choices(constraints.cp, gpus / tp, [&](int c) { return !pow2 || isPowerOfTwo(c); }))
            for (int pp : choices(constraints.pp, gpus / (tp * cp),
                     [&](int p) { return p <= scenario.model.layers && (maxPp == 0 || p <= maxPp); })) {
                const int dp = gpus / (tp * cp * pp);
                if (constraints.dp && *constraints.dp != dp)
                    continue;
                addGroups(scenario, constraints,
                    ParallelLayout {dp, tp, pp, cp, 1, 1, tp > 1 && constraints.sequenceParallel.value_or(true)},
                    groups);
            }
    return groups;
}

} // namespace

std::vector<int> divisorsOf(int n)
{
    std::vector<int> small, large;
    for (int d = 1; d * d <= n; ++d) {
        if (n % d != 0)
            continue;
        small.push_back(d);
        if (d != n / d)
            large.push_back(n / d);
    }
    small.insert(small.end(), large.rbegin(), large.rend());
    return small;
}

TrainingConfig applyCandidate(TrainingConfig t, const LayoutCandidate& candidate)
{
    t.layout = candidate.layout;
    t.microBatch = candidate.microBatch;
    t.recompute = candidate.recompute;
    t.zeroStage = candidate.zeroStage;
    t.schedule = candidate.schedule;
    t.distributedOptimizer = candidate.zeroStage == 1 && frameworkCapabilities(t.framework).distributedOptimizer;
    return t;
}

Scenario applyCandidate(Scenario scenario, const LayoutCandidate& candidate)
{
    scenario.training = applyCandidate(scenario.training, candidate);
    return scenario;
}

LayoutCandidate candidateOf(const Scenario& s)
{
    const auto& t = s.training;
    return {t.layout, t.microBatch, t.recompute, t.zeroStage, t.schedule};
}

LayoutSpace::LayoutSpace(const Scenario& scenario, const SweepConstraints& constraints)
    : m_scenario(scenario)
    , m_constraints(constraints)
    , m_caps(&frameworkCapabilities(scenario.training.framework))
    , m_groups(factoringGroups(m_scenario, m_constraints, *m_caps))
{
    // Sizes by expanding each group once into one reused buffer: cheap, and it cannot disagree with expand().
    // Empty groups (the global batch does not split over their DP) are dropped: every work item has work.
    std::vector<LayoutCandidate> scratch;
    std::vector<ParallelLayout> nonEmpty;
    m_offsets.push_back(0);
    for (std::size_t group = 0; group < m_groups.size(); ++group) {
        scratch.clear();
        expand(group, scratch);
        if (scratch.empty())
            continue;
        nonEmpty.push_back(m_groups[group]);
        m_offsets.push_back(m_offsets.back() + scratch.size());
    }
    m_groups = std::move(nonEmpty);
}

void LayoutSpace::expand(std::size_t group, std::vector<LayoutCandidate>& out) const
{
    Emitter {m_scenario, m_constraints, *m_caps}.emit(m_groups[group], out);
}

std::vector<LayoutCandidate> enumerateLayouts(const Scenario& scenario, const SweepConstraints& constraints)
{
    const LayoutSpace space(scenario, constraints);
    std::vector<LayoutCandidate> out;
    out.reserve(space.size());
    for (std::size_t group = 0; group < space.groupCount(); ++group)
        space.expand(group, out);
    return out;
}

} // namespace clusterplanner::core
