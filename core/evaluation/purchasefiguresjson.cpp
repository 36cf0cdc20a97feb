// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/evaluation/purchasefiguresjson.h"

#include <nlohmann/json.hpp>

namespace clusterplanner::core::evaluation {

nlohmann::json clusterFiguresJson(const cluster::ClusterFigures& f)
{
    nlohmann::json tiers = nlohmann::json::array();
    for (const auto& t : f.tiers)
        tiers.push_back(
            {{"name", t.name}, {"switches", t.switches}, {"uplinks", t.uplinks}, {"bisection_gbps", t.bisectionGbps}});
    nlohmann::json issues = nlohmann::json::array();
    for (const auto& issue : f.issues)
        issues.push_back({{"where", issue.where}, {"reason", issue.reason}});
    return {{"nodes", f.nodes}, {"gpus", f.gpus}, {"racks", f.racks}, {"scale_up_domains", f.scaleUpDomains},
        {"peak_pflops_bf16", f.peakPflopsBf16}, {"peak_pflops_fp8", f.peakPflopsFp8},
        {"peak_pflops_fp32", f.peakPflopsFp32}, {"hbm_total_tb", f.hbmTotalTB}, {"tiers", tiers},
        {"bisection_gbps", f.bisectionGbps}, {"switches", f.switches}, {"links", f.links}, {"it_power_kw", f.itPowerKw},
        {"switch_power_kw", f.switchPowerKw}, {"pue", f.pue}, {"facility_power_kw", f.facilityPowerKw},
        {"max_rack_kw", f.maxRackKw}, {"capex_nodes_usd", f.capexNodesUsd}, {"capex_switches_usd", f.capexSwitchesUsd},
        {"capex_optics_usd", f.capexOpticsUsd}, {"capex_network_usd", f.capexNetworkUsd},
        {"capex_storage_usd", f.capexStorageUsd}, {"capex_facility_usd", f.capexFacilityUsd}, {"capex_usd", f.capexUsd},
        {"opex_energy_usd_per_year", f.opexEnergyUsdPerYear},
        {"opex_maintenance_usd_per_year", f.opexMaintenanceUsdPerYear}, {"opex_usd_per_year", f.opexUsdPerYear},
        {"lifetime_years", f.lifetimeYears}, {"tco_usd", f.tcoUsd}, {"cloud_equivalent_usd", f.cloudEquivalentUsd},
        {"unpriced_gpus", f.unpricedGpus}, {"issues", issues}};
}

nlohmann::json trainingRunJson(const TrainingRunFigures& r)
{
    return {{"fits", r.fits}, {"why_not", r.whyNot}, {"tokens_per_s", r.tokensPerS}, {"mfu", r.mfu},
        {"time_to_train_days", r.timeToTrainDays}, {"energy_mwh", r.energyMwh},
        {"owned_usd_per_million_tokens", r.ownedUsdPerMillionTokens},
        {"cloud_usd_per_million_tokens", r.cloudUsdPerMillionTokens}};
}

} // namespace clusterplanner::core::evaluation
