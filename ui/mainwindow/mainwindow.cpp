// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/mainwindow/mainwindow.h"

namespace clusterplanner::ui {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
{
    setWindowTitle(QStringLiteral("ClusterPlanner"));
    resize(1400, 900);
}

} // namespace clusterplanner::ui
