// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/linechart.h"

#include "ui/charts/chartstyle.h"

#include <qcustomplot.h>

namespace clusterplanner::ui {

namespace {

/// Powers of two as ticks: GPU counts and throughputs double from point to point.
void setLog2(QCPAxis& axis, bool log)
{
    axis.setScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (!log) {
        axis.setTicker(QSharedPointer<QCPAxisTicker>::create());
        return;
    }
    auto ticker = QSharedPointer<QCPAxisTickerLog>::create();
    ticker->setLogBase(2);
    axis.setTicker(ticker);
    axis.setNumberFormat(QStringLiteral("g"));
}

/// Powers of two read well for counts (GPUs, servers) but not below one: 2^-10 h prints as "0.000976563". An axis
/// whose data reaches below one (hours, minutes, fractions) ticks in decades instead (0.001, 0.01 ... 10, 100).
void chooseLogBase(QCPAxis& axis)
{
    if (const auto ticker = axis.ticker().dynamicCast<QCPAxisTickerLog>())
        ticker->setLogBase(axis.range().lower < 1 ? 10 : 2);
}

/// Linear axes start at zero; logarithmic ones cannot, so they get a margin of a fifth on either side.
void padRange(QCPAxis& axis)
{
    const QCPRange range = axis.range();
    if (axis.scaleType() == QCPAxis::stLogarithmic)
        axis.setRange(range.lower / 1.2, range.upper * 1.2);
    else
        axis.setRange(std::min(0.0, range.lower), range.upper * 1.1 + 1e-12);
}

} // namespace

LineChart::LineChart(QWidget* parent)
    : ChartWidget(parent)
{
    placeLegendAbove(*plot()); // no spot inside the plot is free of curves for every scenario
    plot()->setInteractions(QCP::Interactions(QCP::iRangeDrag) | QCP::iRangeZoom);
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
    setLog2(*plot()->xAxis, logX);
    replot();
}

void LineChart::setLogY(bool logY)
{
    m_logY = logY;
    setLog2(*plot()->yAxis, logY);
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
        graph->setScatterStyle(
            series.dashed || !series.markers ? QCPScatterStyle() : QCPScatterStyle(QCPScatterStyle::ssDisc, 6));
        graph->setData(series.x, series.y);
    }
    p.rescaleAxes();
    for (QCPAxis* axis : {p.yAxis, p.yAxis2})
        padRange(*axis);
    for (QCPAxis* axis : {p.xAxis, p.yAxis, p.yAxis2})
        chooseLogBase(*axis);
    applyChartStyle(p, palette());
    p.replot();
}

} // namespace clusterplanner::ui
