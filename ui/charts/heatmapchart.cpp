// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/heatmapchart.h"

#include "ui/charts/chartstyle.h"

#include <QFontMetrics>
#include <QToolTip>

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace clusterplanner::ui {

namespace {

/// Every `step`-th label, so that labels never run into each other ("64128256512").
QSharedPointer<QCPAxisTickerText> textTicker(const QStringList& labels, int step)
{
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int i = 0; i < labels.size(); i += step)
        ticker->addTick(i, labels[i]);
    return ticker;
}

int widestLabelPx(const QFontMetrics& metrics, const QStringList& labels)
{
    int widest = 0;
    for (const auto& label : labels)
        widest = std::max(widest, metrics.horizontalAdvance(label));
    return widest;
}

/// Smallest step at which labels of `extentPx` (plus a gap) fit into cells of `cellPx`.
int labelStep(double extentPx, double cellPx)
{
    constexpr double kGapPx = 6;
    return cellPx <= 0 ? 1 : std::max(1, int(std::ceil((extentPx + kGapPx) / cellPx)));
}

QCPColorGradient gradient(bool higherIsBetter)
{
    // Viridis stops (perceptually uniform, colour-blind safe); QCustomPlot 2.1 has no preset for it.
    QCPColorGradient g;
    g.setColorStopAt(0.0, QColor(0x44, 0x01, 0x54));
    g.setColorStopAt(0.25, QColor(0x3B, 0x52, 0x8B));
    g.setColorStopAt(0.5, QColor(0x21, 0x91, 0x8C));
    g.setColorStopAt(0.75, QColor(0x5E, 0xC9, 0x62));
    g.setColorStopAt(1.0, QColor(0xFD, 0xE7, 0x25));
    return higherIsBetter ? g : g.inverted();
}

} // namespace

HeatmapChart::HeatmapChart(QWidget* parent)
    : ChartWidget(parent)
    , m_map(new QCPColorMap(plot()->xAxis, plot()->yAxis))
    , m_scale(new QCPColorScale(plot()))
{
    plot()->plotLayout()->addElement(0, 1, m_scale);
    m_map->setColorScale(m_scale);
    m_map->setInterpolate(false);
    m_map->setGradient(gradient(true));
    auto* margins = new QCPMarginGroup(plot());
    plot()->axisRect()->setMarginGroup(QCP::MarginSides(QCP::msBottom) | QCP::msTop, margins);
    m_scale->setMarginGroup(QCP::MarginSides(QCP::msBottom) | QCP::msTop, margins);
    // Empty cells are transparent; this hatch behind them marks "invalid / does not fit".
    plot()->axisRect()->setBackground(QBrush(QColor(150, 150, 150, 90), Qt::BDiagPattern));
    plot()->setMouseTracking(true);
    connect(plot(), &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) { showTooltip(event->pos()); });
    connect(plot(), &QCustomPlot::mousePress, this, [this](QMouseEvent* event) {
        if (auto cell = cellAt(event->pos()))
            Q_EMIT cellClicked(cell->x(), cell->y());
    });
}

void HeatmapChart::setGrid(const QStringList& xLabels, const QStringList& yLabels, QVector<HeatmapCell> cells)
{
    m_xLabels = xLabels;
    m_yLabels = yLabels;
    m_cells = std::move(cells);
    m_cells.resize(xLabels.size() * yLabels.size());
    replot();
}

void HeatmapChart::setAxisTitles(const QString& x, const QString& y, const QString& valueWithUnit)
{
    plot()->xAxis->setLabel(x);
    plot()->yAxis->setLabel(y);
    m_scale->axis()->setLabel(valueWithUnit);
}

void HeatmapChart::setHigherIsBetter(bool higherIsBetter)
{
    m_higherIsBetter = higherIsBetter;
    m_map->setGradient(gradient(higherIsBetter));
}

void HeatmapChart::setSelectedCell(std::optional<QPoint> cell)
{
    m_selected = cell;
    replot();
}

std::optional<QPoint> HeatmapChart::cellAt(const QPoint& plotPosition) const
{
    const int x = qRound(plot()->xAxis->pixelToCoord(plotPosition.x()));
    const int y = qRound(plot()->yAxis->pixelToCoord(plotPosition.y()));
    if (!plot()->axisRect()->rect().contains(plotPosition) || x < 0 || y < 0 || x >= m_xLabels.size()
        || y >= m_yLabels.size())
        return std::nullopt;
    return QPoint(x, y);
}

void HeatmapChart::updateColorMap()
{
    const int nx = std::max<int>(1, m_xLabels.size());
    const int ny = std::max<int>(1, m_yLabels.size());
    auto* grid = m_map->data();
    grid->setSize(nx, ny);
    grid->setRange(QCPRange(0, nx - 1), QCPRange(0, ny - 1));
    for (int y = 0; y < m_yLabels.size(); ++y) {
        for (int x = 0; x < m_xLabels.size(); ++x) {
            const auto& cell = m_cells[y * m_xLabels.size() + x];
            grid->setCell(x, y, cell.value.value_or(0));
            grid->setAlpha(x, y, cell.value ? 255 : 0);
        }
    }
    m_map->rescaleDataRange(true);
}

void HeatmapChart::replot()
{
    updateColorMap();
    plot()->xAxis->setRange(-0.5, m_xLabels.size() - 0.5);
    plot()->yAxis->setRange(-0.5, m_yLabels.size() - 0.5);
    layoutTickLabels();
    plot()->clearItems();
    if (m_selected) {
        auto* frame = new QCPItemRect(plot());
        frame->topLeft->setCoords(m_selected->x() - 0.5, m_selected->y() + 0.5);
        frame->bottomRight->setCoords(m_selected->x() + 0.5, m_selected->y() - 0.5);
        frame->setPen(QPen(palette().color(QPalette::Highlight), 3));
    }
    plot()->replot();
}

void HeatmapChart::layoutTickLabels()
{
    // The axis rect's size is the last layout's; resizeEvent() lays the labels out again for a new size.
    const QFontMetrics metrics(plot()->xAxis->tickLabelFont());
    const double cellWidthPx = plot()->axisRect()->width() / std::max<double>(1, m_xLabels.size());
    const double cellHeightPx = plot()->axisRect()->height() / std::max<double>(1, m_yLabels.size());
    // Too wide side by side: turn the x labels upright, where each needs only a line's height.
    const int widestPx = widestLabelPx(metrics, m_xLabels);
    const bool upright = widestPx + 6 > cellWidthPx;
    plot()->xAxis->setTickLabelRotation(upright ? -90 : 0);
    m_xLabelStep = labelStep(upright ? metrics.height() : widestPx, cellWidthPx);
    m_yLabelStep = labelStep(metrics.height(), cellHeightPx);
    plot()->xAxis->setTicker(textTicker(m_xLabels, m_xLabelStep));
    plot()->yAxis->setTicker(textTicker(m_yLabels, m_yLabelStep));
}

void HeatmapChart::resizeEvent(QResizeEvent* event)
{
    ChartWidget::resizeEvent(event);
    plot()->replot(); // lays out the axis rect at the new size
    replot();
}

void HeatmapChart::showTooltip(const QPoint& position)
{
    const auto cell = cellAt(position);
    if (!cell) {
        QToolTip::hideText();
        return;
    }
    const auto& hovered = m_cells[cell->y() * m_xLabels.size() + cell->x()];
    QToolTip::showText(plot()->mapToGlobal(position), hovered.tooltip, plot());
}

} // namespace clusterplanner::ui
