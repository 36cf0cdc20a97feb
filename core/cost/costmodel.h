// SPDX-License-Identifier: GPL-3.0-or-later
// Capex, opex, TCO, cloud comparison and energy of a GPU cluster (docs/methods-cost.md §8).
#pragma once

#include "core/model/costdefaults.h"

namespace clusterplanner::core {
struct GpuSpec;
}

namespace clusterplanner::core::cost {

inline constexpr double kHoursPerYear = 8760; ///< 365 × 24; amortisation and opex run all year

/// Which end of a catalog price range to use.
enum class PriceLevel { Low, Mid, High };

/// Every input of the cost model; all user-overridable. Defaults come from data/costs.json (each row with its
/// source): dated 2024–26 estimates, not quotes.
struct CostAssumptions
{
    int gpuCount = 1;
    int gpusPerNode = costDefaults().gpusPerNode; ///< HGX/DGX nodes
    double gpuPriceUsd = 0; ///< purchase price per GPU (catalog range, data/gpus.json)
    /// Non-GPU server parts per node (chassis, CPUs, RAM, NICs): an 8×H100 node quoted at ≈ $310k with
    /// InfiniBand cards (Aug 2024, Thinkmate quote cited in a public cost spreadsheet [2nd]) minus 8 × $27.5k.
    double nodeOverheadUsd = costDefaults().nodeOverheadUsd;
    /// Scale-out fabric per GPU (switches, optics, cables): $4.35M for 1,024 H100 in the same spreadsheet [2nd].
    double networkUsdPerGpu = costDefaults().networkUsdPerGpu;
    double gpuTdpW = 0; ///< board power at full load (catalog)
    /// Idle board power; costAssumptionsFor() takes idle_power_fraction of data/costs.json × TDP.
    double gpuIdleW = 0;
    double gpuUtilization = 1.0; ///< u in P(u) = P_idle + u·(TDP − P_idle); training runs near 1
    /// Non-GPU IT power per node: DGX H100 ≈ 10.2 kW per 8 GPUs [2nd, docs/methods-cost.md §8] minus 8 × 700 W.
    double nodeOverheadW = costDefaults().nodeOverheadW;
    double pue = costDefaults().pue; ///< facility/IT power; new large sites ≤ 1.3, industry mean 1.58 [Energy]
    double usdPerKwh = costDefaults().usdPerKwh; ///< US EIA 2023 industrial mean [Energy]
    double hostingUsdPerGpuYear = 0; ///< space, staff, maintenance; not included unless set
    double years = costDefaults().amortisationYears; ///< amortisation period (data/costs.json)
    double cloudUsdPerGpuHour = 0; ///< rented alternative (catalog range); 0 = unknown
    double billableUtilization = 1.0; ///< U_billable: fraction of hours that do useful work, (0, 1]
};

/// Catalog-based defaults for gpuCount GPUs of one type: price and cloud rate at the given level (0 when the
/// catalog has none), TDP, and idle power at 10 % of TDP.
CostAssumptions costAssumptionsFor(const GpuSpec& gpu, int gpuCount, PriceLevel level);

/// Time to train in seconds, T = flops/(N_gpu·P_peak·MFU) [TM101, docs/methods-cost.md §8].
double trainingTimeS(double flops, int gpuCount, double peakFlopsPerGpu, double mfu);

/// Cost and energy of one training run (docs/methods-cost.md §8).
struct RunCost
{
    double hours = 0;
    double gpuHours = 0;
    double cloudCostUsd = 0; ///< N·hours·rate
    double ownedCostUsd = 0; ///< hours × (amortised capex + opex) per hour
    double energyKwh = 0; ///< facility energy, PUE included
    double energyCostUsd = 0;
    double cloudUsdPerMillionTokens = 0;
    double ownedUsdPerMillionTokens = 0;
};

/// Derived figures of a cluster. Power and energy are facility figures (× PUE) unless named IT.
class CostModel
{
public:
    /// Throws std::invalid_argument naming the first bad field.
    explicit CostModel(const CostAssumptions& assumptions);

    const CostAssumptions& assumptions() const { return m_a; }
    int nodeCount() const; ///< ⌈gpus/gpusPerNode⌉
    double capexUsd() const; ///< GPUs + nodes + fabric
    double gpuPowerW() const; ///< one GPU at the set utilisation
    double itPowerKw() const; ///< GPUs + node overhead
    double facilityPowerKw() const; ///< PUE × IT
    double energyKwh(double hours) const;
    double energyCostUsd(double hours) const;
    double opexPerHourUsd() const; ///< electricity + hosting, running 24/7
    double opexPerYearUsd() const;
    double tcoUsd() const; ///< capex + years × opex per year
    /// (capex/(Y·8760) + opex_h)/(N_gpu·U_billable)
    double effectiveUsdPerGpuHour() const;
    double cloudCostUsd(double hours) const; ///< N·hours·rate
    double ownedCostUsd(double hours) const; ///< hours × (capex/(Y·8760) + opex per hour)
    /// Wall-clock hours of renting all N GPUs that cost as much as the TCO: TCO/(N·rate); +inf without a rate.
    double breakEvenHours() const;
    /// A run of `tokens` at `tokensPerS` (the performance engine supplies the rate).
    RunCost trainingRun(double tokens, double tokensPerS) const;

private:
    CostAssumptions m_a;
};

} // namespace clusterplanner::core::cost
