// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/sceneexport.h"

#include <QFileInfo>
#include <QGraphicsScene>
#include <QGuiApplication>
#include <QImage>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>

namespace clusterplanner::ui {

namespace {

constexpr double kScreenDpi = 96.0;
constexpr double kMetresPerInch = 0.0254;

void paintDecoratedScene(QPainter& painter, QGraphicsScene& scene, const QRectF& target, const ChartDecoration& d)
{
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    painter.fillRect(target, Qt::white);
    const double scale = exportScale(target.size().toSize());
    const double titlePx = 20.0 * scale, captionPx = 12.0 * scale, margin = 8.0 * scale;
    QRectF area = target.adjusted(margin, margin, -margin, -margin);
    painter.setPen(Qt::black);
    QFont font = QGuiApplication::font();
    if (!d.title.isEmpty()) {
        font.setPixelSize(int(titlePx + 0.5));
        font.setBold(true);
        painter.setFont(font);
        const QRectF band(area.left(), area.top(), area.width(), titlePx * 1.9);
        painter.drawText(band, Qt::AlignLeft | Qt::AlignVCenter, d.title);
        area.setTop(band.bottom());
    }
    if (!d.caption.isEmpty()) {
        font.setPixelSize(int(captionPx + 0.5));
        font.setBold(false);
        painter.setFont(font);
        const QRectF band(area.left(), area.bottom() - captionPx * 1.9, area.width(), captionPx * 1.9);
        painter.drawText(band, Qt::AlignLeft | Qt::AlignVCenter,
            painter.fontMetrics().elidedText(d.caption, Qt::ElideMiddle, int(band.width())));
        area.setBottom(band.top());
    }
    scene.render(&painter, area, scene.sceneRect(), Qt::KeepAspectRatio);
}

QString writePng(QGraphicsScene& scene, const QString& path, QSize size, const ChartDecoration& d)
{
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    const int screenDpm = int(kScreenDpi / kMetresPerInch + 0.5);
    image.setDotsPerMeterX(screenDpm);
    image.setDotsPerMeterY(screenDpm);
    {
        QPainter painter(&image);
        paintDecoratedScene(painter, scene, QRectF(QPointF(0, 0), size), d);
    }
    const int dpm = int(d.dpi / kMetresPerInch + 0.5);
    image.setDotsPerMeterX(dpm);
    image.setDotsPerMeterY(dpm);
    return image.save(path, "PNG") ? QString() : QStringLiteral("cannot write %1").arg(path);
}

QString writeSceneSvg(QGraphicsScene& scene, const QString& path, QSize size, const ChartDecoration& d)
{
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setResolution(int(kScreenDpi));
    generator.setTitle(d.title);
    generator.setDescription(d.caption);
    QPainter painter;
    if (!painter.begin(&generator))
        return QStringLiteral("cannot write SVG file %1").arg(path);
    paintDecoratedScene(painter, scene, QRectF(QPointF(0, 0), size), d);
    painter.end();
    return {};
}

QString writePdf(QGraphicsScene& scene, const QString& path, QSize size, const ChartDecoration& d)
{
    QPdfWriter writer(path);
    writer.setResolution(int(kScreenDpi));
    writer.setPageSize(QPageSize(QSizeF(size) * 72.0 / kScreenDpi, QPageSize::Point));
    writer.setPageMargins(QMarginsF(0, 0, 0, 0));
    writer.setTitle(d.title);
    writer.setCreator(QStringLiteral("ClusterPlanner"));
    QPainter painter;
    if (!painter.begin(&writer))
        return QStringLiteral("cannot write PDF file %1").arg(path);
    paintDecoratedScene(painter, scene, QRectF(QPointF(0, 0), size), d);
    painter.end();
    return {};
}

} // namespace

QString exportScene(QGraphicsScene& scene, const QString& path, QSize size, const ChartDecoration& decoration)
{
    if (size.width() < 16 || size.height() < 16 || size.width() > 20000 || size.height() > 20000)
        return QStringLiteral("export size %1×%2 is outside 16…20000 pixels").arg(size.width()).arg(size.height());
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png"))
        return writePng(scene, path, size, decoration);
    if (suffix == QLatin1String("svg"))
        return writeSceneSvg(scene, path, size, decoration);
    if (suffix == QLatin1String("pdf"))
        return writePdf(scene, path, size, decoration);
    return QStringLiteral("unknown export format \"%1\" (use .png, .svg or .pdf)").arg(suffix);
}

} // namespace clusterplanner::ui
