// SPDX-License-Identifier: GPL-3.0-or-later
// Facts about the charting library, for places that must not include qcustomplot.h themselves.
#pragma once

#include <QString>

namespace clusterplanner::ui {

/// QCustomPlot version the UI was compiled against, e.g. "2.1.0".
QString qcustomplotVersion();

} // namespace clusterplanner::ui
