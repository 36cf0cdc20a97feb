// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/chartlibrary.h"

#include <qcustomplot.h>

namespace clusterplanner::ui {

QString qcustomplotVersion()
{
    return QStringLiteral(QCUSTOMPLOT_VERSION_STR);
}

} // namespace clusterplanner::ui
