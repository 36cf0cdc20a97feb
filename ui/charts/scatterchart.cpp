// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/scatterchart.h"

#include "ui/charts/chartstyle.h"

#include <QToolTip>

#include <qcustomplot.h>

#include <algorithm>

namespace clusterplanner::ui {

ScatterChart::ScatterChart(QWidget* parent)
    : ChartWidget(parent)
{
    placeLegendAbove(*plot()); // the front runs along the top right, where a legend inside the plot would sit
    plot()->setInteractions(QCP::Interactions(QCP::iRangeDrag) | QCP::iRangeZoom);
    plot()->setMouseTracking(true);
    connect(plot(), &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
        if (auto index = pointAt(event->pos()))
            QToolTip::showText(plot()->mapToGlobal(event->pos()),
                m_tooltipProvider ? m_tooltipProvider(*index) : m_points[*index].tooltip, plot());
        else
            QToolTip::hideText();
    });
    connect(plot(), &QCustomPlot::mousePress, this, [this](QMouseEvent* event) {
        if (auto index = pointAt(event->pos()))
            Q_EMIT pointClicked(*index);
    });
}

void ScatterChart::setPoints(QVector<ScatterPoint> points)
{
    m_points = std::move(points);
    m_selected.reset();
    replot();
    plot()->rescaleAxes();
    plot()->replot();
}

void ScatterChart::setTooltipProvider(std::function<QString(int index)> provider)
{
    m_tooltipProvider = std::move(provider);
}

void ScatterChart::setAxisTitles(const QString& x, const QString& y)
{
    plot()->xAxis->setLabel(x);
    plot()->yAxis->setLabel(y);
}

void ScatterChart::setSelected(std::optional<int> index)
{
    m_selected = index;
    replot();
}

QVector<int> ScatterChart::paretoFront(const QVector<ScatterPoint>& points)
{
    QVector<int> order(points.size());
    std::iota(order.begin(), order.end(), 0);
    // Sweep by x descending; a point is on the front when its y beats every point with larger x.
    std::sort(order.begin(), order.end(), [&](int a, int b) {
        return points[a].x != points[b].x ? points[a].x > points[b].x : points[a].y > points[b].y;
    });
    QVector<int> front;
    double bestY = -std::numeric_limits<double>::infinity();
    for (int index : order) {
        if (points[index].y > bestY) {
            front.push_back(index);
            bestY = points[index].y;
        }
    }
    return front;
}

std::optional<int> ScatterChart::pointAt(const QPoint& position) const
{
    std::optional<int> best;
    double bestDistance = 8.0; // pixels
    for (int i = 0; i < m_points.size(); ++i) {
        const double dx = plot()->xAxis->coordToPixel(m_points[i].x) - position.x();
        const double dy = plot()->yAxis->coordToPixel(m_points[i].y) - position.y();
        const double distance = std::hypot(dx, dy);
        if (distance < bestDistance) {
            bestDistance = distance;
            best = i;
        }
    }
    return best;
}

void ScatterChart::replot()
{
    QCustomPlot& p = *plot();
    p.clearGraphs();
    auto* all = p.addGraph();
    all->setName(tr("Layouts that fit"));
    all->setLineStyle(QCPGraph::lsNone);
    all->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, categoryColor(0), categoryColor(0).lighter(140), 6));
    for (const auto& point : m_points)
        all->addData(point.x, point.y);
    auto* front = p.addGraph();
    front->setName(tr("Pareto front"));
    front->setPen(QPen(categoryColor(5), 2));
    front->setLineStyle(QCPGraph::lsStepLeft);
    front->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, categoryColor(5), categoryColor(5), 9));
    for (int index : paretoFront(m_points))
        front->addData(m_points[index].x, m_points[index].y);
    if (m_selected && *m_selected < m_points.size()) {
        auto* selected = p.addGraph();
        selected->setName(tr("Selected layout"));
        selected->setLineStyle(QCPGraph::lsNone);
        // A ring around the point, wide and in the highlight colour, so it stands out against both series.
        QCPScatterStyle ring(QCPScatterStyle::ssCircle, QPen(palette().color(QPalette::Highlight), 3), Qt::NoBrush, 18);
        selected->setScatterStyle(ring);
        selected->addData(m_points[*m_selected].x, m_points[*m_selected].y);
    }
    applyChartStyle(p, palette());
    p.replot();
}

} // namespace clusterplanner::ui
