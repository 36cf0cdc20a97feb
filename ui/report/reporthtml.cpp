// SPDX-License-Identifier: GPL-3.0-or-later
// The report as one self-contained HTML file: the same sections, each chart inline as SVG.
#include "ui/charts/chartexport.h"
#include "ui/charts/chartwidget.h"
#include "ui/report/chartkinds.h"
#include "ui/report/chartset.h"
#include "ui/report/reportcontent.h"
#include "ui/report/reporttr.h"
#include "ui/report/reportwriter.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QFile>
#include <QSaveFile>

namespace clusterplanner::ui {

namespace {

constexpr QSize kHtmlChartSize {960, 600};

QString inlineSvg(ChartSet& charts, const QString& id)
{
    const ChartKind* kind = chartKind(id);
    ChartWidget* chart = kind ? charts.chart(*kind) : nullptr;
    if (!chart)
        return {};
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    if (!writeSvg(*chart->plot(), buffer, kHtmlChartSize, chart->decoration()).isEmpty())
        return {};
    QString svg = QString::fromUtf8(buffer.data());
    svg.remove(0, svg.indexOf(QLatin1String("<svg"))); // drop the XML prolog: the SVG sits inside HTML
    return QStringLiteral("<figure>") + svg + QStringLiteral("</figure>");
}

QString head(const ReportContent& content)
{
    return QStringLiteral("<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'><title>%1</title><style>"
                          "body{font-family:sans-serif;max-width:60em;margin:2em auto;color:#222}"
                          "table{border-collapse:collapse}th,td{padding:3px 8px}"
                          "figure svg{width:100%;height:auto}.verdict{background:#eef3fa;padding:1em}"
                          "</style></head><body>\n")
        .arg(reportTr("Scenario report: %1").arg(content.scenarioName.toHtmlEscaped()));
}

QString titleBlock(const ReportContent& content)
{
    return QStringLiteral("<p>%1</p><h1>%2</h1><p>%3 · ClusterPlanner %4</p><p class='verdict'><b>%5</b><br>%6</p>\n")
        .arg(reportTr("ClusterPlanner scenario report"), content.scenarioName.toHtmlEscaped(), content.date,
            content.version, reportTr("Verdict"), content.verdict.toHtmlEscaped());
}

QString contents(const ReportContent& content)
{
    QString html = QStringLiteral("<h2>") + reportTr("Contents") + QStringLiteral("</h2><ol>");
    for (std::size_t i = 0; i < content.sections.size(); ++i)
        html += QStringLiteral("<li><a href='#s%1'>%2</a></li>").arg(i + 1).arg(content.sections[i].title);
    return html + QStringLiteral("</ol>\n");
}

} // namespace

QString writeReportHtml(const ReportContent& content, ChartSet& charts, const QString& path)
{
    QString html = head(content) + titleBlock(content) + contents(content);
    for (std::size_t i = 0; i < content.sections.size(); ++i) {
        const ReportSection& section = content.sections[i];
        html += QStringLiteral("<h2 id='s%1'>%1 %2</h2>\n").arg(i + 1).arg(section.title) + section.html;
        if (!section.chartId.isEmpty())
            html += inlineSvg(charts, section.chartId);
        html += QLatin1Char('\n');
    }
    html += QStringLiteral("</body></html>\n");
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(html.toUtf8()) < 0 || !file.commit())
        return reportTr("cannot write %1").arg(path);
    return {};
}

} // namespace clusterplanner::ui
