// SPDX-License-Identifier: GPL-3.0-or-later
// The space of parallel layouts a sweep explores: every DP×TP×PP×CP(×EP) factoring of the GPU count with
// micro-batch, virtual stages, recompute, ZeRO stage and schedule, minus what the user fixed.
#pragma once

#include "core/model/frameworks.h"
#include "core/model/scenario.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace clusterplanner::core {

/// One point of the space: everything of TrainingConfig that a sweep varies.
struct LayoutCandidate
{
    ParallelLayout layout;
    int microBatch = 1;
    Recompute recompute = Recompute::None;
    int zeroStage = 0; ///< 0..3; with Megatron, 1 means the distributed optimizer
    PipelineSchedule schedule = PipelineSchedule::OneFOneB;
    bool operator==(const LayoutCandidate&) const = default;
};

/// Dimensions the user fixed (std::nullopt = free) and bounds of the free ones.
struct SweepConstraints
{
    std::optional<int> tp, pp, cp, ep, dp, microBatch, virtualStages, zeroStage;
    std::optional<Recompute> recompute;
    std::optional<PipelineSchedule> schedule;
    std::optional<RankOrdering> rankOrder;
    std::optional<bool> sequenceParallel; ///< free: on whenever TP > 1
    int maxTp = 0; ///< 0 = the GPU's scale-up (NVLink) domain, capped by GPUs per node
    int maxMicroBatch = 16;
    int maxVirtualStages = 8;
    bool powersOfTwoOnly = false; ///< restrict TP, CP and EP to powers of two (what most frameworks run)
    std::optional<int> maxZeroStage {}; ///< with zeroStage free: the highest stage offered
};

/// Applies a scenario's candidate to a copy of the scenario.
Scenario applyCandidate(Scenario scenario, const LayoutCandidate& candidate);
/// Applies a candidate to a copy of a training set-up (no allocation: the sweep's hot path).
TrainingConfig applyCandidate(TrainingConfig training, const LayoutCandidate& candidate);
/// The candidate a scenario currently uses.
LayoutCandidate candidateOf(const Scenario& scenario);

/// The space in groups: one group per DP×TP×PP×CP×EP factoring and rank order, whose candidates vary the inner
/// dimensions (virtual stages, schedule, micro-batch, recompute, ZeRO). A sweep expands one group at a time into a
/// reused buffer instead of holding every candidate (10 MB for GPT-3 on 1,024 GPUs, and as much in page faults).
class LayoutSpace
{
public:
    LayoutSpace(const Scenario& scenario, const SweepConstraints& constraints);

    std::size_t groupCount() const { return m_groups.size(); }
    /// Candidates in the whole space.
    std::size_t size() const { return m_offsets.back(); }
    /// Enumeration index of the group's first candidate.
    std::size_t groupOffset(std::size_t group) const { return m_offsets[group]; }
    std::size_t groupSize(std::size_t group) const { return m_offsets[group + 1] - m_offsets[group]; }
    /// Appends the group's candidates, in enumeration order.
    void expand(std::size_t group, std::vector<LayoutCandidate>& out) const;

private:
    Scenario m_scenario;
    SweepConstraints m_constraints;
    const FrameworkCapabilities* m_caps;
    std::vector<ParallelLayout> m_groups;
    std::vector<std::size_t> m_offsets; ///< groupCount() + 1 entries
};

/// Enumerates every candidate whose degrees multiply to the GPU count and whose micro-batch divides the global
/// batch per DP rank. Model-specific validity (heads, layers, sequence) is left to the layout check.
std::vector<LayoutCandidate> enumerateLayouts(const Scenario& scenario, const SweepConstraints& constraints);

/// Divisors of n in increasing order.
std::vector<int> divisorsOf(int n);

} // namespace clusterplanner::core
