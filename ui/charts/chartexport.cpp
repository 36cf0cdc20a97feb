// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/chartexport.h"

#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QPdfWriter>
#include <QSvgGenerator>

#include <qcustomplot.h>

#include <algorithm>

namespace clusterplanner::ui {

namespace {

constexpr double kScreenDpi = 96.0;
constexpr double kMetresPerInch = 0.0254;

QFont scaledFont(const QFont& base, double pixels, bool bold)
{
    QFont font(base);
    font.setPixelSize(std::max(1, int(pixels + 0.5)));
    font.setBold(bold);
    return font;
}

/// Height of a text band for a font of `pixels`, with room above and below.
double bandHeight(double pixels)
{
    return pixels * 1.9;
}

QString exportPng(QCustomPlot& plot, const QString& path, QSize size, const ChartDecoration& decoration)
{
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    // Point-sized fonts are laid out at screen resolution; the requested dpi is only recorded afterwards.
    const int screenDpm = int(kScreenDpi / kMetresPerInch + 0.5);
    image.setDotsPerMeterX(screenDpm);
    image.setDotsPerMeterY(screenDpm);
    image.fill(plot.palette().color(QPalette::Base));
    ChartPainter painter(&image, false);
    paintDecoratedPlot(plot, painter, QRectF(QPointF(0, 0), size), decoration, exportScale(size));
    painter.end();
    const int dpm = int(decoration.dpi / kMetresPerInch + 0.5);
    image.setDotsPerMeterX(dpm);
    image.setDotsPerMeterY(dpm);
    return image.save(path, "PNG") ? QString() : QStringLiteral("cannot write %1").arg(path);
}

QString exportSvg(QCustomPlot& plot, const QString& path, QSize size, const ChartDecoration& decoration)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QStringLiteral("cannot write SVG file %1").arg(path);
    return writeSvg(plot, file, size, decoration);
}

QString exportPdf(QCustomPlot& plot, const QString& path, QSize size, const ChartDecoration& decoration)
{
    QPdfWriter writer(path);
    writer.setResolution(int(kScreenDpi)); // one PDF unit per export pixel
    writer.setPageSize(QPageSize(QSizeF(size) * 72.0 / kScreenDpi, QPageSize::Point));
    writer.setPageMargins(QMarginsF(0, 0, 0, 0));
    writer.setTitle(decoration.title);
    writer.setCreator(QStringLiteral("ClusterPlanner"));
    ChartPainter painter(&writer, true);
    if (!painter.isActive())
        return QStringLiteral("cannot write PDF file %1").arg(path);
    paintDecoratedPlot(plot, painter, QRectF(QPointF(0, 0), size), decoration, exportScale(size));
    painter.end();
    return {};
}

} // namespace

double exportScale(QSize size)
{
    const double byWidth = double(size.width()) / kReferenceExportSize.width();
    const double byHeight = double(size.height()) / kReferenceExportSize.height();
    return std::clamp(std::min(byWidth, byHeight), 0.5, 20.0);
}

ChartPainter::ChartPainter(QPaintDevice* device, bool vector)
    : m_painter(std::make_unique<QCPPainter>())
{
    if (!m_painter->begin(device))
        return;
    m_painter->setRenderHint(QPainter::Antialiasing);
    m_painter->setRenderHint(QPainter::TextAntialiasing);
    if (vector)
        m_painter->setMode(QCPPainter::pmVectorized);
}

ChartPainter::~ChartPainter() = default;

bool ChartPainter::isActive() const
{
    return m_painter->isActive();
}

QPainter& ChartPainter::painter()
{
    return *m_painter;
}

void ChartPainter::end()
{
    m_painter->end();
}

void paintDecoratedPlot(QCustomPlot& plot, ChartPainter& chartPainter, const QRectF& target,
    const ChartDecoration& decoration, double scale)
{
    QCPPainter& painter = *chartPainter.m_painter;
    painter.save();
    const QPalette palette = plot.palette();
    painter.fillRect(target, palette.color(QPalette::Base));
    const double titlePx = 20.0 * scale, captionPx = 12.0 * scale, margin = 8.0 * scale;
    QRectF plotRect = target.adjusted(margin, margin, -margin, -margin);
    painter.setPen(palette.color(QPalette::Text));
    if (!decoration.title.isEmpty()) {
        painter.setFont(scaledFont(plot.font(), titlePx, true));
        const QRectF band(plotRect.left(), plotRect.top(), plotRect.width(), bandHeight(titlePx));
        painter.drawText(band, Qt::AlignLeft | Qt::AlignVCenter, decoration.title);
        plotRect.setTop(band.bottom());
    }
    if (!decoration.caption.isEmpty()) {
        painter.setFont(scaledFont(plot.font(), captionPx, false));
        const QRectF band(
            plotRect.left(), plotRect.bottom() - bandHeight(captionPx), plotRect.width(), bandHeight(captionPx));
        const QString text = painter.fontMetrics().elidedText(decoration.caption, Qt::ElideMiddle, int(band.width()));
        painter.drawText(band, Qt::AlignLeft | Qt::AlignVCenter, text);
        plotRect.setBottom(band.top());
    }
    // The plot lays itself out at the reference scale; the painter's scale then enlarges text and lines with it.
    painter.translate(plotRect.topLeft());
    painter.scale(scale, scale);
    painter.setMode(QCPPainter::pmNonCosmetic);
    plot.toPainter(&painter, std::max(16, int(plotRect.width() / scale)), std::max(16, int(plotRect.height() / scale)));
    painter.restore();
}

QString exportPlot(QCustomPlot& plot, const QString& path, QSize size, const ChartDecoration& decoration)
{
    if (size.width() < 16 || size.height() < 16 || size.width() > 20000 || size.height() > 20000)
        return QStringLiteral("export size %1×%2 is outside 16…20000 pixels").arg(size.width()).arg(size.height());
    if (decoration.dpi < 10 || decoration.dpi > 2400)
        return QStringLiteral("resolution %1 dpi is outside 10…2400").arg(decoration.dpi);
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png"))
        return exportPng(plot, path, size, decoration);
    if (suffix == QLatin1String("pdf"))
        return exportPdf(plot, path, size, decoration);
    if (suffix == QLatin1String("svg"))
        return exportSvg(plot, path, size, decoration);
    return QStringLiteral("unknown export format \"%1\" (use .png, .svg or .pdf)").arg(suffix);
}

QString writeSvg(QCustomPlot& plot, QIODevice& device, QSize size, const ChartDecoration& decoration)
{
    // QCustomPlot has no saveSvg: render through QSvgGenerator.
    QSvgGenerator generator;
    generator.setOutputDevice(&device);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setResolution(int(kScreenDpi)); // so that the physical size matches the pixel size
    generator.setTitle(decoration.title);
    generator.setDescription(decoration.caption);
    ChartPainter painter(&generator, true);
    if (!painter.isActive())
        return QStringLiteral("cannot write SVG");
    paintDecoratedPlot(plot, painter, QRectF(QPointF(0, 0), size), decoration, exportScale(size));
    painter.end();
    return {};
}

void copyPlotImage(QCustomPlot& plot, QSize size)
{
    QApplication::clipboard()->setPixmap(plot.toPixmap(size.width(), size.height()));
}

QString exportFileFilter()
{
    return QStringLiteral("PNG image (*.png);;SVG vector image (*.svg);;PDF document (*.pdf)");
}

} // namespace clusterplanner::ui
