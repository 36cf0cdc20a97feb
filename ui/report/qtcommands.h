// SPDX-License-Identifier: GPL-3.0-or-later
// Headless subcommands that draw with Qt (chart, report): they run under a QApplication on the offscreen platform.
#pragma once

#include <QStringList>

#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

namespace clusterplanner::ui {

/// Whether `name` is one of the Qt-drawing subcommands ("chart", "report").
bool isQtCommand(const char* name);
/// The drawing subcommands' names and summaries, for the main --help (cli::commandsHelp lays them out).
std::vector<std::pair<std::string, std::string>> qtCommandsHelp();
/// Sets the offscreen platform unless one was chosen; call before the QApplication exists.
void prepareHeadlessPlatform();
/// Runs the subcommand named by arguments[0] (arguments exclude the program). Returns the exit code: 0, 1 for a
/// failure while writing, 2 for a usage error; messages go to `err`.
int runQtCommand(const QStringList& arguments, std::ostream& out, std::ostream& err);

/// `chart --scenario F --chart KIND --out FILE [--width W --height H --dpi D --theme light|dark]`
int runChartCommand(const QStringList& arguments, std::ostream& out, std::ostream& err);
/// `report --scenario F [--layout dp,tp,pp[,cp[,ep]]] --out FILE [--format pdf|html] [--page a4|letter]`
int runReportCommand(const QStringList& arguments, std::ostream& out, std::ostream& err);

} // namespace clusterplanner::ui
