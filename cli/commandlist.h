// SPDX-License-Identifier: GPL-3.0-or-later
// Entry points of the subcommands, one per file in cli/.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace clusterplanner::cli {

using Args = std::vector<std::string>;

int runCatalog(const Args& args, std::ostream& out, std::ostream& err);
int runPipeline(const Args& args, std::ostream& out, std::ostream& err);
int runQueue(const Args& args, std::ostream& out, std::ostream& err);
int runCost(const Args& args, std::ostream& out, std::ostream& err);
int runEstimate(const Args& args, std::ostream& out, std::ostream& err);
int runValidate(const Args& args, std::ostream& out, std::ostream& err);
int runSweep(const Args& args, std::ostream& out, std::ostream& err);

/// Whole file as text; UsageError naming the path when it cannot be read.
std::string readTextFile(const std::string& path);
int runSimulate(const Args& args, std::ostream& out, std::ostream& err);
int runLibrary(const Args& args, std::ostream& out, std::ostream& err);
int runProbe(const Args& args, std::ostream& out, std::ostream& err);
int runExportConfig(const Args& args, std::ostream& out, std::ostream& err);

} // namespace clusterplanner::cli
