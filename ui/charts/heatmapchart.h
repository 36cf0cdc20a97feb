// SPDX-License-Identifier: GPL-3.0-or-later
// A categorical heatmap (e.g. TP × PP) with a colour scale; cells without a value are hatched, with a reason.
#pragma once

#include "ui/charts/chartwidget.h"

#include <QStringList>
#include <QVector>

#include <optional>

class QCPColorMap;
class QCPColorScale;

namespace clusterplanner::ui {

struct HeatmapCell
{
    std::optional<double> value; ///< empty: invalid or does not fit
    QString tooltip; ///< details, or the reason the cell is empty
};

class HeatmapChart : public ChartWidget
{
    Q_OBJECT
public:
    explicit HeatmapChart(QWidget* parent = nullptr);

    /// Cells are row-major: cells[y * xLabels.size() + x].
    void setGrid(const QStringList& xLabels, const QStringList& yLabels, QVector<HeatmapCell> cells);
    void setAxisTitles(const QString& x, const QString& y, const QString& valueWithUnit);
    /// Higher is better (throughput) or lower is better (step time, memory): picks the gradient direction.
    void setHigherIsBetter(bool higherIsBetter);
    void setSelectedCell(std::optional<QPoint> cell);
    /// Cell under a widget position of the plot, if inside the grid.
    std::optional<QPoint> cellAt(const QPoint& plotPosition) const;
    const QVector<HeatmapCell>& cells() const { return m_cells; }
    /// Every how many columns (rows) an axis label is drawn: 1 unless the labels would run into each other.
    int xLabelStep() const { return m_xLabelStep; }
    int yLabelStep() const { return m_yLabelStep; }
    void replot() override;

protected:
    void resizeEvent(QResizeEvent* event) override;

Q_SIGNALS:
    void cellClicked(int x, int y);

private:
    void updateColorMap();
    void showTooltip(const QPoint& position);
    void layoutTickLabels();

    QStringList m_xLabels;
    QStringList m_yLabels;
    QVector<HeatmapCell> m_cells;
    std::optional<QPoint> m_selected;
    bool m_higherIsBetter = true;
    int m_xLabelStep = 1;
    int m_yLabelStep = 1;
    QCPColorMap* m_map;
    QCPColorScale* m_scale;
};

} // namespace clusterplanner::ui
