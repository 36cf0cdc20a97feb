// SPDX-License-Identifier: GPL-3.0-or-later
// Palette-aware styling shared by every chart, so light and dark themes both stay legible.
#pragma once

#include <QColor>
#include <QPalette>

class QCustomPlot;

namespace clusterplanner::ui {

/// Colours axes, grid, labels, legend and background of the plot from the palette.
void applyChartStyle(QCustomPlot& plot, const QPalette& palette);

/// A categorical colour (Okabe–Ito based, colour-blind safe), cycling for index ≥ 8.
QColor categoryColor(int index);

/// Moves the legend out of the plot area into a row of its own above it, entries side by side, so that it never
/// covers data. Calling it again changes nothing.
void placeLegendAbove(QCustomPlot& plot);

/// True when the palette's window colour is dark.
bool isDarkPalette(const QPalette& palette);

} // namespace clusterplanner::ui
