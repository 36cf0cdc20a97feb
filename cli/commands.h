// SPDX-License-Identifier: GPL-3.0-or-later
// Headless subcommands ("clusterplanner estimate ...") shared by the app and the tests.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clusterplanner::cli {

/// A subcommand: JSON or text on out, messages on err; returns the process exit code.
using CommandFunction = int (*)(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

struct Command
{
    std::string_view name;
    std::string_view summary;
    CommandFunction run;
};

const std::vector<Command>& commands();
bool isCommand(std::string_view name);
/// Runs argv[0] as a subcommand with argv[1..] as its arguments. UsageError and other exceptions become a message
/// on err and exit code 2 (usage) or 1 (failure).
int runCommand(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err);
/// The list of subcommands for --help.
std::string commandsHelp(const std::vector<std::pair<std::string, std::string>>& more = {});

} // namespace clusterplanner::cli
