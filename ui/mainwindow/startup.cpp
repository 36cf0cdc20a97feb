// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/mainwindow/startup.h"

#include "ui/dialogs/comparedialog.h"
#include "ui/document/scenariodocument.h"
#include "ui/library/autosavecontroller.h"
#include "ui/library/libraryservice.h"
#include "ui/mainwindow/apppalette.h"
#include "ui/mainwindow/mainwindow.h"
#include "ui/mainwindow/panelregistry.h"
#include "ui/settings/settings.h"
#include "ui/sim/simulationrunner.h"
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
constexpr int kScreenshotSettleLimitMs = 60000; // a sweep or simulation that takes longer is shown as far as it got
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
    QCommandLineOption library {QStringLiteral("library"),
        QObject::tr("Use this scenario library instead of the user's (created and seeded when missing)."),
        QObject::tr("PATH")};
    QCommandLineOption compare {
        QStringLiteral("compare"), QObject::tr("Open the compare dialog on these library ids."), QObject::tr("ID,ID")};
    Options() { compare.setFlags(QCommandLineOption::HiddenFromHelp); }
};

/// "3,5" → {3, 5}; empty when any part is not a positive number.
QList<qint64> parseIds(const QString& text)
{
    QList<qint64> ids;
    for (const QString& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const qint64 id = part.trimmed().toLongLong(&ok);
        if (!ok || id <= 0)
            return {};
        ids << id;
    }
    return ids;
}

QString usageError(const QString& message)
{
    return QStringLiteral("clusterplanner: %1\nTry 'clusterplanner --help'.\n").arg(message);
}

/// A lone word that is no file is most likely a mistyped subcommand.
bool looksLikeCommand(const QString& word)
{
    return !QFileInfo::exists(word) && !word.contains(QLatin1Char('.')) && !word.contains(QLatin1Char('/'));
}

QString helpText(const QCommandLineParser& parser, const QString& commandsHelp)
{
    QString text = parser.helpText();
    // Qt names the program "<executable_name>" when no QCoreApplication exists yet.
    text.replace(QStringLiteral("<executable_name>"), QStringLiteral("clusterplanner"));
    return text + QLatin1Char('\n') + commandsHelp
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

CommandLine parseCommandLine(const QStringList& arguments, const QString& commandsHelp)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QObject::tr("Plan GPU training clusters: memory, time, cost, parallel layouts."));
    const QCommandLineOption help = parser.addHelpOption();
    const QCommandLineOption version = parser.addVersionOption();
    const Options options;
    parser.addOptions({options.screenshot, options.panel, options.settings, options.library, options.compare});
    parser.addPositionalArgument(QStringLiteral("FILE.cplan.json"),
        QObject::tr("Scenario file to open (default: the library's default scenario)."),
        QStringLiteral("[FILE.cplan.json]"));
    if (!parser.parse(arguments))
        return finished(2, usageError(parser.errorText()));
    if (parser.isSet(help) || parser.isSet(QStringLiteral("help-all")))
        return finished(0, helpText(parser, commandsHelp));
    if (parser.isSet(version))
        return finished(0, QStringLiteral("clusterplanner %1\n").arg(QStringLiteral(CLUSTERPLANNER_VERSION)));
    const QStringList files = parser.positionalArguments();
    if (files.size() > 1)
        return finished(2, usageError(QObject::tr("only one scenario file can be opened (got %1)").arg(files.size())));
    if (files.size() == 1 && looksLikeCommand(files.front()))
        return finished(
            2, usageError(QObject::tr("'%1' is neither a command nor an existing file").arg(files.front())));
    CommandLine result;
    result.options = {files.value(0), parser.value(options.screenshot), parser.value(options.panel),
        parser.value(options.settings), parser.value(options.library), parseIds(parser.value(options.compare))};
    if (parser.isSet(options.compare) && result.options.compareIds.size() < 2)
        return finished(2, usageError(QObject::tr("--compare needs two or more library ids, e.g. 5,6")));
    if (!result.options.panel.isEmpty() && !panelNames().contains(result.options.panel))
        return finished(2,
            usageError(QObject::tr("unknown panel '%1' (known: %2)")
                           .arg(result.options.panel, panelNames().join(QStringLiteral(", ")))));
    return result;
}

