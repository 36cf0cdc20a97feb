// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/stackedbarchart.h"

#include "ui/charts/chartstyle.h"

#include <qcustomplot.h>

namespace clusterplanner::ui {

StackedBarChart::StackedBarChart(QWidget* parent)
    : ChartWidget(parent)
{
    plot()->legend->setVisible(true);
    plot()->legend->setFont(font());
    // The legend gets its own column right of the bars, so it never hides a stack or the limit line.
    auto* legendColumn = m_legendColumn = new QCPLayoutGrid;
    plot()->plotLayout()->addElement(0, 1, legendColumn);
    legendColumn->addElement(0, 0, plot()->legend);
    legendColumn->addElement(1, 0, new QCPLayoutElement(plot())); // pushes the legend to the top
    legendColumn->setRowStretchFactor(1, 10);
    plot()->plotLayout()->setColumnStretchFactor(1, 0.001);
}

void StackedBarChart::setData(const QStringList& categories, QVector<BarSeries> series)
{
    m_categories = categories;
    m_series = std::move(series);
    replot();
}

void StackedBarChart::setLimit(std::optional<double> value, const QString& label)
{
    m_limit = value;
    m_limitLabel = label;
    replot();
}

void StackedBarChart::setValueAxisLabel(const QString& label)
{
    m_valueLabel = label;
    replot();
}

void StackedBarChart::setHorizontal(bool horizontal)
{
    m_horizontal = horizontal;
    replot();
}

double StackedBarChart::stackTotal(int category) const
{
    double total = 0;
    for (const auto& series : m_series)
        total += category < series.values.size() ? series.values[category] : 0;
    return total;
}

void StackedBarChart::replot()
{
    QCustomPlot& p = *plot();
    p.clearPlottables();
    p.clearItems();
    QCPAxis* keyAxis = m_horizontal ? p.yAxis : p.xAxis;
    QCPAxis* valueAxis = m_horizontal ? p.xAxis : p.yAxis;
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    QVector<double> keys;
    for (int i = 0; i < m_categories.size(); ++i) {
        ticker->addTick(i, m_categories[i]);
        keys.push_back(i);
    }
    keyAxis->setTicker(ticker);
    valueAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    keyAxis->setLabel(QString());
    valueAxis->setLabel(m_valueLabel);
    QCPBars* below = nullptr;
    for (const auto& series : m_series) {
        auto* bars = new QCPBars(keyAxis, valueAxis);
        bars->setName(series.name);
        bars->setBrush(series.color);
        bars->setPen(QPen(series.color.darker(130)));
        bars->setWidth(0.6);
        bars->setData(keys, series.values, true);
        if (below)
            bars->moveAbove(below);
        if (m_series.size() == 1)
            bars->removeFromLegend(); // an empty legend takes no room beside the bars
        below = bars;
    }
    plot()->legend->setVisible(m_series.size() > 1); // one series needs no key, nor the room for one
    m_legendColumn->setMaximumSize(m_series.size() > 1 ? QWIDGETSIZE_MAX : 0, QWIDGETSIZE_MAX);
    double top = 0;
    for (int i = 0; i < m_categories.size(); ++i)
        top = std::max(top, stackTotal(i));
    if (m_limit) {
        top = std::max(top, *m_limit);
        auto* line = new QCPItemStraightLine(&p);
        line->point1->setAxes(keyAxis, valueAxis);
        line->point2->setAxes(keyAxis, valueAxis);
        // Positions take (key, value) on the axes given, so one form serves both orientations.
        line->point1->setCoords(0, *m_limit);
        line->point2->setCoords(1, *m_limit);
        line->setPen(QPen(QColor(0xD0, 0x30, 0x30), 2, Qt::DashLine));
        auto* text = new QCPItemText(&p);
        text->position->setAxes(keyAxis, valueAxis);
        text->position->setCoords(-0.5, *m_limit); // left end: the legend sits top right
        text->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        text->setText(m_limitLabel);
        text->setColor(QColor(0xD0, 0x30, 0x30));
    }
    keyAxis->setRange(-0.6, std::max<qsizetype>(1, m_categories.size()) - 0.4);
    valueAxis->setRange(0, top * 1.12 + 1e-9);
    applyChartStyle(p, palette());
    p.replot();
}

} // namespace clusterplanner::ui
