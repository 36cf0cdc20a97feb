// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/sim/busycolors.h"

#include <QFontMetrics>
#include <QPainter>
#include <QPalette>

#include <algorithm>
#include <array>
#include <cmath>

namespace clusterplanner::ui {

namespace {

/// Viridis at 0, 1/8, ..., 1 (matplotlib's published colour map, CC0).
constexpr std::array<QRgb, 9> kViridis {
    0x440154, 0x472c7a, 0x3b518b, 0x2c718e, 0x21908d, 0x27ad81, 0x5cc863, 0xaadc32, 0xfde725};

int channel(QRgb a, QRgb b, int shift, double t)
{
    const int x = int((a >> shift) & 0xff), y = int((b >> shift) & 0xff);
    return int(std::lround(x + (y - x) * t));
}

} // namespace

QRgb busyColor(double fraction)
{
    const double f = std::clamp(std::isfinite(fraction) ? fraction : 0.0, 0.0, 1.0) * (kViridis.size() - 1);
    const auto i = std::min<std::size_t>(kViridis.size() - 2, static_cast<std::size_t>(f));
    const double t = f - double(i);
    const QRgb a = kViridis[i], b = kViridis[i + 1];
    return qRgb(channel(a, b, 16, t), channel(a, b, 8, t), channel(a, b, 0, t));
}

void drawBusyColorBar(QPainter& painter, const QRect& bar, const QString& title, const QPalette& palette)
{
    for (int y = 0; y < bar.height(); ++y) {
        painter.setPen(QColor(busyColor(1.0 - double(y) / std::max(1, bar.height() - 1))));
        painter.drawLine(bar.left(), bar.top() + y, bar.right(), bar.top() + y);
    }
    painter.setPen(palette.color(QPalette::WindowText));
    painter.drawRect(bar.adjusted(0, 0, -1, -1));
    const QFontMetrics metrics(painter.font());
    for (int percent = 0; percent <= 100; percent += 25) {
        const int y = bar.bottom() - int(std::lround(percent / 100.0 * (bar.height() - 1)));
        painter.drawLine(bar.right(), y, bar.right() + 3, y);
        painter.drawText(
            bar.right() + 6, y + metrics.ascent() / 2 - 1, QString::number(percent) + QStringLiteral(" %"));
    }
    painter.save();
    painter.translate(bar.right() + 12 + metrics.horizontalAdvance(QStringLiteral("100 %")) + metrics.ascent(),
        bar.center().y() + metrics.horizontalAdvance(title) / 2);
    painter.rotate(-90);
    painter.drawText(0, 0, title);
    painter.restore();
}

} // namespace clusterplanner::ui
