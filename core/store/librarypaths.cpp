// SPDX-License-Identifier: GPL-3.0-or-later
// Library and sample locations from the XDG variables and the executable's own path.
#include "core/store/librarypaths.h"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace clusterplanner::core {

namespace fs = std::filesystem;

std::string defaultLibraryPath()
{
    const char* dataHome = std::getenv("XDG_DATA_HOME");
    fs::path base;
    if (dataHome && fs::path(dataHome).is_absolute()) {
        base = dataHome;
    } else if (const char* home = std::getenv("HOME"); home && *home) {
        base = fs::path(home) / ".local" / "share";
    } else {
        throw std::runtime_error("cannot find a folder for the scenario library: neither XDG_DATA_HOME nor HOME is "
                                 "set; give one with --db PATH");
    }
    return (base / "ClusterPlanner" / "library.sqlite").string();
}

std::string installedScenarioDirectory()
{
    std::error_code error;
    const fs::path executable = fs::read_symlink("/proc/self/exe", error);
    if (error)
        return {};
    const fs::path folder = executable.parent_path().parent_path() / "share" / "clusterplanner" / "scenarios";
    return fs::is_directory(folder, error) ? folder.string() : std::string();
}

} // namespace clusterplanner::core
