// SPDX-License-Identifier: GPL-3.0-or-later
// UTC timestamps as the library stores them.
#pragma once

#include <chrono>
#include <string>

namespace clusterplanner::core {

/// ISO 8601 UTC with milliseconds, "2025-01-31T12:00:00.123Z": sorts as text in time order.
std::string isoTimestampUtc(std::chrono::system_clock::time_point time = std::chrono::system_clock::now());
/// Compact UTC form for file names, "20250131T120000Z".
std::string fileTimestampUtc(std::chrono::system_clock::time_point time = std::chrono::system_clock::now());

} // namespace clusterplanner::core
