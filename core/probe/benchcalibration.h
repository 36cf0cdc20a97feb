// SPDX-License-Identifier: GPL-3.0-or-later
// Measured rates turned into efficiency parameters of the time model (core/perf/efficiencyparams.h) for the
// probed GPU's family: what the user may save as an override, see, and revert (methods-probe.md §10.4).
#pragma once

#include "core/model/gpucatalog.h"
#include "core/probe/microbench.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace clusterplanner::core::probe {

/// {"hbm_fraction": best copy GB/s / datasheet HBM, "gemm_peak_fraction": mma TFLOP/s / dense fp16 peak, with
/// "matmul_reference_fraction": 0 beside it since the GPU's own rate needs no carrying over}, each
/// only when its benchmark ran and the catalog has the peak; values clamped to (0, 1]. The keys are those of
/// data/efficiency.json, so the object feeds perf::withOverrides().
nlohmann::json efficiencyOverrides(const std::vector<BenchResult>& results, const GpuSpec& spec);

/// The efficiency family a catalog GPU belongs to (the key an override is saved under) and the calibrated values
/// an override replaces, so the panel can show both without reaching into the time model itself.
struct CalibratedEfficiency
{
    std::string family;
    double hbmFraction = 0;
    double gemmPeakFraction = 0;
};
CalibratedEfficiency calibratedEfficiency(const std::string& gpuId);

} // namespace clusterplanner::core::probe
