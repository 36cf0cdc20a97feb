// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/chartexport.h"

#include <QApplication>
#include <QClipboard>
#include <QFileInfo>
#include <QSvgGenerator>

#include <qcustomplot.h>

namespace clusterplanner::ui {

namespace {

QString exportSvg(QCustomPlot& plot, const QString& path, QSize size)
{
    // QCustomPlot has no saveSvg: render through QSvgGenerator (toolchain.md §3).
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setResolution(96); // so that the physical size matches the pixel size
    generator.setTitle(plot.objectName());
    QCPPainter painter;
    if (!painter.begin(&generator))
        return QStringLiteral("cannot write SVG file %1").arg(path);
    plot.toPainter(&painter, size.width(), size.height());
    painter.end();
    return {};
}

} // namespace

QString exportPlot(QCustomPlot& plot, const QString& path, QSize size)
{
    if (size.width() < 16 || size.height() < 16 || size.width() > 20000 || size.height() > 20000)
        return QStringLiteral("export size %1×%2 is outside 16…20000 pixels").arg(size.width()).arg(size.height());
    const QString suffix = QFileInfo(path).suffix().toLower();
    bool written = false;
    if (suffix == QLatin1String("png"))
        written = plot.savePng(path, size.width(), size.height(), 1.0);
    else if (suffix == QLatin1String("pdf"))
        written = plot.savePdf(path, size.width(), size.height());
    else if (suffix == QLatin1String("svg"))
        return exportSvg(plot, path, size);
    else
        return QStringLiteral("unknown export format \"%1\" (use .png, .svg or .pdf)").arg(suffix);
    return written ? QString() : QStringLiteral("cannot write %1").arg(path);
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
