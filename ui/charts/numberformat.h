// SPDX-License-Identifier: GPL-3.0-or-later
// Large counts as people read them: "2.0 T tokens", "405 B parameters", "16.8 M tokens/s", never "2e+12".
#pragma once

#include <QString>

namespace clusterplanner::ui {

/// `value` with an SI-style multiplier (k, M, B for billions, T) and three significant digits, then `unit`
/// after a space when it is not empty; values below 1,000 keep their digits. Locale-aware decimal point.
QString formatCount(double value, const QString& unit = {});

} // namespace clusterplanner::ui
