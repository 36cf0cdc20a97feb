// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/report/commandoptions.h"

#include <QFileInfo>
#include <QRegularExpression>

#include <stdexcept>

#include "core/evaluation/scenarioevaluation.h"
#include "ui/document/scenariodocument.h"

namespace clusterplanner::ui {

void parseCommand(QCommandLineParser& parser, const QStringList& arguments, const QString& description)
{
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    // Not addHelpOption(): its showHelp() exits the process, which an in-process caller (the tests) cannot survive.
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("this help"));
    parser.addOption(help);
    parser.setApplicationDescription(description);
    const bool parsed = parser.parse(arguments);
    if (parser.isSet(help)) {
        QString text = parser.helpText();
        text.replace(QRegularExpression(QStringLiteral("^Usage: \\S+")),
            QStringLiteral("Usage: clusterplanner ") + arguments.value(0));
        throw CommandHelpRequested(text.toStdString());
    }
    if (!parsed)
        throw CommandUsageError(parser.errorText().toStdString());
    if (!parser.positionalArguments().isEmpty())
        throw CommandUsageError("unexpected argument \"" + parser.positionalArguments().first().toStdString() + "\"");
}

QString requiredValue(const QCommandLineParser& parser, const QString& name)
{
    if (!parser.isSet(name))
        throw CommandUsageError("--" + name.toStdString() + " is required");
    return parser.value(name);
}

int integerValue(const QCommandLineParser& parser, const QString& name, int fallback, int min, int max)
{
    if (!parser.isSet(name))
        return fallback;
    bool ok = false;
    const int value = parser.value(name).toInt(&ok);
    if (!ok || value < min || value > max)
        throw CommandUsageError("--" + name.toStdString() + ": \"" + parser.value(name).toStdString()
            + "\" is not a whole number in " + std::to_string(min) + "…" + std::to_string(max));
    return value;
}

core::Scenario loadScenarioFile(const QString& path)
{
    // As in the engine's commands (README, "Subcommands"): a path that leads to no readable file is a usage error
    // (exit 2), a file that reads but holds no scenario the engine can use is wrong input (exit 1).
    const QFileInfo file(path);
    if (file.isDir())
        throw CommandUsageError(path.toStdString() + " is a directory, not a file");
    if (!file.isFile() || !file.isReadable())
        throw CommandUsageError("cannot read " + path.toStdString());
    ScenarioDocument document;
    if (const QString error = document.load(path); !error.isEmpty())
        throw std::runtime_error(error.toStdString());
    return document.scenario();
}

void applyLayoutOption(const QString& text, core::Scenario& scenario)
{
    const QStringList parts = text.split(QLatin1Char(','));
    std::vector<int> degrees;
    for (const QString& part : parts) {
        bool ok = false;
        degrees.push_back(part.trimmed().toInt(&ok));
        if (!ok || degrees.back() < 1)
            throw CommandUsageError("--layout: \"" + text.toStdString() + "\" is not dp,tp,pp[,cp[,ep]]");
    }
    if (degrees.size() < 3 || degrees.size() > 5)
        throw CommandUsageError("--layout: \"" + text.toStdString() + "\" is not dp,tp,pp[,cp[,ep]]");
    core::ParallelLayout& l = scenario.training.layout;
    l.dp = degrees[0];
    l.tp = degrees[1];
    l.pp = degrees[2];
    l.cp = degrees.size() > 3 ? degrees[3] : 1;
    l.ep = degrees.size() > 4 ? degrees[4] : 1;
    if (l.gpuCount() != scenario.cluster.gpuCount)
        throw CommandUsageError("--layout: dp × tp × pp × cp = " + std::to_string(l.gpuCount())
            + " GPUs, but the cluster has " + std::to_string(scenario.cluster.gpuCount));
}

core::Scenario scenarioOption(const QCommandLineParser& parser)
{
    const QString path = requiredValue(parser, QStringLiteral("scenario"));
    core::Scenario scenario = loadScenarioFile(path);
    if (parser.isSet(QStringLiteral("layout")))
        applyLayoutOption(parser.value(QStringLiteral("layout")), scenario);
    // A scenario the engine cannot evaluate at all (an unknown GPU, a field out of range) would give empty charts and
    // a sweep that never finishes: refused here, by name. A layout that does not fit is still charted.
    if (const auto error = core::evaluateScenario(scenario).error)
        throw std::runtime_error(path.toStdString() + ": " + error->text());
    return scenario;
}

} // namespace clusterplanner::ui
