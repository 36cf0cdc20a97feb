// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/costdefaults.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <functional>
#include <map>
#include <stdexcept>

namespace clusterplanner::core {

extern const char* const kBuiltinCostsJson; // generated from data/costs.json at build time

namespace {

using Setter = std::function<void(CostDefaults&, double)>;

/// Each key of the file, the field it sets and the smallest value that makes sense (all are > 0 except where 0).
struct Field
{
    Setter set;
    double min = 0;
};

const std::map<std::string, Field>& fields()
{
    static const std::map<std::string, Field> table = {
        {"gpus_per_node", {[](CostDefaults& d, double v) { d.gpusPerNode = int(v); }, 1}},
        {"node_overhead_usd", {[](CostDefaults& d, double v) { d.nodeOverheadUsd = v; }, 0}},
        {"network_usd_per_gpu", {[](CostDefaults& d, double v) { d.networkUsdPerGpu = v; }, 0}},
        {"idle_power_fraction", {[](CostDefaults& d, double v) { d.idlePowerFraction = v; }, 0}},
        {"node_overhead_w", {[](CostDefaults& d, double v) { d.nodeOverheadW = v; }, 0}},
        {"pue", {[](CostDefaults& d, double v) { d.pue = v; }, 1}},
        {"usd_per_kwh", {[](CostDefaults& d, double v) { d.usdPerKwh = v; }, 0}},
        {"amortisation_years", {[](CostDefaults& d, double v) { d.amortisationYears = v; }, 0.01}},
        {"switch_usd_per_port_400g", {[](CostDefaults& d, double v) { d.switchUsdPerPort400g = v; }, 0}},
        {"switch_usd_per_port_800g", {[](CostDefaults& d, double v) { d.switchUsdPerPort800g = v; }, 0}},
        {"switch_w_per_port_400g", {[](CostDefaults& d, double v) { d.switchWPerPort400g = v; }, 0}},
        {"switch_w_per_port_800g", {[](CostDefaults& d, double v) { d.switchWPerPort800g = v; }, 0}},
        {"optics_usd_per_link_400g", {[](CostDefaults& d, double v) { d.opticsUsdPerLink400g = v; }, 0}},
        {"storage_usd_per_gpu", {[](CostDefaults& d, double v) { d.storageUsdPerGpu = v; }, 0}},
        {"facility_usd_per_kw", {[](CostDefaults& d, double v) { d.facilityUsdPerKw = v; }, 0}},
        {"maintenance_fraction_per_year", {[](CostDefaults& d, double v) { d.maintenanceFractionPerYear = v; }, 0}},
    };
    return table;
}

[[noreturn]] void fail(const std::string& key, const std::string& problem)
{
    throw std::runtime_error("costs.json: \"" + key + "\": " + problem);
}

double rowValue(const nlohmann::json& row, const std::string& key, const Field& field)
{
    if (!row.contains("source") || !row["source"].is_string() || row["source"].get<std::string>().empty())
        fail(key, "needs a source");
    if (!row.contains("unit") || !row["unit"].is_string())
        fail(key, "needs a unit");
    if (!row.contains("value") || !row["value"].is_number())
        fail(key, "needs a numeric value");
    const double value = row["value"].get<double>();
    if (!std::isfinite(value) || value < field.min)
        fail(key, "value must be at least " + std::to_string(field.min));
    return value;
}

} // namespace

CostDefaults CostDefaults::fromJson(const std::string& text)
{
    const auto document = nlohmann::json::parse(text, nullptr, false);
    if (document.is_discarded() || !document.is_object() || !document.contains("assumptions"))
        throw std::runtime_error("costs.json: not a cost assumptions file (no \"assumptions\" list)");
    CostDefaults defaults;
    std::map<std::string, bool> seen;
    for (const auto& row : document["assumptions"]) {
        const std::string key = row.value("key", std::string());
        const auto field = fields().find(key);
        if (field == fields().end())
            fail(key, "unknown key");
        if (seen[key])
            fail(key, "given twice");
        seen[key] = true;
        field->second.set(defaults, rowValue(row, key, field->second));
    }
    for (const auto& [key, field] : fields())
        if (!seen[key])
            fail(key, "missing");
    return defaults;
}

const CostDefaults& costDefaults()
{
    static const CostDefaults defaults = CostDefaults::fromJson(kBuiltinCostsJson);
    return defaults;
}

} // namespace clusterplanner::core
