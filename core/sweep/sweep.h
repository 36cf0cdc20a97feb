// SPDX-License-Identifier: GPL-3.0-or-later
// Exhaustive, multi-threaded, cancellable search over parallel layouts, streaming results as they come.
#pragma once

#include "core/sweep/layoutspace.h"

#include <cstdint>
#include <functional>
#include <span>
#include <stop_token>
#include <string>
#include <vector>

namespace clusterplanner::core {

/// Figures of one evaluated layout. Time and cost fields are meaningful only when valid.
struct LayoutResult
{
    LayoutCandidate candidate;
    bool valid = false;
    std::uint32_t problems = 0; ///< bitmask of the layout check's violations (0 when valid)
    bool fits = false;
    double peakMemoryGiB = 0;
    double capacityGiB = 0;
    double stepTimeS = 0;
    double tokensPerSPerGpu = 0;
    double mfu = 0;
    double costPerMTokensUsd = 0;

    double headroomGiB() const { return capacityGiB - peakMemoryGiB; }
};

/// Evaluates candidates of one scenario; built once per sweep so that per-model constants are precomputed.
/// evaluate() is called concurrently from several threads and must not modify shared state.
class LayoutEvaluator
{
public:
    virtual ~LayoutEvaluator() = default;
    virtual LayoutResult evaluate(const LayoutCandidate& candidate) const = 0;
};

enum class SweepObjective { TokensPerSecond, CostPerToken, Balanced };

struct SweepSpec
{
    SweepConstraints constraints;
    SweepObjective objective = SweepObjective::TokensPerSecond;
    int topCount = 20;
    int threads = 0; ///< 0 = std::thread::hardware_concurrency()
    bool keepAll = true; ///< keep every result (the grid explorer needs them), not only the top and the front
};

struct SweepSummary
{
    long long evaluated = 0;
    long long valid = 0;
    long long fitting = 0;
    double seconds = 0;
    double layoutsPerS = 0;
};

struct SweepResult
{
    SweepSummary summary;
    std::vector<LayoutResult> top; ///< best fitting layouts by the objective, best first
    std::vector<LayoutResult> pareto; ///< fitting layouts no other beats in both memory headroom and throughput
    std::vector<LayoutResult> all; ///< every evaluated layout (when keepAll), in enumeration order
    bool cancelled = false;
};

/// Called from worker threads (serialised): the fraction done and the batch just evaluated.
using SweepProgress = std::function<void(double fraction, std::span<const LayoutResult> batch)>;

/// Score used for ranking (higher is better).
double sweepScore(const LayoutResult& result, SweepObjective objective);

/// Fitting results on the Pareto front of (headroom, tokens/s), by decreasing headroom.
std::vector<LayoutResult> paretoFront(const std::vector<LayoutResult>& results);

SweepResult runSweep(const Scenario& scenario, const SweepSpec& spec, const LayoutEvaluator& evaluator,
    std::stop_token stop = {}, const SweepProgress& progress = {});

} // namespace clusterplanner::core
