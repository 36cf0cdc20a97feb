// SPDX-License-Identifier: GPL-3.0-or-later
// What a scenario report says, independent of the format it is written in (PDF pages or one HTML file).
#pragma once

#include <QString>

#include <vector>

namespace clusterplanner::ui {

class ChartSet;

/// One report section: a heading, rich text (the HTML subset QTextDocument renders), and optionally a chart.
struct ReportSection
{
    QString title;
    QString html;
    QString chartId; ///< a ChartKind id, or empty
};

struct ReportContent
{
    QString scenarioName;
    QString date; ///< ISO date of writing
    QString version; ///< ClusterPlanner version
    QString verdict; ///< one line: fits / tokens/s / time / cost
    std::vector<ReportSection> sections;
};

/// Builds every section for the set's scenario, waiting for the layout sweep (up to `sweepTimeoutMs`).
ReportContent buildReportContent(ChartSet& charts, int sweepTimeoutMs);

/// Section builders (reportsections.cpp); each reads the set's scenario and results.
ReportSection scenarioSection(ChartSet& charts);
ReportSection explorerSection(ChartSet& charts);
ReportSection topLayoutsSection(ChartSet& charts);
ReportSection memorySection(ChartSet& charts);
ReportSection stepTimeSection(ChartSet& charts);
ReportSection pipelineSection(ChartSet& charts);
ReportSection scalingSection(ChartSet& charts);
ReportSection costSection(ChartSet& charts);
ReportSection methodsSection();

/// A table with a header row; cells are HTML.
QString htmlTable(const QStringList& header, const std::vector<QStringList>& rows);
/// A two-column table of names and values.
QString htmlFacts(const std::vector<std::pair<QString, QString>>& facts);

} // namespace clusterplanner::ui
