// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/sweep/sweep.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

namespace clusterplanner::core {

namespace {

constexpr std::size_t kChunk = 2048; // candidates per work item: small enough for ~20 progress updates/s

struct SharedState
{
    SharedState(
        const std::vector<LayoutCandidate>& c, const LayoutEvaluator& e, const SweepProgress& p, std::stop_token s)
        : candidates(c)
        , evaluator(e)
        , progress(p)
        , stop(std::move(s))
        , results(c.size())
    { }

    const std::vector<LayoutCandidate>& candidates;
    const LayoutEvaluator& evaluator;
    const SweepProgress& progress;
    std::stop_token stop;
    std::atomic<std::size_t> next {0};
    std::atomic<std::size_t> done {0};
    std::mutex progressMutex;
    std::vector<LayoutResult> results; // pre-sized; each worker writes its own chunks
    // A taken chunk is always finished (stop is checked between chunks), so [0, min(next, size)) is evaluated.
    std::size_t evaluatedCount() const { return std::min(next.load(), candidates.size()); }
};

void work(SharedState& state)
{
    const std::size_t total = state.candidates.size();
    while (!state.stop.stop_requested()) {
        const std::size_t begin = state.next.fetch_add(kChunk);
        if (begin >= total)
            return;
        const std::size_t end = std::min(total, begin + kChunk);
        for (std::size_t i = begin; i < end; ++i)
            state.results[i] = state.evaluator.evaluate(state.candidates[i]);
        if (!state.progress) {
            state.done.fetch_add(end - begin);
            continue;
        }
        // Count under the lock that serialises the reports, so the fraction each report carries never falls
        // behind an earlier one (two workers finishing together could otherwise report out of order).
        std::lock_guard lock(state.progressMutex);
        const std::size_t done = state.done.fetch_add(end - begin) + (end - begin);
        state.progress(double(done) / double(total), {state.results.data() + begin, end - begin});
    }
}

void rankTop(SweepResult& result, const std::vector<LayoutResult>& fitting, const SweepSpec& spec)
{
    result.top = fitting;
    const auto better = [&](const LayoutResult& a, const LayoutResult& b) {
        return sweepScore(a, spec.objective) > sweepScore(b, spec.objective);
    };
    const std::size_t count = std::min<std::size_t>(result.top.size(), std::max(0, spec.topCount));
    std::partial_sort(result.top.begin(), result.top.begin() + long(count), result.top.end(), better);
    result.top.resize(count);
}

} // namespace

double sweepScore(const LayoutResult& r, SweepObjective objective)
{
    switch (objective) {
    case SweepObjective::TokensPerSecond:
        return r.tokensPerSPerGpu;
    case SweepObjective::CostPerToken:
        return r.costPerMTokensUsd > 0 ? -r.costPerMTokensUsd : 0;
    case SweepObjective::Balanced:
        // Throughput, discounted when the layout runs within 10 % of the memory limit (fragile in practice).
        return r.tokensPerSPerGpu * (r.headroomGiB() >= 0.1 * r.capacityGiB ? 1.0 : 0.9);
    }
    return r.tokensPerSPerGpu;
}

std::vector<LayoutResult> paretoFront(const std::vector<LayoutResult>& results)
{
    std::vector<LayoutResult> sorted;
    for (const auto& r : results)
        if (r.valid && r.fits)
            sorted.push_back(r);
    std::sort(sorted.begin(), sorted.end(), [](const LayoutResult& a, const LayoutResult& b) {
        return a.headroomGiB() != b.headroomGiB() ? a.headroomGiB() > b.headroomGiB()
                                                  : a.tokensPerSPerGpu > b.tokensPerSPerGpu;
    });
    std::vector<LayoutResult> front;
    double best = -1;
    for (const auto& r : sorted) {
        if (r.tokensPerSPerGpu > best) {
            front.push_back(r);
            best = r.tokensPerSPerGpu;
        }
    }
    return front;
}

SweepResult runSweep(const Scenario& scenario, const SweepSpec& spec, const LayoutEvaluator& evaluator,
    std::stop_token stop, const SweepProgress& progress)
{
    const auto started = std::chrono::steady_clock::now();
    const auto candidates = enumerateLayouts(scenario, spec.constraints);
    SharedState state(candidates, evaluator, progress, stop);
    const unsigned threads
        = spec.threads > 0 ? unsigned(spec.threads) : std::max(1u, std::thread::hardware_concurrency());
    {
        std::vector<std::jthread> workers;
        for (unsigned i = 1; i < std::min<std::size_t>(threads, candidates.size() / kChunk + 1); ++i)
            workers.emplace_back([&state] { work(state); });
        work(state);
    }
    SweepResult result;
    result.cancelled = stop.stop_requested();
    const std::size_t evaluated = state.evaluatedCount();
    std::vector<LayoutResult> fitting;
    for (std::size_t i = 0; i < evaluated; ++i) {
        const auto& r = state.results[i];
        result.summary.valid += r.valid;
        if (r.valid && r.fits)
            fitting.push_back(r);
    }
    result.summary.evaluated = static_cast<long long>(evaluated);
    result.summary.fitting = static_cast<long long>(fitting.size());
    rankTop(result, fitting, spec);
    result.pareto = paretoFront(fitting);
    if (spec.keepAll) {
        state.results.resize(evaluated);
        result.all = std::move(state.results);
    }
    result.summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    result.summary.layoutsPerS = result.summary.seconds > 0 ? double(evaluated) / result.summary.seconds : 0;
    return result;
}

} // namespace clusterplanner::core
