// SPDX-License-Identifier: GPL-3.0-or-later
// Exhaustive, multi-threaded, cancellable search over parallel layouts, streaming results as they come.
#pragma once

#include "core/sweep/layoutresult.h"
#include "core/sweep/layoutspace.h"
#include "core/sweep/sweepreducer.h"

#include <cstdint>
#include <functional>
#include <span>
#include <stop_token>
#include <string>
#include <vector>

namespace clusterplanner::core {

/// Evaluates candidates of one scenario; built once per sweep so that per-model constants are precomputed.
/// evaluate() is called concurrently from several threads and must not modify shared state.
class LayoutEvaluator
{
public:
    virtual ~LayoutEvaluator() = default;
    virtual LayoutResult evaluate(const LayoutCandidate& candidate) const = 0;
};

struct SweepSpec
{
    SweepConstraints constraints;
    SweepObjective objective = SweepObjective::TokensPerSecond;
    int topCount = 20;
    int threads = 0; ///< 0 = std::thread::hardware_concurrency()
    /// Also keep every result in `all` (memory grows with the space: ~120 bytes a layout). Off, a sweep keeps only
    /// what the reducers keep; a caller that wants every row takes the batches the progress callback streams.
    bool keepAll = false;
};

struct SweepSummary
{
    long long evaluated = 0;
    long long valid = 0;
    long long fitting = 0;
    LayoutProblems problemsSeen = 0; ///< every rule some invalid layout broke
    double leastOverflowGiB = -1; ///< the leanest valid layout's excess over usable memory (< 0: every valid one fits)
    double leastOverflowCapacityGiB = 0; ///< that layout's usable memory
    double seconds = 0;
    double layoutsPerS = 0;
};

struct SweepResult
{
    SweepSummary summary;
    std::vector<LayoutResult> top; ///< best fitting layouts by the objective, best first (ties: enumeration order)
    std::vector<LayoutResult> pareto; ///< fitting layouts no other beats in both memory headroom and throughput
    std::vector<LayoutResult> all; ///< every evaluated layout (when keepAll), in enumeration order
    bool cancelled = false;
};

/// Called from worker threads (serialised): the fraction done and the batch just evaluated. The batch lives only
/// for the call: copy what must outlive it.
using SweepProgress = std::function<void(double fraction, std::span<const LayoutResult> batch)>;

/// Evaluates every candidate on spec.threads threads, each reducing its results on its own (SweepReducer), merged
/// at the end. An exception thrown by the evaluator or the progress callback stops every worker and is rethrown
/// here, in the calling thread, once all have stopped.
SweepResult runSweep(const Scenario& scenario, const SweepSpec& spec, const LayoutEvaluator& evaluator,
    std::stop_token stop = {}, const SweepProgress& progress = {});

} // namespace clusterplanner::core
