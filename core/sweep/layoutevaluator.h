// SPDX-License-Identifier: GPL-3.0-or-later
// The sweep's evaluator for real training layouts: layout check, memory model, then step time.
#pragma once

#include "core/memory/memorycontext.h"
#include "core/perf/steptime.h"
#include "core/sweep/sweep.h"

#include <memory>

namespace clusterplanner::core {

/// Evaluates candidates of one scenario. Per-model constants (parameter counts, FLOPs, memory and time
/// contexts) are computed once in the constructor; evaluate() allocates nothing and is thread-safe.
class TrainingLayoutEvaluator : public LayoutEvaluator
{
public:
    /// Throws std::invalid_argument ("field: problem") for a field outside the file format's range or a GPU type
    /// missing from the catalog. table: the efficiency
    /// table to use (nullptr = the built-in one); only read in the constructor.
    explicit TrainingLayoutEvaluator(const Scenario& scenario, const perf::EfficiencyTable* table = nullptr);
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
};

std::unique_ptr<LayoutEvaluator> makeLayoutEvaluator(const Scenario& scenario);

} // namespace clusterplanner::core
