// SPDX-License-Identifier: GPL-3.0-or-later
// ClusterPlanner entry point: subcommands run headless, anything else opens the main window.
#include "cli/commands.h"
#include "ui/mainwindow/startup.h"
#include "ui/report/qtcommands.h"

#include <QApplication>
#include <QCoreApplication>
#include <QStringList>

#include <iostream>

namespace {

QStringList argumentList(int argc, char* argv[])
{
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    return arguments;
}

} // namespace

int main(int argc, char* argv[])
{
    namespace cp = clusterplanner;
    // Subcommands are dispatched before any QApplication exists, so they run without a display.
    if (argc > 1 && cp::cli::isCommand(argv[1])) {
        QCoreApplication app(argc, argv);
        return cp::cli::runCommand({argv + 1, argv + argc}, std::cout, std::cerr);
    }
    // Commands that draw (chart, report) need a QApplication, but on the offscreen platform: still no display.
    if (argc > 1 && cp::ui::isQtCommand(argv[1])) {
        cp::ui::prepareHeadlessPlatform();
        cp::ui::setApplicationInfo();
        QApplication app(argc, argv);
        return cp::ui::runQtCommand(argumentList(argc, argv).mid(1), std::cout, std::cerr);
    }
    cp::ui::setApplicationInfo();
    // --help, --version and usage errors are answered before a QApplication (and a display) is needed.
    const cp::ui::CommandLine commandLine = cp::ui::parseCommandLine(
        argumentList(argc, argv), QString::fromStdString(cp::cli::commandsHelp(cp::ui::qtCommandsHelp())));
    if (commandLine.finished) {
        (commandLine.exitCode == 0 ? std::cout : std::cerr) << commandLine.output.toStdString() << std::flush;
        return commandLine.exitCode;
    }
    QApplication app(argc, argv);
    return cp::ui::runGui(commandLine.options);
}
