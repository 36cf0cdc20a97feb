// SPDX-License-Identifier: GPL-3.0-or-later
// The sweep's evaluator for real training layouts: layout check, memory model, then step time.
#pragma once

#include "core/memory/memorycontext.h"
#include "core/perf/steptime.h"
#include "core/sweep/sweep.h"

#include <functional>
#include <memory>

namespace clusterplanner::core {

/// Evaluates candidates of one scenario. Per-model constants (parameter counts, FLOPs, memory and time
/// contexts) are computed once in the constructor; evaluate() allocates nothing and is thread-safe.
class TrainingLayoutEvaluator : public LayoutEvaluator
{
public:
    /// Settings that follow from each candidate's layout rather than from the scenario (a validation case's
    /// unstated MoE overlap, docs/methods-time.md §4.41); called from evaluate(), so it must be thread-safe.
    using TrainingAdjuster = std::function<void(TrainingConfig&)>;

    /// Throws std::invalid_argument ("field: problem") for a field outside the file format's range or a GPU type
    /// missing from the catalog. table: the efficiency
    /// table to use (nullptr = the built-in one); only read in the constructor.
    explicit TrainingLayoutEvaluator(
        const Scenario& scenario, const perf::EfficiencyTable* table = nullptr, TrainingAdjuster adjust = {});
    TrainingLayoutEvaluator(const TrainingLayoutEvaluator&) = delete;
    TrainingLayoutEvaluator& operator=(const TrainingLayoutEvaluator&) = delete;

    LayoutResult evaluate(const LayoutCandidate& candidate) const override;
    const perf::StepTimeContext& timeContext() const { return m_time; }
    /// The full training set-up the candidate stands for.
    TrainingConfig trainingFor(const LayoutCandidate& candidate) const;

private:
    Scenario m_scenario; // owns the model the contexts point to
    const GpuSpec* m_gpu;
    MemoryContext m_memory;
    perf::StepTimeContext m_time;
    TrainingAdjuster m_adjust;
};

std::unique_ptr<LayoutEvaluator> makeLayoutEvaluator(const Scenario& scenario);

} // namespace clusterplanner::core
