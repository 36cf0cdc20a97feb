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

// A worker thread is started per this many candidates at most: below, starting it costs more than it saves.
constexpr std::size_t kCandidatesPerThread = 2048;

struct SharedState
{
    SharedState(const LayoutSpace& s, const LayoutEvaluator& e, const SweepProgress& p)
        : space(s)
        , evaluator(e)
        , progress(p)
    { }

    const LayoutSpace& space; // work items are its groups (a few hundred candidates each)
    const LayoutEvaluator& evaluator;
    const SweepProgress& progress;
    std::stop_source stop; // the caller's stop, or a failure in any worker
    std::atomic<std::size_t> nextGroup {0};
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

/// Buffers of one worker, reused from group to group so that the sweep's memory does not grow with the space.
struct WorkerBuffers
{
    std::vector<LayoutCandidate> candidates;
    std::vector<LayoutResult> batch;
};

void evaluateGroup(SharedState& state, SweepReducer& reducer, std::size_t group, WorkerBuffers& buffers)
{
    buffers.candidates.clear();
    buffers.batch.clear();
    state.space.expand(group, buffers.candidates);
    const std::size_t offset = state.space.groupOffset(group);
    for (std::size_t i = 0; i < buffers.candidates.size(); ++i) {
        buffers.batch.push_back(state.evaluator.evaluate(buffers.candidates[i]));
        reducer.add(buffers.batch.back(), offset + i);
    }
    if (!state.all.empty())
        std::copy(buffers.batch.begin(), buffers.batch.end(), state.all.begin() + long(offset));
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
    state.progress(double(done) / double(state.space.size()), batch);
}

void work(SharedState& state, SweepReducer& reducer)
{
    try {
        WorkerBuffers buffers;
        while (!state.stop.stop_requested()) {
            const std::size_t group = state.nextGroup.fetch_add(1);
            if (group >= state.space.groupCount())
                return;
            evaluateGroup(state, reducer, group, buffers);
            report(state, buffers.batch);
        }
    } catch (...) {
        // An exception leaving a std::thread would terminate the process: hand it to the caller instead.
        state.fail(std::current_exception());
    }
}

std::size_t threadCount(const SweepSpec& spec, const LayoutSpace& space)
{
    const unsigned wanted
        = spec.threads > 0 ? unsigned(spec.threads) : std::max(1u, std::thread::hardware_concurrency());
    return std::min(
        {std::size_t(wanted), space.size() / kCandidatesPerThread + 1, std::max<std::size_t>(1, space.groupCount())});
}

/// Runs the workers, each with its own reducer, and merges the reducers in worker order.
SweepReducer reduceInParallel(SharedState& state, const SweepSpec& spec)
{
    std::vector<SweepReducer> reducers(threadCount(spec, state.space), SweepReducer(spec.objective, spec.topCount));
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
    const LayoutSpace space(scenario, spec.constraints);
    SharedState state(space, evaluator, progress);
    if (spec.keepAll)
        state.all.resize(space.size());
    const std::stop_callback forwardStop(stop, [&state] { state.stop.request_stop(); });
    const SweepReducer reducer = reduceInParallel(state, spec);
    SweepResult result;
    result.cancelled = stop.stop_requested();
    const SweepCounts& counts = reducer.counts();
    result.summary.evaluated = counts.evaluated;
    result.summary.valid = counts.valid;
    result.summary.fitting = counts.fitting;
    result.summary.problemsSeen = counts.problemsSeen;
    result.summary.leastOverflowGiB = counts.leastOverflowGiB;
    result.summary.leastOverflowCapacityGiB = counts.leastOverflowCapacityGiB;
    result.top = reducer.top();
    result.pareto = reducer.pareto();
    // A taken group is always finished (stop is checked between groups), so the first `evaluated` are complete.
    state.all.resize(spec.keepAll ? std::size_t(counts.evaluated) : 0);
    result.all = std::move(state.all);
    result.summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    result.summary.layoutsPerS = result.summary.seconds > 0 ? double(counts.evaluated) / result.summary.seconds : 0;
    return result;
}

} // namespace clusterplanner::core
