// SPDX-License-Identifier: GPL-3.0-or-later
// clusterplanner report --scenario F --out FILE: the scenario report, PDF or HTML, drawn off screen.
#include "ui/report/commandoptions.h"
#include "ui/report/qtcommands.h"
#include "ui/report/reportwriter.h"

#include <QFileInfo>

#include <ostream>

namespace clusterplanner::ui {

namespace {

void addReportOptions(QCommandLineParser& parser)
{
    parser.addOptions({
        {QStringLiteral("scenario"), QStringLiteral("scenario file"), QStringLiteral("file")},
        {QStringLiteral("layout"), QStringLiteral("dp,tp,pp[,cp[,ep]]"), QStringLiteral("degrees")},
        {QStringLiteral("out"), QStringLiteral("output file"), QStringLiteral("file")},
        {QStringLiteral("format"), QStringLiteral("pdf or html (default: from the suffix)"), QStringLiteral("format")},
        {QStringLiteral("page"), QStringLiteral("a4 or letter"), QStringLiteral("size")},
    });
}

ReportFormat formatOption(const QCommandLineParser& parser, const QString& path)
{
    QString format = parser.value(QStringLiteral("format"));
    if (format.isEmpty())
        format = QFileInfo(path).suffix().toLower() == QLatin1String("html") ? QStringLiteral("html")
                                                                             : QStringLiteral("pdf");
    if (format == QLatin1String("pdf"))
        return ReportFormat::Pdf;
    if (format == QLatin1String("html"))
        return ReportFormat::Html;
    throw CommandUsageError("--format: unknown value \"" + format.toStdString() + "\" (one of pdf, html)");
}

QPageSize::PageSizeId pageOption(const QCommandLineParser& parser)
{
    const QString page = parser.value(QStringLiteral("page")).toLower();
    if (page.isEmpty() || page == QLatin1String("a4"))
        return QPageSize::A4;
    if (page == QLatin1String("letter"))
        return QPageSize::Letter;
    throw CommandUsageError("--page: unknown value \"" + page.toStdString() + "\" (one of a4, letter)");
}

} // namespace

int runReportCommand(const QStringList& arguments, std::ostream& out, std::ostream& err)
{
    QCommandLineParser parser;
    addReportOptions(parser);
    parseCommand(parser, arguments,
        QStringLiteral("Writes a scenario's multi-page report (its model, cluster and layout, the charts of the panels "
                       "with their captions, the expected error band) as PDF or HTML, headless.\n"
                       "Example: clusterplanner report --scenario data/scenarios/llama3-70b-256-h100.cplan.json "
                       "--out report.pdf"));
    core::Scenario scenario = scenarioOption(parser);
    const QString path = requiredValue(parser, QStringLiteral("out"));
    ReportOptions options;
    options.format = formatOption(parser, path);
    options.page = pageOption(parser);
    int pages = 0;
    if (const QString error = writeReport(scenario, path, options, &pages); !error.isEmpty()) {
        err << "report: " << error.toStdString() << "\n";
        return 1;
    }
    out << "wrote " << path.toStdString() << " (" << pages << (pages == 1 ? " page" : " pages") << ")\n";
    return 0;
}

} // namespace clusterplanner::ui
