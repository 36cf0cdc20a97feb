// SPDX-License-Identifier: GPL-3.0-or-later
// Small building blocks shared by the panels: number fields and a panel body that scrolls.
#pragma once

#include <QString>

class QDoubleSpinBox;
class QScrollArea;
class QSpinBox;
class QWidget;

namespace clusterplanner::ui {

/// A decimal field that commits on Enter or focus loss, not on every key (each commit is an undo step or a run);
/// thousands are grouped once values can reach six digits.
QDoubleSpinBox* numberField(double min, double max, int decimals, const QString& suffix = {});
/// The same for whole counts (jobs, users, seeds), always grouped.
QSpinBox* countField(int min, int max, const QString& suffix = {});

/// Fills `panel` with a frameless scroll area holding `content`, so a dock made smaller than the content scrolls
/// instead of growing the window, and guards the value widgets of `content` against the wheel (WheelGuard). Call it
/// once `content` holds its widgets.
QScrollArea* setScrollingBody(QWidget* panel, QWidget* content);

} // namespace clusterplanner::ui
