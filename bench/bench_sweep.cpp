// SPDX-License-Identifier: GPL-3.0-or-later
// Sweep speed: full layout evaluations per second on one core (layout check + memory + step time), the full
// GPT-3 175B sweep on 1,024 A100-80GB (issue 4's target: <= 2 s on 2 cores), and Llama 3 70B on 1,024 H100
// (time to the first results and to the whole sweep).
#include "core/model/modelpresets.h"
#include "core/sweep/layoutevaluator.h"
#include "core/sweep/sweep.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>

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

} // namespace

int main(int argc, char** argv)
{
    // Usage: bench_sweep [threads] [--profile]   (--profile: one short evaluation loop, for callgrind)
    const int threads = argc > 1 ? std::atoi(argv[1]) : 2;
    if (argc > 2 && std::string(argv[2]) == "--profile") {
        evaluationRate(gpt3On1024A100(), 0.0);
        return 0;
    }
    evaluationRate(gpt3On1024A100(), 1.0);
    evaluationRate(llama70bOn1024H100(), 1.0);
    fullSweep("(b) GPT-3 175B, 1,024 A100-80GB, batch 1,536, every option", gpt3On1024A100(), threads);
    fullSweep("(b') the same, Megatron's options only", gpt3On1024A100(Framework::Megatron), threads);
    fullSweep("(c) Llama 3 70B, 1,024 H100, batch 1,024", llama70bOn1024H100(), threads);
    return 0;
}
