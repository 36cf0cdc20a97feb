// SPDX-License-Identifier: GPL-3.0-or-later
// A small parser for subcommand arguments: "--name value", "--name=value" and flags.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace clusterplanner::cli {

/// Thrown for a bad command line; what() is the message shown to the user.
class UsageError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

/// Thrown once a command has printed its --help (cli/commandline.h); the dispatcher exits 0.
struct HelpShown
{
};

/// The hand-written parser of commands not yet declared with CLI11 (cli/commandline.h).
class Arguments
{
public:
    /// args excludes the program and the subcommand name.
    explicit Arguments(std::vector<std::string> args);

    bool flag(const std::string& name); ///< "--json"
    std::optional<std::string> value(const std::string& name); ///< "--case FILE" or "--case=FILE"
    std::string required(const std::string& name);
    long long integer(const std::string& name, long long fallback, long long min, long long max);
    std::optional<long long> optionalInteger(const std::string& name, long long min, long long max);
    double number(const std::string& name, double fallback, double min, double max);
    std::optional<double> optionalNumber(const std::string& name, double min, double max);
    /// Leftover non-option words, in order (e.g. "list" in "library list").
    std::vector<std::string> positionals();
    /// Throws UsageError naming the first argument that no call above consumed.
    void finish() const;

private:
    std::vector<std::string> m_args;
    std::vector<bool> m_used;
};

} // namespace clusterplanner::cli
