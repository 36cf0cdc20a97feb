// SPDX-License-Identifier: GPL-3.0-or-later
// The methods-and-accuracy appendix: the validation table, recomputed from the development set when it is installed.
#include "core/store/librarypaths.h"
#include "core/validation/validationreport.h"
#include "ui/report/reportcontent.h"
#include "ui/report/reporttr.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace clusterplanner::ui {

namespace {

/// data/validation beside the installed sample scenarios, or in the source tree of a build.
QString validationDirectory()
{
    QStringList candidates;
    if (const std::string installed = core::installedScenarioDirectory(); !installed.empty())
        candidates << QString::fromStdString(installed) + QStringLiteral("/../validation");
#ifdef CLUSTERPLANNER_SOURCE_SCENARIOS_DIR
    candidates << QStringLiteral(CLUSTERPLANNER_SOURCE_SCENARIOS_DIR "/../validation");
#endif
    for (const QString& dir : candidates)
        if (QFileInfo::exists(dir + QStringLiteral("/dev_cases.json")))
            return QDir::cleanPath(dir);
    return {};
}

std::string readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll().toStdString() : std::string();
}

QString summaryTable(const core::ValidationReport& report)
{
    std::vector<QStringList> rows;
    for (const auto& s : report.summaries)
        rows.push_back({QString::fromStdString(s.quantity), QString::number(s.count),
            QString::number(s.medianAbsPercent, 'f', 1), QString::number(s.p90AbsPercent, 'f', 1)});
    return htmlTable(
        {reportTr("Quantity"), reportTr("Cases"), reportTr("Median |error| %"), reportTr("90th percentile |error| %")},
        rows);
}

QString validationHtml()
{
    const QString dir = validationDirectory();
    if (dir.isEmpty())
        return reportTr("<p>The development set is not installed, so the table is not recomputed here; "
                        "docs/validation.md holds it.</p>");
    const auto cases = core::readValidationCases(readAll(dir + QStringLiteral("/dev_cases.json")));
    const auto truths = core::readValidationTruths(readAll(dir + QStringLiteral("/dev_truth.json")));
    const auto report = core::buildValidationReport(cases, truths);
    return reportTr("<p>Predicted against measured on the %1 published runs of the development set; %2 could not be "
                    "evaluated. These are in-sample figures: data/efficiency.json was fitted on these runs.</p>")
               .arg(cases.size())
               .arg(report.failures.size())
        + summaryTable(report)
        + reportTr("<p>Runs the fit never saw read wider: the published runs outside the development set "
                   "(docs/external-checks.md) and the development set's own runs, each left out of the fit in turn "
                   "(docs/cross-validation.md). Every estimate states the error band of its nearest family of "
                   "validated runs.</p>");
}

} // namespace

ReportSection methodsSection()
{
    QString html
        = reportTr("<p>Memory follows the per-term accounting of docs/methods-memory.md; step time the compute, "
                   "communication and pipeline model of docs/methods-time.md with the per-GPU efficiencies of "
                   "data/efficiency.json; parameter counts and FLOPs docs/methods-model.md; cost and energy "
                   "docs/methods-cost.md; the layout search docs/methods-search.md.</p>");
    html += QStringLiteral("<h3>") + reportTr("Accuracy") + QStringLiteral("</h3>") + validationHtml();
    html += reportTr("<p>The table is produced by:</p><pre>clusterplanner validate \\\n"
                     "    --cases data/validation/dev_cases.json \\\n"
                     "    --truth data/validation/dev_truth.json --markdown</pre>");
    return {reportTr("Methods and accuracy"), html, {}};
}

} // namespace clusterplanner::ui
