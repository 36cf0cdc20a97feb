// SPDX-License-Identifier: GPL-3.0-or-later
// Lines over a numeric x axis (e.g. throughput and scaling efficiency vs GPU count), optionally log2 in x.
#pragma once

#include "ui/charts/chartwidget.h"

#include <QColor>
#include <QVector>

namespace clusterplanner::ui {

struct LineSeries
{
    QString name;
    QColor color;
    QVector<double> x;
    QVector<double> y;
    bool dashed = false;
    bool onRightAxis = false; ///< e.g. efficiency in % next to throughput
    bool markers = true; ///< a disc on every point of a solid line; off for dense curves such as CDFs
};

class LineChart : public ChartWidget
{
    Q_OBJECT
public:
    explicit LineChart(QWidget* parent = nullptr);

    void setSeries(QVector<LineSeries> series);
    void setAxisTitles(const QString& x, const QString& left, const QString& right = {});
    /// Base-2 logarithmic axes: with both, linear scaling is a straight line at 45°.
    void setLogX(bool logX);
    void setLogY(bool logY);
    const QVector<LineSeries>& series() const { return m_series; }
    void replot() override;

private:
    QVector<LineSeries> m_series;
    bool m_logX = false;
    bool m_logY = false;
};

} // namespace clusterplanner::ui
