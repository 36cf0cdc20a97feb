// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/report/reportwriter.h"

#include "ui/report/chartset.h"
#include "ui/report/reportcontent.h"

#include <QApplication>
#include <QStyle>

namespace clusterplanner::ui {

QString writeReport(const core::Scenario& scenario, const QString& path, const ReportOptions& options, int* pages)
{
    ChartSet charts(scenario);
    charts.setPalette(QApplication::style()->standardPalette()); // printed pages are light
    const ReportContent content = buildReportContent(charts, options.sweepTimeoutMs);
    if (options.format == ReportFormat::Html) {
        if (pages)
            *pages = 1;
        return writeReportHtml(content, charts, path);
    }
    return writeReportPdf(content, charts, path, options.page, pages);
}

} // namespace clusterplanner::ui
