// SPDX-License-Identifier: GPL-3.0-or-later
// Field-by-field comparison of scenarios through their JSON form.
#pragma once

#include "core/store/storetypes.h"

#include <map>
#include <string>
#include <vector>

namespace clusterplanner::core {

/// Leaves of a JSON value keyed by dotted path: {"a": {"b": 1}, "c": [2]} gives "a.b" → 1 and "c[0]" → 2. A null or
/// empty object/array is a leaf of its own, so "model.moe" = null still shows against "model.moe.experts".
std::map<std::string, nlohmann::json> flattenJson(const nlohmann::json& value);

/// The paths whose values are not all equal across the records (missing = null), with their result figures.
Comparison compareRecords(const std::vector<ScenarioRecord>& records);

} // namespace clusterplanner::core
