// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/linechart.h"

#include "ui/charts/chartstyle.h"

#include <qcustomplot.h>

namespace clusterplanner::ui {

LineChart::LineChart(QWidget* parent)
    : ChartWidget(parent)
{
    plot()->legend->setVisible(true);
    // Curves rise to the right and efficiency runs along the top: the left middle is the emptiest spot.
    plot()->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignLeft | Qt::AlignVCenter);
    plot()->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
}

void LineChart::setSeries(QVector<LineSeries> series)
{
    m_series = std::move(series);
    replot();
}

void LineChart::setAxisTitles(const QString& x, const QString& left, const QString& right)
{
    plot()->xAxis->setLabel(x);
    plot()->yAxis->setLabel(left);
    plot()->yAxis2->setLabel(right);
    plot()->yAxis2->setVisible(!right.isEmpty());
}

void LineChart::setLogX(bool logX)
{
    m_logX = logX;
    plot()->xAxis->setScaleType(logX ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (logX) {
        auto ticker = QSharedPointer<QCPAxisTickerLog>::create();
        ticker->setLogBase(2);
        plot()->xAxis->setTicker(ticker);
    } else {
        plot()->xAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    }
    replot();
}

void LineChart::replot()
{
    QCustomPlot& p = *plot();
    p.clearGraphs();
    for (const auto& series : m_series) {
        auto* graph = p.addGraph(p.xAxis, series.onRightAxis ? p.yAxis2 : p.yAxis);
        graph->setName(series.name);
        graph->setPen(QPen(series.color, 2, series.dashed ? Qt::DashLine : Qt::SolidLine));
        graph->setScatterStyle(series.dashed ? QCPScatterStyle() : QCPScatterStyle(QCPScatterStyle::ssDisc, 6));
        graph->setData(series.x, series.y);
    }
    p.rescaleAxes();
    for (QCPAxis* axis : {p.yAxis, p.yAxis2}) {
        const QCPRange range = axis->range();
        axis->setRange(std::min(0.0, range.lower), range.upper * 1.1 + 1e-12);
    }
    applyChartStyle(p, palette());
    p.replot();
}

} // namespace clusterplanner::ui
