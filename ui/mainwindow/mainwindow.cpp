// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/mainwindow/mainwindow.h"

#include "ui/charts/exportablechart.h"
#include "ui/dialogs/aboutdialog.h"
#include "ui/document/scenariodocument.h"
#include "ui/library/autosavecontroller.h"
#include "ui/library/libraryservice.h"
#include "ui/mainwindow/apppalette.h"
#include "ui/mainwindow/panelregistry.h"
#include "ui/mainwindow/recentfilesmenu.h"
#include "ui/report/exportactions.h"
#include "ui/settings/settings.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QUndoStack>

namespace clusterplanner::ui {

namespace {

const char kScenarioSuffix[] = ".cplan.json";

QString scenarioFilter()
{
    return QObject::tr("ClusterPlanner scenarios (*.cplan.json);;JSON files (*.json);;All files (*)");
}

/// A file name suggested from the scenario name, without characters that would make it a path.
QString suggestedFileName(const std::string& scenarioName)
{
    QString name = QString::fromStdString(scenarioName).simplified();
    name.replace(QLatin1Char('/'), QLatin1Char('-')).replace(QLatin1Char('\\'), QLatin1Char('-'));
    return (name.isEmpty() ? QObject::tr("scenario") : name) + QLatin1String(kScenarioSuffix);
}
const QSize kChartExportSizePx(1920, 1200); // house style 24: fixed default export size

QAction* makeAction(QObject* parent, const char* objectName, const QString& text, QKeySequence shortcut = {})
{
    auto* action = new QAction(text, parent);
    action->setObjectName(QString::fromLatin1(objectName));
    action->setShortcut(shortcut);
    return action;
}

} // namespace

MainWindow::MainWindow(Settings& settings, LibraryService* library, QWidget* parent)
    : QMainWindow(parent)
    , m_settings(settings)
    , m_library(library)
    , m_document(new ScenarioDocument(this))
{
    if (m_library) {
        m_library->setReplaceGuard([this] { return maybeSave(); });
        m_autosave = new AutosaveController(*m_library, *m_document, m_document);
    }
    setObjectName(QStringLiteral("mainwindow"));
    // No central widget on show: the dock panels share the whole window and can be rearranged freely.
    auto* central = new QWidget(this);
    central->hide();
    setCentralWidget(central);
    setDockNestingEnabled(true);
    createDocks();
    m_exportActions = new ExportActions(
        m_document, [this](const QString& name) { return m_docks.count(name) ? m_docks.at(name)->widget() : nullptr; },
        this);
    createFileMenu();
    createEditMenu();
    createViewMenu();
    createHelpMenu();
    connectDocument();
    resize(1400, 900);
    arrangeDefaultDockSizes();
    m_defaultState = saveState(Settings::kWindowStateVersion);
    restoreWindowSettings();
    statusBar()->showMessage(tr("Ready"), 3000);
}

MainWindow::~MainWindow()
{
    // Children die after this destructor, in creation order (the document first). Keep signals away from this
    // half-destroyed window (focus moves while widgets are deleted) and delete the panels while their document
    // still exists.
    disconnect(qApp, nullptr, this, nullptr);
    if (m_library)
        m_library->setReplaceGuard({});
    m_document->disconnect(this);
    for (const auto& entry : m_docks)
        delete entry.second;
    m_docks.clear();
}

void MainWindow::createDocks()
{
    std::map<Qt::DockWidgetArea, QDockWidget*> firstInArea;
    for (const PanelInfo& panel : panels()) {
        auto* dock = new QDockWidget(QCoreApplication::translate("Panel", panel.title), this);
        dock->setObjectName(QStringLiteral("dock.") + QString::fromLatin1(panel.name));
        dock->setWidget(panel.create({m_document, m_library}, dock));
        addDockWidget(panel.area, dock);
        // Panels sharing an area become tabs: each chart keeps a useful size instead of a sliver.
        if (auto it = firstInArea.find(panel.area); it != firstInArea.end())
            tabifyDockWidget(it->second, dock);
        else
            firstInArea[panel.area] = dock;
        m_docks[QString::fromLatin1(panel.name)] = dock;
    }
    for (const auto& [area, dock] : firstInArea)
        dock->raise();
}

void MainWindow::arrangeDefaultDockSizes()
{
    // The form needs about a third of the width; the explorer and the detail tabs share the rest.
    QList<QDockWidget*> left, right, bottom;
    for (const PanelInfo& panel : panels()) {
        QDockWidget* d = m_docks.at(QString::fromLatin1(panel.name));
        (panel.area == Qt::LeftDockWidgetArea ? left : panel.area == Qt::RightDockWidgetArea ? right : bottom) << d;
    }
    if (!left.isEmpty() && !right.isEmpty())
        resizeDocks({left.first(), right.first()}, {440, 960}, Qt::Horizontal);
    if (!right.isEmpty() && !bottom.isEmpty())
        resizeDocks({right.first(), bottom.first()}, {540, 380}, Qt::Vertical);
}

void MainWindow::createFileMenu()
{
    QMenu* menu = menuBar()->addMenu(tr("&File"));
    menu->addAction(makeAction(this, "action.new", tr("&New"), QKeySequence::New));
    menu->addAction(makeAction(this, "action.open", tr("&Open…"), QKeySequence::Open));
    m_recentMenu = new RecentFilesMenu(m_settings, menu);
    menu->addMenu(m_recentMenu);
    menu->addSeparator();
    menu->addAction(makeAction(this, "action.save", tr("&Save"), QKeySequence::Save));
    menu->addAction(makeAction(this, "action.saveAs", tr("Save &As…"), QKeySequence::SaveAs));
    menu->addAction(m_exportActions->importModelAction());
    QMenu* exportMenu = menu->addMenu(tr("&Export"));
    exportMenu->addAction(makeAction(this, "action.exportScenario", tr("&Scenario as JSON…")));
    m_exportChartAction = makeAction(this, "action.exportChart", tr("Current &chart…"));
    m_exportChartAction->setEnabled(false);
    exportMenu->addAction(m_exportChartAction);
    exportMenu->addAction(m_exportActions->allChartsAction());
    exportMenu->addAction(m_exportActions->reportAction());
    exportMenu->addAction(m_exportActions->launchConfigAction());
    menu->addSeparator();
    menu->addAction(makeAction(this, "action.quit", tr("&Quit"), QKeySequence::Quit));

    connect(action(QStringLiteral("action.new")), &QAction::triggered, this, &MainWindow::newFile);
    connect(action(QStringLiteral("action.open")), &QAction::triggered, this, &MainWindow::openInteractive);
    connect(m_recentMenu, &RecentFilesMenu::openRequested, this, &MainWindow::openRecent);
    connect(action(QStringLiteral("action.save")), &QAction::triggered, this, &MainWindow::save);
    connect(action(QStringLiteral("action.saveAs")), &QAction::triggered, this, &MainWindow::saveAs);
    connect(
        action(QStringLiteral("action.exportScenario")), &QAction::triggered, this, &MainWindow::exportScenarioJson);
    connect(m_exportChartAction, &QAction::triggered, this, &MainWindow::exportCurrentChart);
    connect(action(QStringLiteral("action.quit")), &QAction::triggered, this, &QWidget::close);
    connect(qApp, &QApplication::focusChanged, this, &MainWindow::updateExportChartAction);
}

void MainWindow::createEditMenu()
{
    QMenu* menu = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_document->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setObjectName(QStringLiteral("action.undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = m_document->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setObjectName(QStringLiteral("action.redo"));
    redo->setShortcut(QKeySequence::Redo);
    menu->addAction(undo);
    menu->addAction(redo);
}

void MainWindow::createViewMenu()
{
    QMenu* menu = menuBar()->addMenu(tr("&View"));
    for (const PanelInfo& panel : panels()) {
        QAction* toggle = m_docks.at(QString::fromLatin1(panel.name))->toggleViewAction();
        toggle->setObjectName(QStringLiteral("action.toggle.") + QString::fromLatin1(panel.name));
        menu->addAction(toggle);
    }
    menu->addSeparator();
    QAction* dark = menu->addAction(tr("&Dark Palette"));
    dark->setObjectName(QStringLiteral("action.darkPalette"));
    dark->setCheckable(true);
    dark->setChecked(m_settings.darkPalette());
    connect(dark, &QAction::toggled, this, [this](bool on) {
        m_settings.setDarkPalette(on);
        applyAppPalette(on);
    });
    QAction* reset = menu->addAction(tr("&Reset Layout"), this, &MainWindow::resetLayout);
    reset->setObjectName(QStringLiteral("action.resetLayout"));
}

void MainWindow::createHelpMenu()
{
    QMenu* menu = menuBar()->addMenu(tr("&Help"));
    QAction* about = menu->addAction(tr("&About ClusterPlanner"), this, [this] { AboutDialog(this).exec(); });
    about->setObjectName(QStringLiteral("action.about"));
    about->setMenuRole(QAction::AboutRole);
}

void MainWindow::connectDocument()
{
    connect(m_document, &ScenarioDocument::fileNameChanged, this, &MainWindow::updateTitle);
    connect(m_document, &ScenarioDocument::modifiedChanged, this, &MainWindow::updateTitle);
    updateTitle();
}

QDockWidget* MainWindow::dock(const QString& name) const
{
    const auto it = m_docks.find(name);
    return it == m_docks.end() ? nullptr : it->second;
}

bool MainWindow::showPanel(const QString& name)
{
    QDockWidget* panel = dock(name);
    if (!panel)
        return false;
    panel->show();
    panel->raise();
    // Panels that need room (the simulation's heatmap and Gantt chart) say how much of the height they want.
    const QVariant share = panel->widget()->property("dockHeightShare");
    if (share.isValid())
        resizeDocks({panel}, {int(height() * share.toDouble())}, Qt::Vertical);
    return true;
}

bool MainWindow::showPanelAlone(const QString& name)
{
    if (!dock(name))
        return false;
    for (const auto& entry : m_docks)
        if (entry.first != name)
            entry.second->hide();
    return showPanel(name);
}

QAction* MainWindow::action(const QString& objectName) const
{
    return findChild<QAction*>(objectName);
}

void MainWindow::updateTitle()
{
    setWindowTitle(tr("%1[*] — ClusterPlanner").arg(m_document->displayName()));
    setWindowModified(m_document->isModified());
}

void MainWindow::updateExportChartAction()
{
    QWidget* focus = QApplication::focusWidget();
    if (focus && focus->window() == this)
        m_exportChartSource = exportableChartAt(focus) ? focus : nullptr;
    m_exportChartAction->setEnabled(m_exportChartSource && exportableChartAt(m_exportChartSource));
}

void MainWindow::saveWindowSettings()
{
    m_settings.setWindowGeometry(saveGeometry());
    m_settings.setWindowState(saveState(Settings::kWindowStateVersion));
    m_settings.sync();
}

void MainWindow::restoreWindowSettings()
{
    const QByteArray geometry = m_settings.windowGeometry();
    if (!geometry.isEmpty())
        restoreGeometry(geometry);
    const QByteArray state = m_settings.windowState();
    if (!state.isEmpty())
        restoreState(state, Settings::kWindowStateVersion);
}

void MainWindow::resetLayout()
{
    restoreState(m_defaultState, Settings::kWindowStateVersion);
    for (const auto& entry : m_docks) {
        entry.second->setFloating(false);
        entry.second->show();
    }
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    saveWindowSettings();
    if (m_autosave) // saved or discarded: either way nothing is left to recover
        m_autosave->clear();
    event->accept();
}

QString MainWindow::openFile(const QString& path)
{
    const QString error = m_document->load(path);
    if (error.isEmpty()) {
        rememberFile(path);
        statusBar()->showMessage(tr("Opened %1").arg(QDir::toNativeSeparators(path)), 5000);
    }
    return error;
}

void MainWindow::newFile()
{
    if (maybeSave())
        m_document->newDocument();
}

void MainWindow::openInteractive()
{
    if (!maybeSave())
        return;
    const QString path = askFileName(tr("Open Scenario"), scenarioFilter(), QString(), false);
    if (path.isEmpty())
        return;
    if (const QString error = openFile(path); !error.isEmpty())
        showError(tr("Cannot Open Scenario"), error);
}

void MainWindow::openRecent(const QString& path)
{
    if (!maybeSave())
        return;
    if (const QString error = openFile(path); !error.isEmpty()) {
        if (!QFileInfo::exists(path))
            m_recentMenu->removeFile(path); // a vanished file would fail every time
        showError(tr("Cannot Open Scenario"), error);
    }
}

bool MainWindow::save()
{
    // A scenario opened from the library is saved there, as its next version.
    if (m_document->fileName().isEmpty() && m_document->libraryId() && m_library && !m_library->isReadOnly()) {
        if (const QString error = m_library->saveDocument(*m_document); !error.isEmpty()) {
            showError(tr("Cannot Save to Library"), error);
            return false;
        }
        statusBar()->showMessage(tr("Saved %1 in the library").arg(m_document->displayName()), 5000);
        return true;
    }
    if (m_document->fileName().isEmpty())
        return saveAs();
    if (const QString error = m_document->save(m_document->fileName()); !error.isEmpty()) {
        showError(tr("Cannot Save Scenario"), error);
        return false;
    }
    rememberFile(m_document->fileName());
    statusBar()->showMessage(tr("Saved %1").arg(m_document->displayName()), 5000);
    return true;
}

bool MainWindow::saveAs()
{
    const QString suggested
        = m_document->fileName().isEmpty() ? suggestedFileName(m_document->scenario().name) : m_document->fileName();
    QString path = askFileName(tr("Save Scenario As"), scenarioFilter(), suggested, true);
    if (path.isEmpty())
        return false;
    if (!path.endsWith(QStringLiteral(".json"), Qt::CaseInsensitive))
        path += QLatin1String(kScenarioSuffix);
    if (const QString error = m_document->save(path); !error.isEmpty()) {
        showError(tr("Cannot Save Scenario"), error);
        return false;
    }
    rememberFile(path);
    return true;
}

void MainWindow::exportScenarioJson()
{
    const QString suggested = suggestedFileName(m_document->scenario().name);
    const QString path = askFileName(tr("Export Scenario as JSON"), scenarioFilter(), suggested, true);
    if (path.isEmpty())
        return;
    if (const QString error = m_document->saveCopy(path); !error.isEmpty())
        showError(tr("Cannot Export Scenario"), error);
    else
        statusBar()->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(path)), 5000);
}

void MainWindow::exportCurrentChart()
{
    const ExportableChart* chart = exportableChartAt(m_exportChartSource);
    if (!chart)
        return;
    const QString path
        = askFileName(tr("Export Chart"), tr("PNG image (*.png);;PDF document (*.pdf);;SVG drawing (*.svg)"),
            chart->chartTitle() + QStringLiteral(".png"), true);
    if (path.isEmpty())
        return;
    if (const QString error = chart->exportChart(path, kChartExportSizePx); !error.isEmpty())
        showError(tr("Cannot Export Chart"), error);
}

bool MainWindow::maybeSave()
{
    if (!m_document->isModified())
        return true;
    const auto answer = QMessageBox::warning(this, tr("Unsaved Changes"),
        tr("The scenario \"%1\" has unsaved changes. Save them first?").arg(m_document->displayName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

QString MainWindow::askFileName(const QString& title, const QString& filter, const QString& suggested, bool forSaving)
{
    const QString start = QDir(m_settings.lastDirectory()).filePath(QFileInfo(suggested).fileName());
    const QString path = forSaving ? QFileDialog::getSaveFileName(this, title, start, filter)
                                   : QFileDialog::getOpenFileName(this, title, m_settings.lastDirectory(), filter);
    if (!path.isEmpty())
        m_settings.setLastDirectory(QFileInfo(path).absolutePath());
    return path;
}

void MainWindow::rememberFile(const QString& path)
{
    m_recentMenu->addFile(path);
    m_settings.setLastDirectory(QFileInfo(path).absolutePath());
}

void MainWindow::showError(const QString& title, const QString& message)
{
    QMessageBox::warning(this, title, message);
}

} // namespace clusterplanner::ui
