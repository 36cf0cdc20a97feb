// SPDX-License-Identifier: GPL-3.0-or-later
// Where the scenario library and the installed sample scenarios live.
#pragma once

#include <string>

namespace clusterplanner::core {

/// The per-user library file: "$XDG_DATA_HOME/ClusterPlanner/library.sqlite", or
/// "$HOME/.local/share/ClusterPlanner/library.sqlite" when XDG_DATA_HOME is unset or not absolute (XDG Base
/// Directory rules). This is QStandardPaths::AppDataLocation for an application named "ClusterPlanner" with no
/// organisation name. Throws std::runtime_error when neither variable gives a folder.
std::string defaultLibraryPath();

/// "<prefix>/share/clusterplanner/scenarios" next to the running executable ("<prefix>/bin/..."), where packaging
/// installs data/scenarios; empty when there is no such folder (e.g. in a build tree).
std::string installedScenarioDirectory();

} // namespace clusterplanner::core
