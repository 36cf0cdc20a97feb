// SPDX-License-Identifier: GPL-3.0-or-later
// The probe's result as JSON (the `probe --json` document): unread fields are null, with their reasons beside.
#pragma once

#include "core/probe/probetypes.h"

#include <nlohmann/json_fwd.hpp>

#include <string>

namespace clusterplanner::core::probe {

nlohmann::json toJson(const GpuProbe& gpu);
/// {"available": false, "reason": ...} when no GPU was read; else the system fields and "gpus".
nlohmann::json toJson(const ProbeResult& result);
/// "same switch", "host bridge" ...: the words the panel and the text output use.
std::string ancestorName(CommonAncestor ancestor);

} // namespace clusterplanner::core::probe
