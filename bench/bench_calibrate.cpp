// SPDX-License-Identifier: GPL-3.0-or-later
// Calibration report: step-time model vs the development set (shared/validation), per case and summarised.
// Usage: bench_calibrate [efficiency.json]   (default: the built-in data/efficiency.json)
#include "core/io/validationcase.h"
#include "core/model/enumnames.h"
#include "core/model/gpucatalog.h"
#include "core/perf/steptime.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

using namespace clusterplanner::core;
using namespace clusterplanner::core::perf;

namespace {

std::string readFile(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
        throw std::runtime_error("cannot read " + path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

/// Stand-in for the sweep's choice of unknown layout fields: TP inside the node, then the fewest pipeline stages
/// (dividing the layers) that keep ~18 B/param of model state under half of the GPU memory.
void chooseLayout(ValidationCase& c, const GpuSpec& gpu)
{
    auto& l = c.scenario.training.layout;
    const auto& m = c.scenario.model;
    const int gpus = c.scenario.cluster.gpuCount;
    if (!c.unknown.tp && !c.unknown.pp)
        return;
    if (c.unknown.tp)
        l.tp = std::min({8, c.scenario.cluster.gpusPerNode, gpus});
    while (m.heads % l.tp != 0)
        l.tp /= 2;
    const double params = countParameters(m).total;
    const int rest = gpus / l.tp;
    const int dpFixed = c.unknown.dp ? 0 : l.dp;
    for (int p = 1; p <= rest; ++p) {
        if (rest % p != 0 || m.layers % p != 0 || (dpFixed && p * dpFixed != rest))
            continue;
        if (!dpFixed && 18.0 * params / (l.tp * p) > 0.5 * gpu.memoryBytes())
            continue;
        l.pp = p;
        l.dp = rest / p;
        break;
    }
    l.sequenceParallel = l.tp > 1 && c.scenario.training.framework == Framework::Megatron;
}

/// Unknown recompute: none when the 1F1B activations (K22 Table 2 without the s² term: flash attention) and the
/// model states fit in 85 % of memory, else full.
void chooseRecompute(ValidationCase& c, const GpuSpec& gpu)
{
    if (!c.unknown.recompute)
        return;
    const auto& m = c.scenario.model;
    auto& t = c.scenario.training;
    const auto& l = t.layout;
    const double sbh = double(m.seqLen) * t.microBatch * m.hidden / l.cp;
    const double perLayer = l.sequenceParallel ? 34.0 * sbh / l.tp : sbh * (10.0 + 24.0 / l.tp);
    const bool sharded = t.distributedOptimizer || t.zeroStage >= 1;
    const double bytesPerParam = sharded ? 6.0 + 12.0 / (l.dp * l.cp) : 18.0;
    const double states = bytesPerParam * countParameters(m).total / (l.tp * l.pp);
    t.recompute = m.layers * perLayer + states <= 0.85 * gpu.memoryBytes() ? Recompute::None : Recompute::Full;
}

/// Unknown virtual stages with a pipeline: the interleaving depth the sweep would pick (fastest of those the
/// layer count allows).
StepTimeResult bestVirtualStages(ValidationCase& c, const GpuSpec& gpu, const EfficiencyParams& efficiency)
{
    auto& t = c.scenario.training;
    StepTimeResult best = estimateStepTime(c.scenario, gpu, efficiency);
    if (!c.unknown.virtualStages || t.layout.pp <= 1)
        return best;
    const Scenario original = c.scenario;
    Scenario chosen = original;
    for (int v = 2; v <= 8; ++v) {
        Scenario trial = original;
        trial.training.layout.virtualStages = v;
        trial.training.schedule = PipelineSchedule::Interleaved;
        if (trial.model.layers % (trial.training.layout.pp * v) != 0)
            continue;
        const auto r = estimateStepTime(trial, gpu, efficiency);
        if (r.valid && (!best.valid || r.stepTimeS < best.stepTimeS)) {
            best = r;
            chosen = trial;
        }
    }
    c.scenario = chosen;
    return best;
}

struct Errors
{
    std::vector<double> values;
    void add(double predicted, double truth) { values.push_back(std::abs(predicted / truth - 1)); }
    double quantile(double q) const
    {
        if (values.empty())
            return NAN;
        auto sorted = values;
        std::sort(sorted.begin(), sorted.end());
        const double pos = q * (sorted.size() - 1);
        const auto lo = std::size_t(std::floor(pos));
        const auto hi = std::min(sorted.size() - 1, lo + 1);
        return sorted[lo] + (pos - lo) * (sorted[hi] - sorted[lo]);
    }
};

} // namespace

int main(int argc, char** argv)
{
    const std::string dir = std::string(CLUSTERPLANNER_SHARED_DIR) + "/validation/";
    auto cases = readValidationCases(readFile(dir + "dev_cases.json"));
    std::map<std::string, ValidationTruth> truths;
    for (auto& t : readValidationTruths(readFile(dir + "dev_truth.json")))
        truths[t.id] = t;
    const EfficiencyTable table = argc > 1 ? EfficiencyTable::fromJson(readFile(argv[1])) : EfficiencyTable::builtin();
    Errors tokens, step, mfu, all;
    std::printf("%-52s %6s %5s %11s %11s %7s %6s %6s %7s\n", "case", "layout", "rc", "tok/s/gpu", "truth", "err", "mfu",
        "truth", "err");
    for (auto& c : cases) {
        const GpuSpec* gpu = GpuCatalog::builtin().find(c.scenario.cluster.gpuId);
        if (!gpu)
            continue;
        chooseLayout(c, *gpu);
        chooseRecompute(c, *gpu);
        const auto r = bestVirtualStages(c, *gpu, table.forGpu(gpu->id));
        const auto& t = truths[c.id];
        const auto& l = c.scenario.training.layout;
        char layout[32];
        std::snprintf(layout, sizeof layout, "%dx%dx%d", l.tp, l.pp, l.dp);
        if (!r.valid) {
            std::printf("%-52s %s invalid: %s\n", c.id.c_str(), layout, r.error);
            continue;
        }
        const double tokTruth = t.tokensPerSPerGpu.value_or(NAN);
        const double mfuTruth = t.mfu.value_or(NAN);
        if (t.tokensPerSPerGpu) {
            tokens.add(r.tokensPerSPerGpu, tokTruth);
            all.add(r.tokensPerSPerGpu, tokTruth);
        } else if (t.mfu) {
            all.add(r.mfu, mfuTruth); // no throughput published: MFU stands in for it
        }
        if (t.stepTimeS)
            step.add(r.stepTimeS, *t.stepTimeS);
        if (t.mfu)
            mfu.add(r.mfu, mfuTruth);
        std::printf("%-52s %6s %5s %11.1f %11.1f %+6.1f%% %6.3f %6.3f %+6.1f%%\n", c.id.substr(0, 52).c_str(), layout,
            std::string(toString(c.scenario.training.recompute)).substr(0, 5).c_str(), r.tokensPerSPerGpu, tokTruth,
            100 * (r.tokensPerSPerGpu / tokTruth - 1), r.mfu, mfuTruth, 100 * (r.mfu / mfuTruth - 1));
    }
    auto line = [](const char* name, const Errors& e) {
        std::printf("%-34s n=%2zu  median %5.1f %%  p90 %5.1f %%  max %5.1f %%\n", name, e.values.size(),
            100 * e.quantile(0.5), 100 * e.quantile(0.9), 100 * e.quantile(1.0));
    };
    std::printf("\nsummary (absolute relative error)\n");
    line("tokens/s per GPU", tokens);
    line("step time", step);
    line("MFU", mfu);
    line("throughput (tokens/s, else MFU)", all);
    return 0;
}
