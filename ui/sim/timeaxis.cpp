// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/sim/timeaxis.h"

#include <QCoreApplication>
#include <QFontMetrics>
#include <QPainter>
#include <QPalette>

#include <cmath>

namespace clusterplanner::ui {

TimeAxis::TimeAxis(double fromS, double toS, int left, int width, double originS)
    : m_from(fromS)
    , m_to(toS > fromS ? toS : fromS + 1)
    , m_left(left)
    , m_width(std::max(1, width))
    , m_origin(originS)
{ }

double TimeAxis::x(double timeS) const
{
    return m_left + (timeS - m_from) / (m_to - m_from) * m_width;
}

double TimeAxis::time(double x) const
{
    return m_from + (x - m_left) / m_width * (m_to - m_from);
}

double TimeAxis::unitS() const
{
    const double span = m_to - m_from;
    return span < 2 * 3600 ? 60 : span < 4 * 86400 ? 3600 : 86400;
}

QString TimeAxis::unit() const
{
    const double u = unitS();
    return u == 60  ? QCoreApplication::translate("TimeAxis", "min")
        : u == 3600 ? QCoreApplication::translate("TimeAxis", "h")
                    : QCoreApplication::translate("TimeAxis", "d");
}

QString TimeAxis::title() const
{
    return QCoreApplication::translate("TimeAxis", "time since the first submission (%1)").arg(unit());
}

QString TimeAxis::format(double timeS) const
{
    const double value = (timeS - m_origin) / unitS();
    const int decimals = std::abs(value) < 10 ? 2 : std::abs(value) < 100 ? 1 : 0;
    return QString::number(value, 'f', decimals) + QLatin1Char(' ') + unit();
}

void TimeAxis::draw(QPainter& painter, const QRect& axis, const QPalette& palette) const
{
    const QFontMetrics metrics(painter.font());
    const double unitSpan = (m_to - m_from) / unitS();
    // A 1-2-5 step giving ticks about 90 px apart.
    const double raw = unitSpan / std::max(1.0, m_width / 90.0);
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    double step = magnitude;
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * magnitude >= raw) {
            step = m * magnitude;
            break;
        }
    painter.setPen(palette.color(QPalette::WindowText));
    const double firstValue = std::ceil((m_from - m_origin) / unitS() / step) * step;
    for (double v = firstValue; m_origin + v * unitS() <= m_to; v += step) {
        const int px = int(std::lround(x(m_origin + v * unitS())));
        painter.drawLine(px, axis.top(), px, axis.top() + 4);
        const QString label = QString::number(v, 'g', 6);
        const int w = metrics.horizontalAdvance(label);
        painter.drawText(px - w / 2, axis.top() + 5 + metrics.ascent(), label);
    }
    const int titleWidth = metrics.horizontalAdvance(title());
    painter.drawText(
        m_left + (m_width - titleWidth) / 2, axis.top() + 8 + metrics.height() + metrics.ascent(), title());
}

} // namespace clusterplanner::ui
