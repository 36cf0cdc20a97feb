// SPDX-License-Identifier: GPL-3.0-or-later
// The one export path for every chart: PNG, SVG or PDF at a chosen size, and "Copy image".
#pragma once

#include <QSize>
#include <QString>

class QCustomPlot;

namespace clusterplanner::ui {

/// Default export size (PlotJuggler's choice: large enough for slides, 16:10).
inline constexpr QSize kDefaultExportSize {1920, 1200};

/// Writes the plot to path; the format follows the suffix (.png, .svg, .pdf). Size is in pixels (PNG, SVG) or
/// points at 96 dpi (PDF). Returns an empty string on success, else a message naming the problem.
QString exportPlot(QCustomPlot& plot, const QString& path, QSize size = kDefaultExportSize);

/// Puts a PNG rendering of the plot on the clipboard.
void copyPlotImage(QCustomPlot& plot, QSize size = kDefaultExportSize);

/// The file-dialog filter listing the supported formats.
QString exportFileFilter();

} // namespace clusterplanner::ui
