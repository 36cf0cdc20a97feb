// SPDX-License-Identifier: GPL-3.0-or-later
// The scenario report as a paginated PDF (vector charts) or one HTML file (inline SVG charts), drawn off screen.
#pragma once

#include "core/model/scenario.h"

#include <QPageSize>
#include <QString>

namespace clusterplanner::ui {

class ChartSet;
struct ReportContent;

enum class ReportFormat { Pdf, Html };

struct ReportOptions
{
    ReportFormat format = ReportFormat::Pdf;
    QPageSize::PageSizeId page = QPageSize::A4; ///< A4 or Letter (PDF only)
    int sweepTimeoutMs = 10 * 60 * 1000; ///< how long to wait for the layout sweep
};

/// Builds the report of `scenario` and writes it to `path`. Returns an empty string or a message naming the
/// problem; `pages` receives the PDF page count (1 for HTML).
QString writeReport(const core::Scenario& scenario, const QString& path, const ReportOptions& options, int* pages);

/// Writers of an already built report (reportpdf.cpp, reporthtml.cpp).
QString writeReportPdf(
    const ReportContent& content, ChartSet& charts, const QString& path, QPageSize::PageSizeId page, int* pages);
QString writeReportHtml(const ReportContent& content, ChartSet& charts, const QString& path);

} // namespace clusterplanner::ui
