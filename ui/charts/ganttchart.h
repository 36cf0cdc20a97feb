// SPDX-License-Identifier: GPL-3.0-or-later
// Rows of time boxes: the pipeline schedule of one layout (stages × F/B/W ops) and the job schedule of a cluster.
#pragma once

#include "ui/charts/chartwidget.h"

#include <QColor>
#include <QStringList>
#include <QVector>

#include <optional>

namespace clusterplanner::ui {

struct GanttBar
{
    int row = 0; ///< 0 = top row
    double start = 0;
    double end = 0;
    QString label; ///< drawn inside the box when it is wide enough
    QColor color;
    QString tooltip;
};

/// One legend entry; an invalid colour makes it a note without a swatch (e.g. how labels read).
struct GanttLegendEntry
{
    QString text;
    QColor color;
};

class GanttPlottable;

class GanttChart : public ChartWidget
{
    Q_OBJECT
public:
    explicit GanttChart(QWidget* parent = nullptr);

    void setRows(const QStringList& rowNames);
    void setBars(QVector<GanttBar> bars);
    void setTimeAxisLabel(const QString& label);
    /// A one-line legend above the plot, so that it never covers a bar.
    void setLegend(const QVector<GanttLegendEntry>& entries);
    const QVector<GanttBar>& bars() const { return m_bars; }
    /// The bar under a point in plot coordinates (time, row), if any.
    std::optional<int> barAt(double time, double row) const;
    void replot() override;

private:
    void showTooltip(const QPoint& position);

    QStringList m_rows;
    QVector<GanttBar> m_bars;
    QVector<QVector<int>> m_barsByRow; ///< indices into m_bars, sorted by start
    GanttPlottable* m_plottable;
};

} // namespace clusterplanner::ui
