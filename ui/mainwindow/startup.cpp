// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/mainwindow/startup.h"

#include "core/cli/commands.h"
#include "ui/mainwindow/apppalette.h"
#include "ui/mainwindow/mainwindow.h"
#include "ui/mainwindow/panelregistry.h"
#include "ui/settings/settings.h"
#include "ui/sweep/sweeprunner.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QIcon>
#include <QMessageBox>
#include <QSettings>
#include <QTimer>

#include <iostream>
#include <memory>

namespace clusterplanner::ui {

namespace {

constexpr int kScreenshotDelayMs = 300; // lets the window lay out and paint once before grab()
constexpr int kScreenshotPollMs = 50;
constexpr int kScreenshotSettleLimitMs = 20000; // a sweep that takes longer is shown as far as it got
const QSize kScreenshotSizePx(1600, 1000);

struct Options
{
    QCommandLineOption screenshot {QStringLiteral("screenshot"),
        QObject::tr("Render the main window to a PNG file and exit."), QObject::tr("PNG")};
    QCommandLineOption panel {QStringLiteral("panel"),
        QObject::tr("Show and raise this panel (%1).").arg(panelNames().join(QStringLiteral(", "))),
        QObject::tr("NAME")};
    QCommandLineOption settings {QStringLiteral("settings"),
        QObject::tr("Read and write settings in this INI file instead of the user's settings."), QObject::tr("FILE")};
};

QString usageError(const QString& message)
{
    return QStringLiteral("clusterplanner: %1\nTry 'clusterplanner --help'.\n").arg(message);
}

/// A lone word that is no file is most likely a mistyped subcommand.
bool looksLikeCommand(const QString& word)
{
    return !QFileInfo::exists(word) && !word.contains(QLatin1Char('.')) && !word.contains(QLatin1Char('/'));
}

QString helpText(const QCommandLineParser& parser)
{
    QString text = parser.helpText();
    // Qt names the program "<executable_name>" when no QCoreApplication exists yet.
    text.replace(QStringLiteral("<executable_name>"), QStringLiteral("clusterplanner"));
    return text + QLatin1Char('\n') + QString::fromStdString(core::cli::commandsHelp())
        + QObject::tr("  (run 'clusterplanner COMMAND --help' for a command's options)\n");
}

CommandLine finished(int exitCode, const QString& output)
{
    CommandLine result;
    result.finished = true;
    result.exitCode = exitCode;
    result.output = output;
    return result;
}

} // namespace

void setApplicationInfo()
{
    QCoreApplication::setApplicationName(QStringLiteral("ClusterPlanner"));
    QCoreApplication::setOrganizationName(QStringLiteral("ClusterPlanner"));
    QCoreApplication::setApplicationVersion(QStringLiteral(CLUSTERPLANNER_VERSION));
}

CommandLine parseCommandLine(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QObject::tr("Plan GPU training clusters: memory, time, cost, parallel layouts."));
    const QCommandLineOption help = parser.addHelpOption();
    const QCommandLineOption version = parser.addVersionOption();
    const Options options;
    parser.addOptions({options.screenshot, options.panel, options.settings});
    parser.addPositionalArgument(QStringLiteral("FILE.cplan.json"),
        QObject::tr("Scenario file to open (default: a built-in example)."), QStringLiteral("[FILE.cplan.json]"));
    if (!parser.parse(arguments))
        return finished(2, usageError(parser.errorText()));
    if (parser.isSet(help) || parser.isSet(QStringLiteral("help-all")))
        return finished(0, helpText(parser));
    if (parser.isSet(version))
        return finished(0, QStringLiteral("clusterplanner %1\n").arg(QStringLiteral(CLUSTERPLANNER_VERSION)));
    const QStringList files = parser.positionalArguments();
    if (files.size() > 1)
        return finished(2, usageError(QObject::tr("only one scenario file can be opened (got %1)").arg(files.size())));
    if (files.size() == 1 && looksLikeCommand(files.front()))
        return finished(
            2, usageError(QObject::tr("'%1' is neither a command nor an existing file").arg(files.front())));
    CommandLine result;
    result.options = {
        files.value(0), parser.value(options.screenshot), parser.value(options.panel), parser.value(options.settings)};
    if (!result.options.panel.isEmpty() && !panelNames().contains(result.options.panel))
        return finished(2,
            usageError(QObject::tr("unknown panel '%1' (known: %2)")
                           .arg(result.options.panel, panelNames().join(QStringLiteral(", ")))));
    return result;
}

namespace {

/// Saves the window once no sweep is running any more (or the limit passed), so that a screenshot shows complete
/// results, then quits.
void grabWhenSettled(QWidget& window, const QString& path, int remainingMs)
{
    const auto runners = window.findChildren<SweepRunner*>();
    const bool busy = std::any_of(runners.begin(), runners.end(), [](SweepRunner* r) { return r->isRunning(); });
    if (busy && remainingMs > 0) {
        QTimer::singleShot(kScreenshotPollMs, &window,
            [&window, path, remainingMs] { grabWhenSettled(window, path, remainingMs - kScreenshotPollMs); });
        return;
    }
    // One more event-loop turn so that the final results are painted.
    QTimer::singleShot(kScreenshotPollMs, &window, [&window, path] {
        const bool saved = window.grab().save(path, "PNG");
        if (!saved)
            std::cerr << "clusterplanner: cannot write screenshot " << path.toStdString() << "\n";
        QCoreApplication::exit(saved ? 0 : 1);
    });
}

} // namespace

int runGui(const StartupOptions& options)
{
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/clusterplanner.svg")));
    const auto qsettings = options.settingsPath.isEmpty()
        ? std::make_unique<QSettings>()
        : std::make_unique<QSettings>(options.settingsPath, QSettings::IniFormat);
    Settings settings(*qsettings);
    if (settings.darkPalette())
        applyAppPalette(true);
    MainWindow window(settings);
    const bool screenshot = !options.screenshotPath.isEmpty();
    QString openError;
    if (!options.file.isEmpty())
        openError = window.openFile(options.file);
    if (!openError.isEmpty() && screenshot) {
        std::cerr << "clusterplanner: " << openError.toStdString() << "\n";
        return 1;
    }
    if (!options.panel.isEmpty())
        window.showPanel(options.panel);
    if (screenshot)
        window.resize(kScreenshotSizePx);
    window.show();
    if (!openError.isEmpty())
        QMessageBox::warning(&window, QObject::tr("Cannot Open Scenario"), openError);
    if (screenshot)
        QTimer::singleShot(kScreenshotDelayMs, &window,
            [&window, path = options.screenshotPath] { grabWhenSettled(window, path, kScreenshotSettleLimitMs); });
    return QApplication::exec();
}

} // namespace clusterplanner::ui
