// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/report/qtcommands.h"

#include "ui/report/commandoptions.h"

#include <cstring>
#include <ostream>

namespace clusterplanner::ui {

bool isQtCommand(const char* name)
{
    return std::strcmp(name, "chart") == 0 || std::strcmp(name, "report") == 0;
}

void prepareHeadlessPlatform()
{
    // Nothing is shown: the offscreen platform needs no display server.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
}

std::vector<std::pair<std::string, std::string>> qtCommandsHelp()
{
    return {{"chart",
                "one chart of a scenario as PNG, SVG or PDF (--scenario F --chart KIND --out FILE [--width W "
                "--height H --dpi D --theme light|dark])"},
        {"report",
            "a scenario's multi-page report as PDF or HTML (--scenario F --out FILE [--layout dp,tp,pp] "
            "[--format pdf|html] [--page a4|letter])"}};
}

int runQtCommand(const QStringList& arguments, std::ostream& out, std::ostream& err)
{
    const QString name = arguments.value(0);
    try {
        if (name == QLatin1String("chart"))
            return runChartCommand(arguments, out, err);
        if (name == QLatin1String("report"))
            return runReportCommand(arguments, out, err);
    } catch (const CommandHelpRequested& help) {
        out << help.what();
        return 0;
    } catch (const CommandUsageError& error) {
        err << "clusterplanner " << name.toStdString() << ": " << error.what() << "\n";
        return 2;
    } catch (const std::exception& error) {
        err << "clusterplanner " << name.toStdString() << ": error: " << error.what() << "\n";
        return 1;
    }
    err << "clusterplanner: unknown command \"" << name.toStdString() << "\"\n";
    return 2;
}

} // namespace clusterplanner::ui
