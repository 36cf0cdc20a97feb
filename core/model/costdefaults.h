// SPDX-License-Identifier: GPL-3.0-or-later
// Default cost and energy assumptions, one place for every module that prices or powers a cluster: read from
// data/costs.json (compiled in), where each value carries its unit and source (docs/methods-cost.md §8).
#pragma once

#include <string>

namespace clusterplanner::core {

/// The rows of data/costs.json as typed fields. Every field is user-overridable where it is used.
struct CostDefaults
{
    int gpusPerNode = 0; ///< HGX/DGX baseboard
    double nodeOverheadUsd = 0; ///< non-GPU server parts per node (chassis, CPUs, RAM, NICs)
    double networkUsdPerGpu = 0; ///< scale-out fabric per GPU (switches, optics, cables)
    double idlePowerFraction = 0; ///< P_idle as a share of TDP
    double nodeOverheadW = 0; ///< non-GPU IT power of a node of gpusPerNode GPUs
    double pue = 0; ///< facility power / IT power
    double usdPerKwh = 0; ///< electricity price
    double amortisationYears = 0; ///< capex depreciation period

    double nodeOverheadKw() const { return nodeOverheadW / 1000.0; }

    /// Parses the data/costs.json format. Throws std::runtime_error naming the row or key that is missing,
    /// unknown, out of range or without a source.
    static CostDefaults fromJson(const std::string& text);
};

/// The built-in defaults (data/costs.json), parsed once.
const CostDefaults& costDefaults();

} // namespace clusterplanner::core
