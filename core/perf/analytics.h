// SPDX-License-Identifier: GPL-3.0-or-later
// Plot-ready analytics the seeds ask for: scaling efficiency, Amdahl's law and its fit, α–β message times.
#pragma once

#include "core/perf/collectives.h"

#include <vector>

namespace clusterplanner::core::perf {

/// Amdahl speed-up on n workers with parallel fraction pPar: 1/((1 − p) + p/n) (docs/methods-time.md §4.5, seed S0).
double amdahlSpeedup(double pPar, double n);

/// Scaling efficiency E(n) = T₁/(n·Tₙ) for each (gpuCounts[i], stepTimesS[i]) of a fixed total workload. When
/// the smallest count n₀ is not 1, T₁ is taken as n₀·T_{n₀} (perfect scaling below the first point).
/// Throws std::invalid_argument when the lists differ in length, are empty, or hold non-positive values.
std::vector<double> scalingEfficiency(const std::vector<int>& gpuCounts, const std::vector<double>& stepTimesS);

/// Least-squares fit of the parallel fraction p to measured speed-ups, on Amdahl's linear form
/// 1/S − 1 = p·(1/n − 1); the result is clamped to [0, 1]. Points with n = 1 carry no information.
double fitAmdahlParallelFraction(const std::vector<int>& gpuCounts, const std::vector<double>& speedups);

/// One point of an α–β curve.
struct MessageTimePoint
{
    double bytes = 0;
    double seconds = 0;
    double busBandwidthGBs = 0; ///< busFactor · bytes / seconds
};

/// α–β prediction for one collective over ranks at bandwidthGBs per rank and alphaS per step (the textbook ring
/// forms of collectives.h), for message sizes spaced evenly in log from minBytes to maxBytes.
std::vector<MessageTimePoint> alphaBetaCurve(
    Collective collective, int ranks, double bandwidthGBs, double alphaS, double minBytes, double maxBytes, int points);

/// The same for one message size.
double alphaBetaTimeS(Collective collective, double bytes, int ranks, double bandwidthGBs, double alphaS);

} // namespace clusterplanner::core::perf
