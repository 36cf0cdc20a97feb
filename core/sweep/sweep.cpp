// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/sweep/sweep.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <mutex>
#include <thread>

namespace clusterplanner::core {

namespace {

constexpr std::size_t kChunk = 2048; // candidates per work item: small enough for ~20 progress updates/s

struct SharedState
{
    SharedState(const std::vector<LayoutCandidate>& c, const LayoutEvaluator& e, const SweepProgress& p)
        : candidates(c)
        , evaluator(e)
        , progress(p)
    { }

    const std::vector<LayoutCandidate>& candidates;
    const LayoutEvaluator& evaluator;
    const SweepProgress& progress;
    std::stop_source stop; // the caller's stop, or a failure in any worker
    std::atomic<std::size_t> next {0};
    std::atomic<std::size_t> done {0};
    std::mutex progressMutex;
    std::vector<LayoutResult> all; // sized only when every result is kept; each worker writes its own chunks
    std::mutex failureMutex;
    std::exception_ptr failure; // the first exception of any worker

    void fail(std::exception_ptr exception)
    {
        std::lock_guard lock(failureMutex);
        if (!failure)
            failure = std::move(exception);
        stop.request_stop();
    }
};

void evaluateChunk(SharedState& state, SweepReducer& reducer, std::size_t begin, std::vector<LayoutResult>& batch)
{
    const std::size_t end = std::min(state.candidates.size(), begin + kChunk);
    for (std::size_t i = begin; i < end; ++i) {
        batch.push_back(state.evaluator.evaluate(state.candidates[i]));
        reducer.add(batch.back(), i);
    }
    if (!state.all.empty())
        std::copy(batch.begin(), batch.end(), state.all.begin() + long(begin));
}

void report(SharedState& state, const std::vector<LayoutResult>& batch)
{
    if (!state.progress) {
        state.done.fetch_add(batch.size());
        return;
    }
    // Count under the lock that serialises the reports, so the fraction each report carries never falls
    // behind an earlier one (two workers finishing together could otherwise report out of order).
    std::lock_guard lock(state.progressMutex);
    const std::size_t done = state.done.fetch_add(batch.size()) + batch.size();
    state.progress(double(done) / double(state.candidates.size()), batch);
}

void work(SharedState& state, SweepReducer& reducer)
{
    try {
        std::vector<LayoutResult> batch; // reused: the sweep's memory does not grow with the space
        batch.reserve(kChunk);
        while (!state.stop.stop_requested()) {
            const std::size_t begin = state.next.fetch_add(kChunk);
            if (begin >= state.candidates.size())
                return;
            batch.clear();
            evaluateChunk(state, reducer, begin, batch);
            report(state, batch);
        }
    } catch (...) {
        // An exception leaving a std::thread would terminate the process: hand it to the caller instead.
        state.fail(std::current_exception());
    }
}

unsigned threadCount(const SweepSpec& spec, std::size_t candidates)
{
    const unsigned wanted
        = spec.threads > 0 ? unsigned(spec.threads) : std::max(1u, std::thread::hardware_concurrency());
    return unsigned(std::min<std::size_t>(wanted, candidates / kChunk + 1));
}

/// Runs the workers, each with its own reducer, and merges the reducers in worker order.
SweepReducer reduceInParallel(SharedState& state, const SweepSpec& spec)
{
    std::vector<SweepReducer> reducers(
        threadCount(spec, state.candidates.size()), SweepReducer(spec.objective, spec.topCount));
    {
        std::vector<std::jthread> workers;
        for (std::size_t i = 1; i < reducers.size(); ++i)
            workers.emplace_back([&state, &reducer = reducers[i]] { work(state, reducer); });
        work(state, reducers.front());
    }
    if (state.failure)
        std::rethrow_exception(state.failure);
    for (std::size_t i = 1; i < reducers.size(); ++i)
        reducers.front().merge(reducers[i]);
    return std::move(reducers.front());
}

} // namespace

SweepResult runSweep(const Scenario& scenario, const SweepSpec& spec, const LayoutEvaluator& evaluator,
    std::stop_token stop, const SweepProgress& progress)
{
    const auto started = std::chrono::steady_clock::now();
    const auto candidates = enumerateLayouts(scenario, spec.constraints);
    SharedState state(candidates, evaluator, progress);
    if (spec.keepAll)
        state.all.resize(candidates.size());
    const std::stop_callback forwardStop(stop, [&state] { state.stop.request_stop(); });
    const SweepReducer reducer = reduceInParallel(state, spec);
    SweepResult result;
    result.cancelled = stop.stop_requested();
    const SweepCounts& counts = reducer.counts();
    result.summary.evaluated = counts.evaluated;
    result.summary.valid = counts.valid;
    result.summary.fitting = counts.fitting;
    result.top = reducer.top();
    result.pareto = reducer.pareto();
    // A taken chunk is always finished (stop is checked between chunks), so the first `evaluated` are complete.
    state.all.resize(spec.keepAll ? std::size_t(counts.evaluated) : 0);
    result.all = std::move(state.all);
    result.summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    result.summary.layoutsPerS = result.summary.seconds > 0 ? double(counts.evaluated) / result.summary.seconds : 0;
    return result;
}

} // namespace clusterplanner::core
