// SPDX-License-Identifier: GPL-3.0-or-later
// ClusterPlanner entry point: subcommands run headless, anything else opens the main window.
#include "core/cli/commands.h"
#include "ui/mainwindow/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>

#include <iostream>

int main(int argc, char* argv[])
{
    if (argc > 1 && clusterplanner::core::cli::isCommand(argv[1])) {
        QCoreApplication app(argc, argv); // headless: no display needed
        return clusterplanner::core::cli::runCommand({argv + 1, argv + argc}, std::cout, std::cerr);
    }
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("ClusterPlanner"));
    QApplication::setOrganizationName(QStringLiteral("ClusterPlanner"));
    QApplication::setApplicationVersion(QStringLiteral(CLUSTERPLANNER_VERSION));
    clusterplanner::ui::MainWindow window;
    window.show();
    return app.exec();
}
