// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/report/reportcontent.h"
#include "ui/report/reporttr.h"

#include "core/validation/confidence.h"
#include "ui/document/scenariodocument.h"
#include "ui/library/keyfigures.h"
#include "ui/report/chartset.h"

#include <QCoreApplication>
#include <QDate>
#include <QLocale>

namespace clusterplanner::ui {

namespace {

QString verdictLine(const core::Scenario& scenario)
{
    const core::CachedResult result = computeKeyFigures(scenario);
    const auto& d = result.detail;
    if (!d.value("valid", false))
        return reportTr("This layout cannot run: see the scenario page.");
    const QLocale locale(QLocale::English);
    const double peak = d.value("peak_memory_gib", 0.0), capacity = d.value("capacity_gib", 0.0);
    QString line = d.value("fits", false)
        ? reportTr("Fits (%1 of %2 GiB)").arg(peak, 0, 'f', 1).arg(capacity, 0, 'f', 1)
        : reportTr("Does not fit (%1 GiB needed, %2 GiB usable)").arg(peak, 0, 'f', 1).arg(capacity, 0, 'f', 1);
    line += reportTr(" · %1 tokens/s").arg(locale.toString(result.figures.tokensPerS, 'f', 0));
    // The band beside the figure it qualifies: the p90 error of the nearest validated family (the scenario page says
    // which family and how near).
    if (const auto bands = core::confidenceBands(scenario); !bands.empty()) {
        const core::ConfidenceBand& band = bands.front();
        if (band.runs == 0 || band.match == core::BandMatch::Unvalidated)
            line += reportTr(" (outside anything validated)"); // the pooled band need not carry over
        else
            line += reportTr(" (±%1 %, p90 of validated runs)").arg(band.p90AbsPercent, 0, 'f', 0);
    }
    if (d.contains("training_days"))
        line += reportTr(" · %1 days").arg(d.value("training_days", 0.0), 0, 'f', 1);
    line += reportTr(" · US$ %1 M").arg(result.figures.costUsd / 1e6, 0, 'f', 2);
    return line;
}

} // namespace

QString htmlTable(const QStringList& header, const std::vector<QStringList>& rows)
{
    QString html = QStringLiteral("<table width='100%' cellspacing='0' cellpadding='3' border='0'><tr>");
    for (const QString& cell : header)
        html += QStringLiteral("<th align='left' bgcolor='#e4e8ee'>") + cell + QStringLiteral("</th>");
    html += QStringLiteral("</tr>");
    for (std::size_t i = 0; i < rows.size(); ++i) {
        html += i % 2 ? QStringLiteral("<tr bgcolor='#f4f6f9'>") : QStringLiteral("<tr>");
        for (const QString& cell : rows[i])
            html += QStringLiteral("<td>") + cell + QStringLiteral("</td>");
        html += QStringLiteral("</tr>");
    }
    return html + QStringLiteral("</table>");
}

QString htmlFacts(const std::vector<std::pair<QString, QString>>& facts)
{
    std::vector<QStringList> rows;
    for (const auto& [name, value] : facts)
        rows.push_back({QStringLiteral("<b>") + name + QStringLiteral("</b>"), value});
    return htmlTable({reportTr("Quantity"), reportTr("Value")}, rows);
}

ReportContent buildReportContent(ChartSet& charts, int sweepTimeoutMs)
{
    const core::Scenario& scenario = charts.document()->scenario();
    charts.waitForSweep(sweepTimeoutMs);
    ReportContent content;
    content.scenarioName = QString::fromStdString(scenario.name);
    content.date = QDate::currentDate().toString(Qt::ISODate);
    content.version = QStringLiteral(CLUSTERPLANNER_VERSION);
    content.verdict = verdictLine(scenario);
    content.sections = {scenarioSection(charts), explorerSection(charts), topLayoutsSection(charts),
        memorySection(charts), stepTimeSection(charts), pipelineSection(charts), scalingSection(charts),
        costSection(charts), methodsSection()};
    return content;
}

} // namespace clusterplanner::ui
