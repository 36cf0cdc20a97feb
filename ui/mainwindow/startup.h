// SPDX-License-Identifier: GPL-3.0-or-later
// Command line of the GUI (everything except the headless subcommands) and the start of the main window.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace clusterplanner::ui {

struct StartupOptions
{
    QString file; ///< scenario to open; empty = core::defaultScenario()
    QString screenshotPath; ///< render the main window to this PNG and exit
    QString panel; ///< dock to show and raise (panelNames())
    QString settingsPath; ///< INI file used instead of the user's settings
    QString libraryPath; ///< scenario library used instead of the user's (LibraryService::defaultPath())
    QList<qint64> compareIds; ///< library scenarios to open in the compare dialog (hidden option, for screenshots)
};

/// What the command line asks for. When `finished` is set, print `output` (stdout when exitCode is 0, else
/// stderr) and exit with exitCode: --help, --version and usage errors need no display.
struct CommandLine
{
    bool finished = false;
    int exitCode = 0;
    QString output;
    StartupOptions options;
};

/// Sets application name, organisation and version (safe before any QCoreApplication exists).
void setApplicationInfo();
/// Parses arguments (arguments[0] is the program). Needs no QCoreApplication. commandsHelp is appended to --help:
/// the headless subcommands live in the cli target, which ui does not link.
CommandLine parseCommandLine(const QStringList& arguments, const QString& commandsHelp = {});
/// Shows the main window as the options say and runs the event loop; needs a QApplication. Returns the exit code.
int runGui(const StartupOptions& options);

} // namespace clusterplanner::ui
