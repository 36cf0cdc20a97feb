// SPDX-License-Identifier: GPL-3.0-or-later
// Translation for the report's free functions, which have no QObject to call tr() on.
#pragma once

#include <QCoreApplication>
#include <QString>

namespace clusterplanner::ui {

/// The "Report" translation context shared by every report page.
inline QString reportTr(const char* text)
{
    return QCoreApplication::translate("Report", text);
}

} // namespace clusterplanner::ui