namespace {

/// Opens the library (problems are reported after the window shows) and caches figures the samples lack.
void openLibrary(LibraryService& library, const StartupOptions& options)
{
    library.open(options.libraryPath.isEmpty() ? LibraryService::defaultPath() : options.libraryPath);
    library.fillMissingResults();
}

/// Opens the file from the command line, else the library's default scenario; returns an error message or "".
QString openStartScenario(MainWindow& window, LibraryService& library, const StartupOptions& options)
{
    if (!options.file.isEmpty())
        return window.openFile(options.file);
    if (const auto id = library.defaultScenarioId())
        library.openInDocument(*window.document(), *id);
    return {}; // without a library the document keeps core::defaultScenario()
}

/// Edits a crash left behind: offered once; either answer empties the slot (recovered edits are autosaved again).
void offerRecovery(MainWindow& window)
{
    AutosaveController* autosave = window.autosave();
    const auto entry = autosave ? autosave->pendingRecovery() : std::nullopt;
    if (!entry)
        return;
    const auto answer = QMessageBox::question(&window, QObject::tr("Recover Unsaved Changes"),
        QObject::tr("ClusterPlanner did not close normally. Unsaved changes to \"%1\" from %2 were kept. "
                    "Recover them?")
            .arg(QString::fromStdString(entry->scenario.name), QString::fromStdString(entry->saved)),
        QMessageBox::Yes | QMessageBox::No, QMessageBox::Yes);
    if (answer == QMessageBox::Yes)
        autosave->recover(*entry);
    autosave->clear();
}

CompareDialog* openCompareDialog(MainWindow& window, LibraryService& library, const QList<qint64>& ids)
{
    auto* dialog = new CompareDialog(CompareDialog::entriesFor(library, {ids.begin(), ids.end()}), &window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    return dialog;
}

/// Grabs `target` once no sweep of `window` runs any more (or the limit passed), so that a screenshot shows
/// complete results, then quits.
void grabWhenSettled(QWidget* window, QWidget* target, const QString& path, int remainingMs)
{
    const auto runners = window->findChildren<SweepRunner*>();
    const auto simulations = window->findChildren<SimulationRunner*>();
    const bool busy = std::any_of(runners.begin(), runners.end(), [](SweepRunner* r) { return r->isRunning(); })
        || std::any_of(simulations.begin(), simulations.end(), [](SimulationRunner* r) { return r->isRunning(); });
    if (busy && remainingMs > 0) {
        QTimer::singleShot(kScreenshotPollMs, target, [window, target, path, remainingMs] {
            grabWhenSettled(window, target, path, remainingMs - kScreenshotPollMs);
        });
        return;
    }
    QTimer::singleShot(kScreenshotPollMs, target, [target, path] { // one more turn to paint the final results
        const bool saved = target->grab().save(path, "PNG");
        if (!saved)
            std::cerr << "clusterplanner: cannot write screenshot " << path.toStdString() << "\n";
        QCoreApplication::exit(saved ? 0 : 1);
    });
}

void scheduleScreenshot(QWidget* window, QWidget* target, const QString& path)
{
    QTimer::singleShot(kScreenshotDelayMs, target,
        [window, target, path] { grabWhenSettled(window, target, path, kScreenshotSettleLimitMs); });
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
    LibraryService library;
    openLibrary(library, options);
    MainWindow window(settings, &library);
    const bool screenshot = !options.screenshotPath.isEmpty();
    const QString openError = openStartScenario(window, library, options);
    if (!openError.isEmpty() && screenshot) {
        std::cerr << "clusterplanner: " << openError.toStdString() << "\n";
        return 1;
    }
    if (const PanelInfo* panel = findPanel(options.panel); panel && panel->wholeWindow && screenshot)
        window.showPanelAlone(options.panel);
    else if (!options.panel.isEmpty())
        window.showPanel(options.panel);
    if (screenshot)
        window.resize(kScreenshotSizePx);
    window.show();
    if (!library.openMessage().isEmpty()) { // said once, at start-up; the Library panel keeps a banner
        if (screenshot)
            std::cerr << "clusterplanner: " << library.openMessage().toStdString() << "\n";
        else
            QMessageBox::warning(&window, QObject::tr("Scenario Library"), library.openMessage());
    }
    if (!openError.isEmpty())
        QMessageBox::warning(&window, QObject::tr("Cannot Open Scenario"), openError);
    if (!screenshot)
        offerRecovery(window);
    QWidget* shown = &window;
    if (!options.compareIds.isEmpty())
        shown = openCompareDialog(window, library, options.compareIds);
    if (screenshot)
        scheduleScreenshot(&window, shown, options.screenshotPath);
    return QApplication::exec();
}

} // namespace clusterplanner::ui
