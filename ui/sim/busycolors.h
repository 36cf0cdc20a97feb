// SPDX-License-Identifier: GPL-3.0-or-later
// The colour scale of busy fractions (viridis: perceptually uniform, colour-blind safe, readable in grey).
#pragma once

#include <QRgb>
#include <QString>

class QPainter;
class QPalette;
class QRect;

namespace clusterplanner::ui {

/// Colour of a busy fraction in [0, 1] (clamped).
QRgb busyColor(double fraction);
/// A vertical colour bar in `bar` with 0, 25, 50, 75, 100 % labels right of it and a rotated title.
void drawBusyColorBar(QPainter& painter, const QRect& bar, const QString& title, const QPalette& palette);

} // namespace clusterplanner::ui
