// SPDX-License-Identifier: GPL-3.0-or-later
// Synthetic job streams: Poisson arrivals, a GPU-count mix, Philly-like run times, several users; seeded.
#pragma once

#include "core/sched/job.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace clusterplanner::core::sched {

/// Lognormal fit of ln(max(runtime, 1 s)) over the 83,154 Philly run times in philly_runtime.csv (alibaba/
/// clusterdata `cluster-trace-gpu-v2020/analysis`, from msr-fiddle/philly-traces): μ = 6.8457, σ = 2.1817
/// (median ≈ 940 s; the data's median is 1,186 s, mean 14,613 s). Used when no run-time file is given.
inline constexpr double kPhillyLogMean = 6.8457;
inline constexpr double kPhillyLogSigma = 2.1817;

struct SyntheticWorkloadSpec
{
    int jobs = 1000;
    std::uint64_t seed = 1;
    double arrivalsPerHour = 60; ///< Poisson rate
    /// (GPUs, weight); weights need not sum to 1.
    std::vector<std::pair<int, double>> gpuMix {{1, 0.6}, {2, 0.1}, {4, 0.12}, {8, 0.15}, {16, 0.02}, {32, 0.01}};
    int users = 16;
    /// One-column CSV of run times in seconds with a header (philly_runtime.csv); sampled empirically. Empty or
    /// unreadable: the lognormal fit above.
    std::string runtimeCsvPath;
    double minDurationS = 1;
    double maxDurationS = 30 * 86400.0;
    /// Estimates are duration × (1 + U[0, overestimate]): users over-estimate (Mu'alem & Feitelson 2001).
    double overestimate = 1.0;
};

/// Deterministic for a spec (own PRNG streams, no std:: distributions, so results match across standard
/// libraries). Jobs come sorted by submit time with ids 0..jobs-1.
Workload generateWorkload(const SyntheticWorkloadSpec& spec);

/// Reads the run-time column; returns an empty list when the file cannot be read or holds no number.
std::vector<double> readRuntimeSamples(const std::string& path);

} // namespace clusterplanner::core::sched
