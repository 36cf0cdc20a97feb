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
};

class LineChart : public ChartWidget
{
    Q_OBJECT
public:
    explicit LineChart(QWidget* parent = nullptr);

    void setSeries(QVector<LineSeries> series);
    void setAxisTitles(const QString& x, const QString& left, const QString& right = {});
    void setLogX(bool logX);
    const QVector<LineSeries>& series() const { return m_series; }
    void replot() override;

private:
    QVector<LineSeries> m_series;
    bool m_logX = false;
};

} // namespace clusterplanner::ui
