// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/numberformat.h"

#include <QLocale>

#include <algorithm>
#include <array>
#include <cmath>

namespace clusterplanner::ui {

namespace {

struct Multiplier
{
    double factor;
    const char* suffix;
};

/// "B" rather than "G": counts of tokens and parameters are said in billions, and "G" reads as giga-bytes.
constexpr std::array<Multiplier, 5> kMultipliers {{{1e15, "P"}, {1e12, "T"}, {1e9, "B"}, {1e6, "M"}, {1e3, "k"}}};

/// Decimals that keep the figure short yet distinct: 2.1, 20.5, 205, 0.25.
int decimalsFor(double scaled)
{
    const double magnitude = std::abs(scaled);
    return magnitude >= 100 ? 0 : magnitude >= 1 ? 1 : 2;
}

QString withUnit(const QString& number, const QString& unit)
{
    return unit.isEmpty() ? number : number + QLatin1Char(' ') + unit;
}

} // namespace

QString formatCount(double value, const QString& unit)
{
    const QLocale locale;
    if (!std::isfinite(value))
        return withUnit(locale.toString(value), unit);
    for (const auto& m : kMultipliers) {
        // Round first, so that 999,960 reads "1.0 M" rather than "1000 k".
        if (std::abs(value) >= m.factor * 0.9995) {
            const double scaled = value / m.factor;
            return withUnit(locale.toString(scaled, 'f', decimalsFor(std::max(std::abs(scaled), 1.0)))
                    + QLatin1Char(' ') + QLatin1String(m.suffix),
                unit);
        }
    }
    const bool whole = value == std::floor(value);
    return withUnit(locale.toString(value, 'f', whole ? 0 : decimalsFor(value)), unit);
}

} // namespace clusterplanner::ui
