// SPDX-License-Identifier: GPL-3.0-or-later
// Option parsing shared by the Qt subcommands: QCommandLineParser with messages that name the option.
#pragma once

#include "core/model/scenario.h"

#include <QCommandLineParser>
#include <QString>

#include <stdexcept>

namespace clusterplanner::ui {

/// A bad command line; what() is the message for the user.
class CommandUsageError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

/// `COMMAND --help` or `-h`: what() is the command's help text, printed on stdout with exit 0.
class CommandHelpRequested : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

/// Parses `arguments` (arguments[0] is the subcommand); throws CommandUsageError for unknown options and
/// CommandHelpRequested (with `description` and the options) for --help.
void parseCommand(QCommandLineParser& parser, const QStringList& arguments, const QString& description);
/// The value of a required option; throws naming it when absent.
QString requiredValue(const QCommandLineParser& parser, const QString& name);
/// An integer option in [min, max], or fallback when absent.
int integerValue(const QCommandLineParser& parser, const QString& name, int fallback, int min, int max);
/// Reads a *.cplan.json file; throws naming the file and problem: CommandUsageError where the path leads to no
/// readable file (exit 2), std::runtime_error where the file holds no usable scenario (exit 1).
core::Scenario loadScenarioFile(const QString& path);
/// Applies "--layout dp,tp,pp[,cp[,ep]]" to the scenario; throws naming the option when it is malformed.
void applyLayoutOption(const QString& text, core::Scenario& scenario);
/// The scenario named by the required --scenario option, with --layout applied when it is given.
core::Scenario scenarioOption(const QCommandLineParser& parser);

} // namespace clusterplanner::ui
