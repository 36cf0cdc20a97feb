// SPDX-License-Identifier: GPL-3.0-or-later
// Entry points of the subcommands, one per file in core/cli/.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace clusterplanner::core::cli {

using Args = std::vector<std::string>;

int runCatalog(const Args& args, std::ostream& out, std::ostream& err);
int runLibrary(const Args& args, std::ostream& out, std::ostream& err);

} // namespace clusterplanner::core::cli
