// SPDX-License-Identifier: GPL-3.0-or-later
// clusterplanner chart --scenario F --chart KIND --out FILE: one panel's chart, drawn off screen and exported.
#include "ui/charts/chartwidget.h"
#include "ui/mainwindow/apppalette.h"
#include "ui/report/chartkinds.h"
#include "ui/report/chartset.h"
#include "ui/report/commandoptions.h"
#include "ui/report/qtcommands.h"

#include <ostream>

namespace clusterplanner::ui {

namespace {

constexpr int kSweepTimeoutMs = 10 * 60 * 1000;

void addChartOptions(QCommandLineParser& parser)
{
    parser.addOptions({
        {QStringLiteral("scenario"), QStringLiteral("scenario file"), QStringLiteral("file")},
        {QStringLiteral("chart"), QStringLiteral("chart: ") + chartKindIds().join(QLatin1Char('|')),
            QStringLiteral("kind")},
        {QStringLiteral("out"), QStringLiteral("output .png, .svg or .pdf"), QStringLiteral("file")},
        {QStringLiteral("layout"), QStringLiteral("dp,tp,pp[,cp[,ep]]"), QStringLiteral("degrees")},
        {QStringLiteral("width"), QStringLiteral("width in pixels"), QStringLiteral("px")},
        {QStringLiteral("height"), QStringLiteral("height in pixels"), QStringLiteral("px")},
        {QStringLiteral("dpi"), QStringLiteral("resolution recorded in the PNG"), QStringLiteral("dpi")},
        {QStringLiteral("theme"), QStringLiteral("light or dark"), QStringLiteral("theme")},
    });
}

const ChartKind& chartOption(const QCommandLineParser& parser)
{
    const QString id = requiredValue(parser, QStringLiteral("chart"));
    if (const ChartKind* kind = chartKind(id))
        return *kind;
    throw CommandUsageError("--chart: unknown value \"" + id.toStdString() + "\" (one of "
        + chartKindIds().join(QStringLiteral(", ")).toStdString() + ")");
}

bool darkTheme(const QCommandLineParser& parser)
{
    const QString theme = parser.value(QStringLiteral("theme"));
    if (theme.isEmpty() || theme == QLatin1String("light"))
        return false;
    if (theme == QLatin1String("dark"))
        return true;
    throw CommandUsageError("--theme: unknown value \"" + theme.toStdString() + "\" (one of light, dark)");
}

} // namespace

int runChartCommand(const QStringList& arguments, std::ostream& out, std::ostream& err)
{
    QCommandLineParser parser;
    addChartOptions(parser);
    parseCommand(parser, arguments,
        QStringLiteral("Draws one chart of a scenario to a PNG, SVG or PDF file with its caption, headless (the "
                       "charts of the panels; the format follows the --out extension).\n"
                       "Example: clusterplanner chart --scenario data/scenarios/llama3-70b-256-h100.cplan.json "
                       "--chart memory --out memory.png"));
    core::Scenario scenario = scenarioOption(parser);
    const ChartKind& kind = chartOption(parser);
    const QString path = requiredValue(parser, QStringLiteral("out"));
    const QSize size(integerValue(parser, QStringLiteral("width"), 1920, 16, 20000),
        integerValue(parser, QStringLiteral("height"), 1200, 16, 20000));
    const int dpi = integerValue(parser, QStringLiteral("dpi"), 96, 10, 2400);
    applyAppPalette(darkTheme(parser));
    ChartSet charts(scenario);
    ChartWidget* chart = charts.chart(kind);
    if (kind.needsSweep && !charts.waitForSweep(kSweepTimeoutMs))
        err << "chart: the layout sweep did not finish; the chart shows what was evaluated\n";
    if (const QString error = exportPlot(*chart->plot(), path, size, chart->decoration(dpi)); !error.isEmpty()) {
        err << "chart: " << error.toStdString() << "\n";
        return 1;
    }
    out << "wrote " << path.toStdString() << " (" << size.width() << "×" << size.height() << ")\n";
    return 0;
}

} // namespace clusterplanner::ui
