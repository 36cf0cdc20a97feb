// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/ganttchart.h"

#include "ui/charts/chartstyle.h"

#include <QToolTip>

#include <qcustomplot.h>

#include <algorithm>

namespace clusterplanner::ui {

/// Draws all bars in one pass; thousands of QCPItemRects would make zooming sluggish.
class GanttPlottable : public QCPAbstractPlottable
{
public:
    GanttPlottable(QCPAxis* timeAxis, QCPAxis* rowAxis, const QVector<GanttBar>* bars)
        : QCPAbstractPlottable(timeAxis, rowAxis)
        , m_bars(bars)
    { }

    double selectTest(const QPointF&, bool, QVariant*) const override { return -1; }

    QCPRange getKeyRange(bool& found, QCP::SignDomain) const override
    {
        found = !m_bars->isEmpty();
        QCPRange range(0, 1);
        if (found) {
            range.lower = std::min_element(m_bars->begin(), m_bars->end(), byStart)->start;
            range.upper = std::max_element(m_bars->begin(), m_bars->end(), byEnd)->end;
        }
        return range;
    }

    QCPRange getValueRange(bool& found, QCP::SignDomain, const QCPRange&) const override
    {
        found = !m_bars->isEmpty();
        int lastRow = 0;
        for (const auto& bar : *m_bars)
            lastRow = std::max(lastRow, bar.row);
        return QCPRange(-0.5, lastRow + 0.5);
    }

protected:
    void draw(QCPPainter* painter) override
    {
        const QRect clip = clipRect();
        for (const auto& bar : *m_bars) {
            const QPointF topLeft = coordsToPixels(bar.start, bar.row - 0.4);
            const QPointF bottomRight = coordsToPixels(bar.end, bar.row + 0.4);
            const QRectF box = QRectF(topLeft, bottomRight).normalized();
            if (!box.intersects(clip))
                continue;
            painter->setPen(QPen(bar.color.darker(140), 0.8));
            painter->setBrush(bar.color);
            painter->drawRect(box);
            const QString label = fittingLabel(painter->fontMetrics(), bar.label, box);
            if (!label.isEmpty()) {
                painter->setPen(bar.color.lightness() > 150 ? Qt::black : Qt::white);
                painter->drawText(box, Qt::AlignCenter, label);
            }
        }
    }

    void drawLegendIcon(QCPPainter*, const QRectF&) const override { }

private:
    /// The label if it fits, else its part before the chunk ("F3.2" → "F3"), else nothing; the tooltip has it all.
    static QString fittingLabel(const QFontMetrics& metrics, const QString& label, const QRectF& box)
    {
        if (box.height() < metrics.height())
            return {};
        const QString shorter = label.section(QLatin1Char('.'), 0, 0);
        for (const QString& candidate : {label, shorter})
            if (metrics.horizontalAdvance(candidate) + 4 <= box.width())
                return candidate;
        return {};
    }

    static bool byStart(const GanttBar& a, const GanttBar& b) { return a.start < b.start; }
    static bool byEnd(const GanttBar& a, const GanttBar& b) { return a.end < b.end; }

    const QVector<GanttBar>* m_bars;
};

GanttChart::GanttChart(QWidget* parent)
    : ChartWidget(parent)
    , m_plottable(new GanttPlottable(plot()->xAxis, plot()->yAxis, &m_bars))
{
    plot()->setInteractions(QCP::Interactions(QCP::iRangeDrag) | QCP::iRangeZoom);
    plot()->axisRect()->setRangeDrag(Qt::Horizontal);
    plot()->axisRect()->setRangeZoom(Qt::Horizontal);
    plot()->yAxis->setRangeReversed(true); // first row on top
    plot()->yAxis->grid()->setVisible(false);
    plot()->setMouseTracking(true);
    connect(plot(), &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) { showTooltip(event->pos()); });
}

void GanttChart::setRows(const QStringList& rowNames)
{
    m_rows = rowNames;
    replot();
}

void GanttChart::setBars(QVector<GanttBar> bars)
{
    m_bars = std::move(bars);
    m_barsByRow = QVector<QVector<int>>(m_rows.size());
    for (int i = 0; i < m_bars.size(); ++i) {
        const int row = m_bars[i].row;
        if (row >= m_barsByRow.size())
            m_barsByRow.resize(row + 1);
        m_barsByRow[row].push_back(i);
    }
    for (auto& indices : m_barsByRow)
        std::sort(indices.begin(), indices.end(), [this](int a, int b) { return m_bars[a].start < m_bars[b].start; });
    plot()->xAxis->rescale();
    replot();
}

void GanttChart::setLegend(const QVector<GanttLegendEntry>& entries)
{
    placeLegendAbove(*plot());
    plot()->clearPlottables(); // removes the previous swatches and, with them, the bars' plottable
    m_plottable = new GanttPlottable(plot()->xAxis, plot()->yAxis, &m_bars);
    m_plottable->removeFromLegend();
    for (const auto& entry : entries) {
        // Empty bars: their legend icon is a filled box in the entry's colour, and they add nothing to the plot.
        auto* swatch = new QCPBars(plot()->xAxis, plot()->yAxis);
        swatch->setName(entry.text);
        swatch->setPen(entry.color.isValid() ? QPen(entry.color.darker(140)) : QPen(Qt::NoPen));
        swatch->setBrush(entry.color.isValid() ? QBrush(entry.color) : QBrush(Qt::NoBrush));
    }
    replot();
}

void GanttChart::setTimeAxisLabel(const QString& label)
{
    plot()->xAxis->setLabel(label);
    replot();
}

std::optional<int> GanttChart::barAt(double time, double row) const
{
    const int rowIndex = qRound(row);
    if (rowIndex < 0 || rowIndex >= m_barsByRow.size() || std::abs(row - rowIndex) > 0.4)
        return std::nullopt;
    const auto& indices = m_barsByRow[rowIndex];
    // Last bar starting at or before time; bars in one row do not overlap.
    auto it = std::upper_bound(
        indices.begin(), indices.end(), time, [this](double t, int index) { return t < m_bars[index].start; });
    if (it == indices.begin())
        return std::nullopt;
    const int candidate = *(it - 1);
    return time <= m_bars[candidate].end ? std::optional(candidate) : std::nullopt;
}

void GanttChart::replot()
{
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int i = 0; i < m_rows.size(); ++i)
        ticker->addTick(i, m_rows[i]);
    plot()->yAxis->setTicker(ticker);
    plot()->yAxis->setRange(-0.6, std::max<qsizetype>(1, m_rows.size()) - 0.4);
    plot()->replot();
}

void GanttChart::showTooltip(const QPoint& position)
{
    const double time = plot()->xAxis->pixelToCoord(position.x());
    const double row = plot()->yAxis->pixelToCoord(position.y());
    if (auto index = barAt(time, row))
        QToolTip::showText(plot()->mapToGlobal(position), m_bars[*index].tooltip, plot());
    else
        QToolTip::hideText();
}

} // namespace clusterplanner::ui
