// SPDX-License-Identifier: GPL-3.0-or-later
// Points of layouts (e.g. memory headroom vs throughput) with the Pareto front drawn as a step line.
#pragma once

#include "ui/charts/chartwidget.h"

#include <QVector>

#include <functional>

#include <optional>

namespace clusterplanner::ui {

struct ScatterPoint
{
    double x = 0;
    double y = 0;
    QString tooltip;
};

class ScatterChart : public ChartWidget
{
    Q_OBJECT
public:
    explicit ScatterChart(QWidget* parent = nullptr);

    void setPoints(QVector<ScatterPoint> points);
    void setAxisTitles(const QString& x, const QString& y);
    void setSelected(std::optional<int> index);
    /// Builds the hover text of a point on demand (for many points, instead of ScatterPoint::tooltip).
    void setTooltipProvider(std::function<QString(int index)> provider);
    /// Indices of the points no other point beats in both x and y (larger is better on both axes).
    static QVector<int> paretoFront(const QVector<ScatterPoint>& points);
    /// Nearest point within a few pixels of a plot position.
    std::optional<int> pointAt(const QPoint& plotPosition) const;
    void replot() override;

Q_SIGNALS:
    void pointClicked(int index);

private:
    QVector<ScatterPoint> m_points;
    std::optional<int> m_selected;
    std::function<QString(int)> m_tooltipProvider;
};

} // namespace clusterplanner::ui
