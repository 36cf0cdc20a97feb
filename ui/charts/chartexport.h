// SPDX-License-Identifier: GPL-3.0-or-later
// The one export path for every chart: PNG, SVG or PDF at a chosen size with a title and a caption, and "Copy image".
#pragma once

#include <QRectF>
#include <QSize>
#include <QString>

#include <memory>

class QCPPainter;
class QCustomPlot;
class QIODevice;
class QPaintDevice;
class QPainter;

namespace clusterplanner::ui {

/// Default export size (PlotJuggler's choice: large enough for slides, 16:10).
inline constexpr QSize kDefaultExportSize {1920, 1200};
/// The output size at which fonts and line widths are the chart's own (a 960 × 600 on-screen panel).
inline constexpr QSize kReferenceExportSize {960, 600};

/// What an exported chart carries besides the plot.
struct ChartDecoration
{
    QString title; ///< above the plot, bold
    QString caption; ///< below the plot, e.g. "scenario · layout · date"
    int dpi = 96; ///< resolution recorded in PNG files; pixel sizes do not depend on it
};

/// Factor applied to fonts and line widths for an output of `size`: 1 at kReferenceExportSize, growing with the
/// smaller of the two ratios so that text keeps its share of the picture (clamped to 0.5…20).
double exportScale(QSize size);

/// A painter on `device` that QCustomPlot can draw into (vectorized for SVG and PDF), so that pages can mix text
/// and charts without including qcustomplot.h outside ui/charts.
class ChartPainter
{
public:
    ChartPainter(QPaintDevice* device, bool vector);
    ~ChartPainter();
    bool isActive() const;
    QPainter& painter();
    void end();

private:
    friend void paintDecoratedPlot(QCustomPlot&, ChartPainter&, const QRectF&, const ChartDecoration&, double);
    std::unique_ptr<QCPPainter> m_painter;
};

/// Paints title, plot and caption into `target` (painter coordinates), fonts and pens scaled by `scale`.
void paintDecoratedPlot(
    QCustomPlot& plot, ChartPainter& painter, const QRectF& target, const ChartDecoration& decoration, double scale);

/// Writes the plot to path; the format follows the suffix (.png, .svg, .pdf). Size is in pixels (PNG, SVG) or
/// pixels at 96 dpi (PDF page). Returns an empty string on success, else a message naming the problem.
QString exportPlot(
    QCustomPlot& plot, const QString& path, QSize size = kDefaultExportSize, const ChartDecoration& decoration = {});

/// Writes the decorated plot as SVG to an open device (the report's HTML embeds charts this way).
QString writeSvg(QCustomPlot& plot, QIODevice& device, QSize size, const ChartDecoration& decoration);

/// Puts a PNG rendering of the plot on the clipboard.
void copyPlotImage(QCustomPlot& plot, QSize size = kDefaultExportSize);

/// The file-dialog filter listing the supported formats.
QString exportFileFilter();

} // namespace clusterplanner::ui
