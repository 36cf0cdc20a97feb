// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/efficiencyoption.h"

#include "cli/commandlist.h"

#include <stdexcept>

namespace clusterplanner::cli {

using namespace clusterplanner::core; // commands are thin wrappers over the engine

std::optional<perf::EfficiencyTable> efficiencyOption(Arguments& arguments)
{
    const auto path = arguments.value("--efficiency");
    if (!path)
        return std::nullopt;
    try {
        return perf::EfficiencyTable::fromJson(readTextFile(*path));
    } catch (const UsageError&) {
        throw;
    } catch (const std::exception& error) {
        throw UsageError("--efficiency " + *path + ": " + error.what());
    }
}

} // namespace clusterplanner::cli
