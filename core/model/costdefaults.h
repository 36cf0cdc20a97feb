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
    double amortisationYears = 0; ///< capex depreciation period; the owned cluster's default lifetime
    // The counted fabric, storage, facility and maintenance of docs/methods-cluster.md §6.
    double switchUsdPerPort400g = 0; ///< per switch port of up to 400 Gb/s (slower ports pro rata)
    double switchUsdPerPort800g = 0; ///< per switch port above 400 Gb/s, per 800 Gb/s
    double switchWPerPort400g = 0;
    double switchWPerPort800g = 0;
    double opticsUsdPerLink400g = 0; ///< transceivers and cable of one link, per 400 Gb/s
    double storageUsdPerGpu = 0;
    double facilityUsdPerKw = 0; ///< power and cooling build-out per kW of IT load
    double maintenanceFractionPerYear = 0; ///< of hardware capex

    double nodeOverheadKw() const { return nodeOverheadW / 1000.0; }

    /// Parses the data/costs.json format. Throws std::runtime_error naming the row or key that is missing,
    /// unknown, out of range or without a source.
    static CostDefaults fromJson(const std::string& text);
};

/// The built-in defaults (data/costs.json), parsed once.
const CostDefaults& costDefaults();

} // namespace clusterplanner::core
