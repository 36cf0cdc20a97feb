// SPDX-License-Identifier: GPL-3.0-or-later
// --efficiency FILE: replaces the built-in efficiency parameters (data/efficiency.json format) for one command,
// so that a user can see what the time model assumes and try other values.
#pragma once

#include "cli/arguments.h"
#include "core/perf/efficiencyparams.h"

#include <optional>
#include <string>

namespace clusterplanner::cli {

/// The table in the file at `path`, or std::nullopt for the built-in one when path is empty; UsageError names a
/// bad file.
std::optional<core::perf::EfficiencyTable> efficiencyOption(const std::string& path);
/// The same for the value of --efficiency in `arguments` (commands not yet on CLI11).
std::optional<core::perf::EfficiencyTable> efficiencyOption(Arguments& arguments);

/// The table to use: the option's when given, else the built-in one.
inline const core::perf::EfficiencyTable& efficiencyTable(const std::optional<core::perf::EfficiencyTable>& option)
{
    return option ? *option : core::perf::EfficiencyTable::builtin();
}

} // namespace clusterplanner::cli
