// SPDX-License-Identifier: GPL-3.0-or-later
// Declaring and parsing one subcommand's options with CLI11: generated help with units, accepted values, defaults
// and examples; parse errors become UsageError naming the option (exit 2).
#pragma once

#include "cli/arguments.h"

#include <CLI/CLI.hpp>

#include <initializer_list>
#include <iosfwd>
#include <string>
#include <vector>

namespace clusterplanner::cli {

/// A parser for "clusterplanner NAME" with a one-line summary and an "Examples:" footer (one example per line).
std::unique_ptr<CLI::App> makeCommandApp(
    const std::string& name, const std::string& summary, std::initializer_list<const char*> examples);

/// Parses args (without the command name). --help prints the help on out and throws HelpShown; a bad option
/// throws UsageError whose message names it.
void parseCommand(CLI::App& app, const std::vector<std::string>& args, std::ostream& out);

/// Accepts numbers strictly greater than 0 (help shows "> 0").
CLI::Validator positive();
/// Accepts one of `names`; the help lists them, an error names the option, the value and the accepted ones.
CLI::Validator oneOf(const std::vector<std::string>& names);
/// "a, b, c" for help texts and messages.
std::string joinNames(const std::vector<std::string>& names);

} // namespace clusterplanner::cli
