// SPDX-License-Identifier: GPL-3.0-or-later
// Export of a QGraphicsScene diagram (the cluster topology) like every chart: PNG, SVG or PDF with a title above and a
// caption below (chartexport.h).
#pragma once

#include "ui/charts/chartexport.h"

class QGraphicsScene;

namespace clusterplanner::ui {

/// Writes the whole scene, fitted into `size` with its aspect ratio kept; the format follows the suffix. Returns
/// an empty string or a message naming the problem.
QString exportScene(QGraphicsScene& scene, const QString& path, QSize size, const ChartDecoration& decoration);

} // namespace clusterplanner::ui
