// SPDX-License-Identifier: GPL-3.0-or-later
// Sweep speed: full layout evaluations per second on one core (layout check + memory + step time), the full
// GPT-3 175B sweep on 1,024 A100-80GB (issue 4's target: <= 2 s on 2 cores), and Llama 3 70B on 1,024 H100
// (time to the first results and to the whole sweep). Then the sweep end to end as the command line and the GUI
// run it (issue 11's target: >= 1 M layouts/s per core, >= 1.8x on 2 threads): the same streaming reducers, the
// GUI path also copying every batch out as the SweepRunner's worker does.
#include "core/io/scenariojson.h"
#include "core/model/modelpresets.h"
#include "core/sweep/layoutevaluator.h"
#include "core/sweep/sweep.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

using namespace clusterplanner::core;

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

/// CPU seconds of this thread (or the whole process): the machine is shared, so wall time overstates cost.
double cpuSeconds(clockid_t clock)
{
    timespec t {};
    clock_gettime(clock, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

/// framework: Other offers every schedule, recompute mode and ZeRO stage (issue 4's "all dimensions free");
/// Megatron only what Megatron-LM runs (data/frameworks.json).
Scenario gpt3On1024A100(Framework framework = Framework::Other)
{
    Scenario s = defaultScenario();
    s.model = gpt3Padded();
    s.cluster.gpuId = "A100-SXM-80GB";
    s.cluster.gpuCount = 1024;
    s.cluster.gpusPerNode = 8;
    s.training.globalBatch = 1536;
    s.training.framework = framework;
    return s;
}

Scenario llama70bOn1024H100()
{
    Scenario s = defaultScenario();
    s.model = modelPreset("Llama 3 70B");
    s.cluster.gpuId = "H100-SXM-80GB";
    s.cluster.gpuCount = 1024;
    s.cluster.gpusPerNode = 8;
    s.training.globalBatch = 1024;
    s.training.framework = Framework::Megatron;
    return s;
}

/// Single-thread evaluation rate over every candidate of the scenario's full space (repeated to ~1 s).
void evaluationRate(const Scenario& s, double minSeconds)
{
    const TrainingLayoutEvaluator evaluator(s);
    const auto candidates = enumerateLayouts(s, {});
    long long evaluated = 0, valid = 0;
    const auto start = Clock::now();
    const double cpuStart = cpuSeconds(CLOCK_THREAD_CPUTIME_ID);
    do {
        for (const auto& c : candidates) {
            const LayoutResult r = evaluator.evaluate(c);
            valid += r.valid;
        }
        evaluated += static_cast<long long>(candidates.size());
    } while (secondsSince(start) < minSeconds);
    const double seconds = secondsSince(start);
    const double cpu = cpuSeconds(CLOCK_THREAD_CPUTIME_ID) - cpuStart;
    std::printf("(a) %s: %zu candidates (%.0f %% valid): %.0f full evaluations per CPU-second on one thread (%.0f ns "
                "each); %.0f per wall second\n",
        s.model.name.c_str(), candidates.size(), 100.0 * double(valid) / double(evaluated), evaluated / cpu,
        1e9 * cpu / double(evaluated), evaluated / seconds);
}

void fullSweep(const char* label, const Scenario& s, int threads)
{
    const TrainingLayoutEvaluator evaluator(s);
    SweepSpec spec;
    spec.threads = threads;
    spec.keepAll = false;
    const auto start = Clock::now();
    const double cpuStart = cpuSeconds(CLOCK_PROCESS_CPUTIME_ID);
    double firstS = -1;
    long long firstCount = 0;
    const SweepProgress progress = [&](double, std::span<const LayoutResult> batch) {
        if (firstS < 0) {
            firstS = secondsSince(start);
            firstCount = static_cast<long long>(batch.size());
        }
    };
    const SweepResult r = runSweep(s, spec, evaluator, {}, progress);
    const double wall = secondsSince(start);
    const double cpu = cpuSeconds(CLOCK_PROCESS_CPUTIME_ID) - cpuStart;
    std::printf("%s: %lld evaluated, %lld valid, %lld fit; %.3f s wall on %d threads (%.0f layouts/s), %.3f CPU-s; "
                "first %lld results after %.4f s\n",
        label, r.summary.evaluated, r.summary.valid, r.summary.fitting, wall, threads, r.summary.evaluated / wall, cpu,
        firstCount, firstS);
    if (!r.top.empty()) {
        const LayoutResult& b = r.top.front();
        const ParallelLayout& l = b.candidate.layout;
        std::printf("    best: dp %d tp %d pp %d cp %d v %d b %d, %.0f tokens/s/GPU, MFU %.3f, %.1f GiB\n", l.dp, l.tp,
            l.pp, l.cp, l.virtualStages, b.candidate.microBatch, b.tokensPerSPerGpu, b.mfu, b.peakMemoryGiB);
    }
}

enum class Path { Cli, Gui };

/// What the caller does with each streamed batch: the command prints a line per tenth; the SweepRunner's worker
/// copies the batch into the block it posts to the GUI thread every 40 ms (docs/methods-search.md §5.1).
SweepProgress pathProgress(Path path, std::vector<LayoutResult>& pending, Clock::time_point& lastFlush)
{
    if (path == Path::Cli)
        return [tenths = 0](double fraction, std::span<const LayoutResult>) mutable { tenths = int(fraction * 10); };
    return [&pending, &lastFlush](double, std::span<const LayoutResult> batch) {
        pending.insert(pending.end(), batch.begin(), batch.end());
        if (secondsSince(lastFlush) >= 0.040) {
            std::vector<LayoutResult>().swap(pending); // handed on and dropped, as the runner does
            lastFlush = Clock::now();
        }
    };
}

struct PathFigures
{
    double bestWallS = 1e9, worstWallS = 0, cpuS = 0;
    long long evaluated = 0;
};

PathFigures timePath(const Scenario& s, const TrainingLayoutEvaluator& evaluator, Path path, int threads, int runs)
{
    PathFigures f;
    for (int run = 0; run < runs; ++run) {
        std::vector<LayoutResult> pending;
        auto lastFlush = Clock::now();
        SweepSpec spec;
        spec.threads = threads;
        const auto start = Clock::now();
        const double cpuStart = cpuSeconds(CLOCK_PROCESS_CPUTIME_ID);
        const SweepResult r = runSweep(s, spec, evaluator, {}, pathProgress(path, pending, lastFlush));
        const double wall = secondsSince(start);
        f.bestWallS = std::min(f.bestWallS, wall);
        f.worstWallS = std::max(f.worstWallS, wall);
        f.cpuS += cpuSeconds(CLOCK_PROCESS_CPUTIME_ID) - cpuStart;
        f.evaluated = r.summary.evaluated;
    }
    f.cpuS /= runs;
    return f;
}

/// End to end (enumeration, evaluation, reduction, streaming) on 1 and 2 threads; best and worst of `runs`.
void endToEnd(const char* label, Path path, int runs)
{
    const Scenario s = gpt3On1024A100();
    const TrainingLayoutEvaluator evaluator(s);
    const PathFigures one = timePath(s, evaluator, path, 1, runs);
    const PathFigures two = timePath(s, evaluator, path, 2, runs);
    std::printf("(d) %s path, GPT-3 175B / 1,024 A100, %lld layouts, best..worst of %d:\n"
                "    1 thread  %.4f..%.4f s wall = %.2f..%.2f M layouts/s per core (%.2f M per CPU-second)\n"
                "    2 threads %.4f..%.4f s wall = %.2f..%.2f M layouts/s per core; speed-up %.2f (best/best)\n",
        label, one.evaluated, runs, one.bestWallS, one.worstWallS, one.evaluated / one.worstWallS / 1e6,
        one.evaluated / one.bestWallS / 1e6, one.evaluated / one.cpuS / 1e6, two.bestWallS, two.worstWallS,
        two.evaluated / two.worstWallS / 2e6, two.evaluated / two.bestWallS / 2e6, one.bestWallS / two.bestWallS);
}

} // namespace

int main(int argc, char** argv)
{
    // Usage: bench_sweep [threads] [--profile | --end-to-end | --write-case]
    // (--profile: one short evaluation loop, for callgrind; --end-to-end: only the (d) figures; --write-case: the
    // GPT-3 case as a scenario file on stdout, the one bench/gpt3-175b-1024-a100-all-free.cplan.json holds for
    // timing `clusterplanner sweep --case` on it)
    const int threads = argc > 1 ? std::atoi(argv[1]) : 2;
    const std::string mode = argc > 2 ? argv[2] : "";
    if (mode == "--profile") {
        evaluationRate(gpt3On1024A100(), 0.0);
        return 0;
    }
    if (mode == "--write-case") {
        Scenario s = gpt3On1024A100();
        s.name = "GPT-3 175B on 1,024 A100, every layout dimension free";
        s.notes = "bench_sweep's case (b): framework other, so every schedule, recompute mode and ZeRO stage is swept.";
        std::printf("%s\n", writeScenarioFile(s).c_str());
        return 0;
    }
    if (mode == "--end-to-end") {
        endToEnd("CLI", Path::Cli, 7);
        endToEnd("GUI", Path::Gui, 7);
        return 0;
    }
    evaluationRate(gpt3On1024A100(), 1.0);
    evaluationRate(llama70bOn1024H100(), 1.0);
    fullSweep("(b) GPT-3 175B, 1,024 A100-80GB, batch 1,536, every option", gpt3On1024A100(), threads);
    fullSweep("(b') the same, Megatron's options only", gpt3On1024A100(Framework::Megatron), threads);
    fullSweep("(c) Llama 3 70B, 1,024 H100, batch 1,024", llama70bOn1024H100(), threads);
    endToEnd("CLI", Path::Cli, 7);
    endToEnd("GUI", Path::Gui, 7);
    return 0;
}
