// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/probe/benchcalibration.h"

#include "core/perf/efficiencyparams.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace clusterplanner::core::probe {

namespace {

double bestRate(const std::vector<BenchResult>& results, std::initializer_list<const char*> names)
{
    double best = 0;
    for (const auto& r : results)
        for (const char* name : names)
            if (r.ok && r.name == name)
                best = std::max(best, r.rate);
    return best;
}

} // namespace

nlohmann::json efficiencyOverrides(const std::vector<BenchResult>& results, const GpuSpec& spec)
{
    auto overrides = nlohmann::json::object();
    // Both copies read and write each byte, as the model's memory-bound ops do; the faster one is the achievable.
    const double copyGBs = bestRate(results, {"d2d_memcpy", "copy_kernel"});
    if (copyGBs > 0 && spec.hbmTBs > 0)
        overrides["hbm_fraction"] = std::min(1.0, copyGBs / (spec.hbmTBs * 1000));
    // mma.sync from registers has no memory traffic: an upper bound of what a large GEMM reaches.
    const double mmaTflops = bestRate(results, {"mma_fp16"});
    const auto peak = spec.fp16Tflops ? spec.fp16Tflops : spec.bf16Tflops;
    if (mmaTflops > 0 && peak && *peak > 0) {
        overrides["gemm_peak_fraction"] = std::min(1.0, mmaTflops / *peak);
        // Measured on this very GPU: no carrying over by published matmul shares (docs/methods-time.md §4.31).
        overrides["matmul_reference_fraction"] = 0.0;
    }
    return overrides;
}

CalibratedEfficiency calibratedEfficiency(const std::string& gpuId)
{
    const auto& params = perf::EfficiencyTable::builtin().forGpu(gpuId);
    return {params.family, params.hbmFraction, params.gemmPeakFraction};
}

} // namespace clusterplanner::core::probe
