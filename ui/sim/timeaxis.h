// SPDX-License-Identifier: GPL-3.0-or-later
// The time axis shared by the heatmap and the Gantt chart: a window of simulation seconds mapped to pixels, with
// ticks in a unit that suits the window (min, h or d since the first submission).
#pragma once

#include <QRect>
#include <QString>

class QPainter;
class QPalette;

namespace clusterplanner::ui {

class TimeAxis
{
public:
    TimeAxis() = default;
    /// Seconds [fromS, toS) over the pixels [left, left + width); originS is shown as 0 (first submission).
    TimeAxis(double fromS, double toS, int left, int width, double originS);

    double fromS() const { return m_from; }
    double toS() const { return m_to; }
    double x(double timeS) const;
    double time(double x) const;
    /// "h", "min" or "d", and its length in seconds, chosen from the window length.
    QString unit() const;
    double unitS() const;
    /// "time since the first submission (h)".
    QString title() const;
    /// Ticks and labels under `axis` (its top edge is the plot's bottom), then the title.
    void draw(QPainter& painter, const QRect& axis, const QPalette& palette) const;
    /// A time as the axis writes it, e.g. "12.5 h".
    QString format(double timeS) const;

private:
    double m_from = 0;
    double m_to = 1;
    int m_left = 0;
    int m_width = 1;
    double m_origin = 0;
};

} // namespace clusterplanner::ui
