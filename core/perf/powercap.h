// SPDX-License-Identifier: GPL-3.0-or-later
// GPU board power limits (nvidia-smi -pl): the sustained SM clock, and so the tensor throughput, falls with the limit;
// the power drawn is capped by it (docs/methods-cluster.md §5).
#pragma once

#include <optional>

namespace clusterplanner::core::perf {

struct ComputePeaks;

/// Exponent α of throughput ∝ (P_limit/TDP)^α, fitted to the anchor of docs/methods-cluster.md §5: an H100 SXM capped
/// at 600 W of its 700 W takes about 12 % longer per transformer training step (α = ln(1/1.12)/ln(600/700) ≈ 0.735).
inline constexpr double kPowerCapExponent = 0.7352;
/// Limits below this share of TDP are clamped: drivers refuse caps much below it (H100 SXM: 200 W of 700 W).
inline constexpr double kMinPowerCapFraction = 0.25;

/// Share of the uncapped sustained tensor throughput left at `limitW`: 1 without a limit or at/above TDP, else
/// (limit/TDP)^α. Always in (0, 1].
double powerCapThroughputFactor(std::optional<double> limitW, double tdpW);

/// Board power of one GPU at full load under the limit: min(TDP, limit).
double cappedBoardPowerW(std::optional<double> limitW, double tdpW);

/// Average draw while training: the engine's share of TDP (efficiency gpu_power_utilization), never above the limit.
double trainingDrawW(std::optional<double> limitW, double tdpW, double utilization);

/// The peaks with their clock-bound parts (tensor and attention FLOP/s) scaled by powerCapThroughputFactor; memory
/// bandwidth and launch latency do not follow the SM clock.
ComputePeaks withPowerCap(ComputePeaks peaks, std::optional<double> limitW, double tdpW);

} // namespace clusterplanner::core::perf
