// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/library/keyfigures.h"

#include "core/evaluation/keyfigures.h"

#include <limits>
#include <stdexcept>

namespace clusterplanner::ui {

core::CachedResult computeKeyFigures(const core::Scenario& scenario)
{
    auto result = core::keyFigures(scenario);
    if (!result)
        throw std::invalid_argument(result.error().text());
    return *result;
}

double energyKwhOf(const core::CachedResult& result)
{
    const auto it = result.detail.find("energy_kwh");
    return it != result.detail.end() && it->is_number() ? it->get<double>() : std::numeric_limits<double>::quiet_NaN();
}

bool fitsOf(const core::CachedResult& result)
{
    const auto it = result.detail.find("fits");
    return it != result.detail.end() && it->is_boolean() && it->get<bool>();
}

} // namespace clusterplanner::ui
