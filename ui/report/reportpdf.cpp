// SPDX-License-Identifier: GPL-3.0-or-later
// The report as PDF pages: title, contents, one page per section with its chart, page numbers in the footer.
#include "ui/charts/chartexport.h"
#include "ui/charts/chartwidget.h"
#include "ui/report/chartkinds.h"
#include "ui/report/chartset.h"
#include "ui/report/reportcontent.h"
#include "ui/report/reporttr.h"
#include "ui/report/reportwriter.h"

#include <QCoreApplication>
#include <QFont>
#include <QPainter>
#include <QPdfWriter>
#include <QTextDocument>

#include <algorithm>

namespace clusterplanner::ui {

namespace {

constexpr int kDpi = 96; // one PDF unit per screen pixel, so charts lay out as on screen
constexpr double kChartScale = 0.9; // chart text a little smaller than on screen, like a figure in a paper
constexpr int kFrontPages = 2; // title and contents

QString styleSheet()
{
    return QStringLiteral("body { font-size: 10pt; } h3 { font-size: 11pt; margin-top: 10px; } "
                          "th { font-size: 9pt; } td { font-size: 9pt; } pre { font-size: 8pt; }");
}

/// Draws rich text at the top of `area`; returns the height used.
double drawHtml(QPainter& painter, const QRectF& area, const QString& html)
{
    QTextDocument document;
    document.setDefaultStyleSheet(styleSheet());
    document.setDocumentMargin(0);
    document.setHtml(html);
    document.setTextWidth(area.width());
    painter.save();
    painter.translate(area.topLeft());
    document.drawContents(&painter, QRectF(QPointF(0, 0), QSizeF(area.width(), area.height())));
    painter.restore();
    return document.size().height();
}

QFont font(double points, bool bold)
{
    QFont f;
    f.setPointSizeF(points);
    f.setBold(bold);
    return f;
}

void drawFooter(QPainter& painter, const QRectF& page, const ReportContent& content, int number, int total)
{
    painter.setFont(font(8, false));
    painter.setPen(QColor(0x60, 0x60, 0x60));
    const QRectF band(page.left(), page.bottom() - 16, page.width(), 16);
    painter.drawText(band, Qt::AlignLeft | Qt::AlignVCenter, content.scenarioName);
    painter.drawText(band, Qt::AlignRight | Qt::AlignVCenter, reportTr("Page %1 of %2").arg(number).arg(total));
    painter.drawLine(band.topLeft(), band.topRight());
}

void drawTitlePage(QPainter& painter, const QRectF& page, const ReportContent& content)
{
    painter.setPen(Qt::black);
    painter.setFont(font(12, false));
    painter.drawText(
        QRectF(page.left(), page.height() * 0.25, page.width(), 24), reportTr("ClusterPlanner scenario report"));
    painter.setFont(font(24, true));
    const QRectF titleBox(page.left(), page.height() * 0.25 + 30, page.width(), 90);
    painter.drawText(titleBox, Qt::TextWordWrap, content.scenarioName);
    const QString facts = QStringLiteral("<p>%1 · ClusterPlanner %2</p><table width='100%' cellpadding='10'>"
                                         "<tr><td bgcolor='#eef3fa'><b>%3</b><br>%4</td></tr></table>")
                              .arg(content.date, content.version, reportTr("Verdict"), content.verdict.toHtmlEscaped());
    drawHtml(painter, QRectF(page.left(), titleBox.bottom() + 10, page.width(), 200), facts);
}

void drawContentsPage(QPainter& painter, const QRectF& page, const ReportContent& content)
{
    painter.setPen(Qt::black);
    painter.setFont(font(18, true));
    painter.drawText(QRectF(page.left(), page.top(), page.width(), 40), reportTr("Contents"));
    painter.setFont(font(11, false));
    double y = page.top() + 60;
    for (std::size_t i = 0; i < content.sections.size(); ++i, y += 26) {
        const QRectF line(page.left(), y, page.width(), 22);
        painter.drawText(line, Qt::AlignLeft, QStringLiteral("%1  %2").arg(i + 1).arg(content.sections[i].title));
        painter.drawText(line, Qt::AlignRight, QString::number(int(i) + 1 + kFrontPages));
    }
}

void drawChart(ChartPainter& painter, const QRectF& area, ChartSet& charts, const QString& id)
{
    const ChartKind* kind = chartKind(id);
    ChartWidget* chart = kind ? charts.chart(*kind) : nullptr;
    if (!chart)
        return;
    const double height = std::min(area.height(), area.width() * 0.7);
    paintDecoratedPlot(*chart->plot(), painter, QRectF(area.topLeft(), QSizeF(area.width(), height)),
        chart->decoration(), kChartScale);
}

void drawSectionPage(
    ChartPainter& chartPainter, const QRectF& page, const ReportSection& section, int index, ChartSet& charts)
{
    QPainter& painter = chartPainter.painter();
    painter.setPen(Qt::black);
    painter.setFont(font(16, true));
    painter.drawText(
        QRectF(page.left(), page.top(), page.width(), 34), QStringLiteral("%1  %2").arg(index).arg(section.title));
    const double textTop = page.top() + 44;
    const double used
        = drawHtml(painter, QRectF(page.left(), textTop, page.width(), page.bottom() - 24 - textTop), section.html);
    if (!section.chartId.isEmpty())
        drawChart(chartPainter,
            QRectF(page.left(), textTop + used + 12, page.width(), page.bottom() - 28 - (textTop + used + 12)), charts,
            section.chartId);
}

} // namespace

QString writeReportPdf(
    const ReportContent& content, ChartSet& charts, const QString& path, QPageSize::PageSizeId pageSize, int* pages)
{
    QPdfWriter writer(path);
    writer.setResolution(kDpi);
    writer.setPageSize(QPageSize(pageSize));
    writer.setPageMargins(QMarginsF(16, 16, 16, 16), QPageLayout::Millimeter);
    writer.setTitle(reportTr("Scenario report: %1").arg(content.scenarioName));
    writer.setCreator(QStringLiteral("ClusterPlanner ") + content.version);
    ChartPainter chartPainter(&writer, true);
    if (!chartPainter.isActive())
        return reportTr("cannot write PDF file %1").arg(path);
    QPainter& painter = chartPainter.painter();
    const QRectF page(QPointF(0, 0), QSizeF(writer.pageLayout().paintRectPixels(kDpi).size()));
    const int total = kFrontPages + int(content.sections.size());
    drawTitlePage(painter, page, content);
    drawFooter(painter, page, content, 1, total);
    writer.newPage();
    drawContentsPage(painter, page, content);
    drawFooter(painter, page, content, 2, total);
    for (std::size_t i = 0; i < content.sections.size(); ++i) {
        writer.newPage();
        drawSectionPage(chartPainter, page, content.sections[i], int(i) + 1, charts);
        drawFooter(painter, page, content, int(i) + 1 + kFrontPages, total);
    }
    chartPainter.end();
    if (pages)
        *pages = total;
    return {};
}

} // namespace clusterplanner::ui
