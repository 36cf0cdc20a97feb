// SPDX-License-Identifier: GPL-3.0-or-later
// Measured rates turned into efficiency parameters of the time model (core/perf/efficiencyparams.h) for the
// probed GPU's family: what the user may save as an override, see, and revert (methods-probe.md §10.4).
#pragma once

#include "core/model/gpucatalog.h"
#include "core/probe/microbench.h"

#include <nlohmann/json_fwd.hpp>

#include <vector>

namespace clusterplanner::core::probe {

/// {"hbm_fraction": best copy GB/s / datasheet HBM, "gemm_peak_fraction": mma TFLOP/s / dense fp16 peak}, each
/// only when its benchmark ran and the catalog has the peak; values clamped to (0, 1]. The keys are those of
/// data/efficiency.json, so the object feeds perf::withOverrides().
nlohmann::json efficiencyOverrides(const std::vector<BenchResult>& results, const GpuSpec& spec);

} // namespace clusterplanner::core::probe
