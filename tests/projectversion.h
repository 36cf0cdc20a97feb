// SPDX-License-Identifier: GPL-3.0-or-later
// The version in the top-level CMakeLists.txt, read independently of the compiled-in string (for version tests).
#pragma once

#include <QFile>
#include <QRegularExpression>
#include <QString>

inline QString projectVersion()
{
    QFile file(QStringLiteral(CLUSTERPLANNER_SOURCE_DIR "/CMakeLists.txt"));
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("<no CMakeLists.txt>");
    const auto match = QRegularExpression(QStringLiteral(R"(project\(ClusterPlanner VERSION ([0-9.]+))"))
                           .match(QString::fromUtf8(file.readAll()));
    return match.hasMatch() ? match.captured(1) : QStringLiteral("<no version>");
}
