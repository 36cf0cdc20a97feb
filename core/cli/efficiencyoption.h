// SPDX-License-Identifier: GPL-3.0-or-later
// --efficiency FILE: replaces the built-in efficiency parameters (data/efficiency.json format) for one command,
// so that a user can see what the time model assumes and try other values.
#pragma once

#include "core/cli/arguments.h"
#include "core/perf/efficiencyparams.h"

#include <optional>

namespace clusterplanner::core::cli {

/// The table named by --efficiency, or std::nullopt for the built-in one; UsageError names a bad file.
std::optional<perf::EfficiencyTable> efficiencyOption(Arguments& arguments);

/// The table to use: the option's when given, else the built-in one.
inline const perf::EfficiencyTable& efficiencyTable(const std::optional<perf::EfficiencyTable>& option)
{
    return option ? *option : perf::EfficiencyTable::builtin();
}

} // namespace clusterplanner::core::cli
