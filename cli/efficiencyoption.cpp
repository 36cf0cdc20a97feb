// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/efficiencyoption.h"

#include "cli/commandlist.h"

#include <stdexcept>

namespace clusterplanner::cli {

using namespace clusterplanner::core; // commands are thin wrappers over the engine

std::optional<perf::EfficiencyTable> efficiencyOption(const std::string& path)
{
    if (path.empty())
        return std::nullopt;
    try {
        return perf::EfficiencyTable::fromJson(readTextFile(path));
    } catch (const UsageError&) {
        throw;
    } catch (const std::exception& error) {
        throw UsageError("--efficiency " + path + ": " + error.what());
    }
}

std::optional<perf::EfficiencyTable> efficiencyOption(Arguments& arguments)
{
    return efficiencyOption(arguments.value("--efficiency").value_or(""));
}

} // namespace clusterplanner::cli
