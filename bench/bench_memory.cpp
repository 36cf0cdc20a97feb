// SPDX-License-Identifier: GPL-3.0-or-later
// Nanoseconds per memory evaluation of a full layout (all stages' terms, fit) for Llama 3 8B and a 175B GPT.
#include "core/memory/memorymodel.h"
#include "core/model/layoutcheck.h"
#include "core/model/modelpresets.h"

#include <chrono>
#include <cstdio>

using namespace clusterplanner::core;

namespace {

double nsPerEvaluation(const MemoryContext& ctx, TrainingConfig t, int gpus)
{
    constexpr int kRounds = 2'000'000;
    volatile double sink = 0;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < kRounds; ++i) {
        t.microBatch = 1 + (i & 3); // vary the input so nothing is hoisted out of the loop
        sink = sink + double(checkLayout(ctx.model, t, gpus)) + evaluateMemory(ctx, t).peakAllocatedBytes;
    }
    const auto elapsed = std::chrono::steady_clock::now() - start;
    return std::chrono::duration<double, std::nano>(elapsed).count() / kRounds;
}

} // namespace

int main()
{
    const GpuSpec* h100 = GpuCatalog::builtin().find("H100-SXM-80GB");
    TrainingConfig t;
    t.layout = {16, 4, 4, 1, 1, 1, true};
    t.globalBatch = 512;
    t.recompute = Recompute::Selective;
    const MemoryContext llama = makeMemoryContext(ModelConfig {}, h100);
    std::printf(
        "memory evaluation, Llama 3 8B, DP16 TP4 PP4 (check + evaluate): %.1f ns\n", nsPerEvaluation(llama, t, 256));

    const ModelConfig gpt = gpt3Padded();
    t.layout = {16, 8, 8, 1, 1, 3, true};
    t.schedule = PipelineSchedule::Interleaved;
    const MemoryContext ctx = makeMemoryContext(gpt, h100);
    std::printf(
        "memory evaluation, GPT-3 175B, DP16 TP8 PP8 v3 (check + evaluate): %.1f ns\n", nsPerEvaluation(ctx, t, 1024));
    return 0;
}
