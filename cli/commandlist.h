// SPDX-License-Identifier: GPL-3.0-or-later
// Entry points of the subcommands, one per file in cli/.
#pragma once

#include "core/io/validationcase.h"

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
/// The validation cases of a file (one case or an array of them); a file that cannot be parsed, or holds no case,
/// is a std::runtime_error naming the file (exit 1), like every command's bad input file.
std::vector<core::ValidationCase> readCaseFile(const std::string& path, core::CaseKeys keys = core::CaseKeys::All);
/// The same for a file already read (`path` names it in errors).
std::vector<core::ValidationCase> readCaseText(
    const std::string& text, const std::string& path, core::CaseKeys keys = core::CaseKeys::All);
int runSimulate(const Args& args, std::ostream& out, std::ostream& err);
int runLibrary(const Args& args, std::ostream& out, std::ostream& err);
int runProbe(const Args& args, std::ostream& out, std::ostream& err);
int runExportConfig(const Args& args, std::ostream& out, std::ostream& err);

} // namespace clusterplanner::cli
