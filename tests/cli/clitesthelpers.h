// SPDX-License-Identifier: GPL-3.0-or-later
// Shared helpers of the command-line tests: run a subcommand through the dispatcher, read a file, compare.
#pragma once

#include "cli/commands.h"

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace clitest {

/// Exit code and both streams of one command.
struct Run
{
    int code = -1;
    std::string out;
    std::string err;
};

inline Run run(const std::vector<std::string>& argv)
{
    std::ostringstream out;
    std::ostringstream err;
    Run result;
    result.code = clusterplanner::cli::runCommand(argv, out, err);
    result.out = out.str();
    result.err = err.str();
    return result;
}

inline bool closeRelative(double actual, double expected, double tolerance)
{
    return std::abs(actual - expected) <= tolerance * std::abs(expected);
}

/// Whole file as text; empty when it cannot be read.
inline std::string readFile(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace clitest
