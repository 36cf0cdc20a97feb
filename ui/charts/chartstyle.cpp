// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/chartstyle.h"

#include <qcustomplot.h>

#include <array>

namespace clusterplanner::ui {

namespace {

void styleAxis(QCPAxis* axis, const QColor& text, const QColor& grid)
{
    axis->setBasePen(QPen(text));
    axis->setTickPen(QPen(text));
    axis->setSubTickPen(QPen(text));
    axis->setTickLabelColor(text);
    axis->setLabelColor(text);
    axis->grid()->setPen(QPen(grid, 1, Qt::DotLine));
    axis->grid()->setSubGridVisible(false);
}

} // namespace

bool isDarkPalette(const QPalette& palette)
{
    return palette.color(QPalette::Window).lightness() < 128;
}

void applyChartStyle(QCustomPlot& plot, const QPalette& palette)
{
    const QColor background = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    QColor grid = text;
    grid.setAlpha(60);
    plot.setBackground(background);
    for (QCPAxisRect* rect : plot.axisRects())
        for (QCPAxis* axis : rect->axes())
            styleAxis(axis, text, grid);
    // Colour scales keep their axis outside axisRects().
    for (QCPLayoutElement* element : plot.plotLayout()->elements(true))
        if (auto* scale = qobject_cast<QCPColorScale*>(element))
            styleAxis(scale->axis(), text, grid);
    if (plot.legend) {
        plot.legend->setBrush(background);
        plot.legend->setTextColor(text);
        plot.legend->setBorderPen(QPen(grid));
    }
}

void placeLegendAbove(QCustomPlot& plot)
{
    if (plot.legend->layout() == plot.plotLayout())
        return;
    plot.axisRect()->insetLayout()->take(plot.legend);
    plot.plotLayout()->insertRow(0);
    plot.plotLayout()->addElement(0, 0, plot.legend);
    plot.plotLayout()->setRowStretchFactor(0, 0.001); // as tall as the legend needs, no more
    plot.legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot.legend->setVisible(true);
}

QColor categoryColor(int index)
{
    // Okabe & Ito (2008) palette, without black, then a few extras.
    static const std::array<QColor, 10> colors {QColor(0x00, 0x72, 0xB2), QColor(0xE6, 0x9F, 0x00),
        QColor(0x00, 0x9E, 0x73), QColor(0xCC, 0x79, 0xA7), QColor(0x56, 0xB4, 0xE9), QColor(0xD5, 0x5E, 0x00),
        QColor(0xF0, 0xE4, 0x42), QColor(0x88, 0x88, 0x88), QColor(0x6A, 0x3D, 0x9A), QColor(0xB1, 0x59, 0x28)};
    return colors[static_cast<std::size_t>((index % int(colors.size()) + int(colors.size())) % int(colors.size()))];
}

} // namespace clusterplanner::ui
