// SPDX-License-Identifier: GPL-3.0-or-later
// The figures of one evaluated layout, as a sweep produces them.
#pragma once

#include "core/sweep/layoutspace.h"

#include <cstdint>

namespace clusterplanner::core {

/// Figures of one evaluated layout. Time and cost fields are meaningful only when valid.
struct LayoutResult
{
    LayoutCandidate candidate;
    bool valid = false;
    std::uint32_t problems = 0; ///< bitmask of the layout check's violations (0 when valid)
    bool fits = false;
    std::int32_t offloadedLayers = 0; ///< layers whose activations go to host memory (auto offload's choice)
    double peakMemoryGiB = 0;
    double capacityGiB = 0;
    double stepTimeS = 0;
    double tokensPerSPerGpu = 0;
    double mfu = 0;
    double costPerMTokensUsd = 0;

    double headroomGiB() const { return capacityGiB - peakMemoryGiB; }
    /// Fits with less than kTightHeadroomFraction of the usable memory to spare: within the memory model's error band
    /// (p90 about 8 % on the validated runs), so it may not fit in practice.
    bool tight() const { return fits && headroomGiB() < kTightHeadroomFraction * capacityGiB; }

    static constexpr double kTightHeadroomFraction = 0.1;
};

} // namespace clusterplanner::core
