// SPDX-License-Identifier: GPL-3.0-or-later
// Evaluations per second of estimateStepTime on one core (GPT-3 175B on 1,024 A100-80GB, varied layouts).
#include "core/model/gpucatalog.h"
#include "core/model/modelpresets.h"
#include "core/perf/steptime.h"

#include <chrono>
#include <cstdio>
#include <vector>

using namespace clusterplanner::core;
using namespace clusterplanner::core::perf;

namespace {

Scenario gpt3Scenario()
{
    Scenario s;
    s.model = gpt3Padded();
    s.cluster.gpuId = "A100-SXM-80GB";
    s.cluster.gpuCount = 1024;
    s.training.globalBatch = 1536;
    s.training.recompute = Recompute::Selective;
    return s;
}

/// Layouts over (t, p, b, schedule): every one the model accepts on 1,024 GPUs.
std::vector<TrainingConfig> layouts(const Scenario& s)
{
    std::vector<TrainingConfig> list;
    for (int t : {1, 2, 4, 8})
        for (int p : {1, 2, 4, 8, 16, 32})
            for (int b : {1, 2, 4})
                for (int v : {1, 2}) {
                    TrainingConfig tr = s.training;
                    tr.layout.tp = t;
                    tr.layout.pp = p;
                    tr.layout.dp = 1024 / (t * p);
                    tr.layout.virtualStages = v;
                    tr.schedule = v > 1 ? PipelineSchedule::Interleaved : PipelineSchedule::OneFOneB;
                    tr.microBatch = b;
                    list.push_back(tr);
                }
    return list;
}

} // namespace

int main()
{
    const Scenario s = gpt3Scenario();
    const GpuSpec& gpu = *GpuCatalog::builtin().find(s.cluster.gpuId);
    const StepTimeContext context = makeStepTimeContext(s, gpu, EfficiencyTable::builtin().forGpu(gpu.id));
    const auto list = layouts(s);
    int valid = 0;
    double checksum = 0;
    const auto start = std::chrono::steady_clock::now();
    long long evaluations = 0;
    double seconds = 0;
    while (seconds < 2.0) {
        for (const auto& tr : list) {
            const StepTimeResult r = estimateStepTime(context, tr);
            valid += r.valid;
            checksum += r.stepTimeS;
        }
        evaluations += static_cast<long long>(list.size());
        seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    std::printf("estimateStepTime: %lld evaluations in %.2f s on one thread = %.0f evaluations/s "
                "(%d layouts, %.0f%% valid; checksum %.3g)\n",
        evaluations, seconds, evaluations / seconds, int(list.size()), 100.0 * valid / evaluations, checksum);
    std::vector<TrainingConfig> validOnly;
    for (const auto& tr : list)
        if (estimateStepTime(context, tr).valid)
            validOnly.push_back(tr);
    long long validEvaluations = 0;
    const auto validStart = std::chrono::steady_clock::now();
    for (seconds = 0; seconds < 1.0;) {
        for (const auto& tr : validOnly)
            checksum += estimateStepTime(context, tr).stepTimeS;
        validEvaluations += static_cast<long long>(validOnly.size());
        seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - validStart).count();
    }
    std::printf("valid layouts only (%d): %.0f evaluations/s\n", int(validOnly.size()), validEvaluations / seconds);
    TrainingConfig reference = s.training;
    reference.layout = ParallelLayout {16, 8, 8, 1, 1, 1, true};
    const auto r = estimateStepTime(context, reference);
    std::printf(
        "GPT-3 DP16 x TP8 x PP8, b 1, selective: step %.2f s, %.0f tokens/s, MFU %.3f, 300e9 tokens in %.1f days\n",
        r.stepTimeS, r.tokensPerS, r.mfu, 300e9 / r.tokensPerS / 86400);
    return 0;
}
