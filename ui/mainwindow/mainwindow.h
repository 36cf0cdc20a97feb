// SPDX-License-Identifier: GPL-3.0-or-later
// The main window: menus, dock panels, file handling and window-state persistence around one ScenarioDocument.
#pragma once

#include <QMainWindow>
#include <QPointer>

#include <map>

class QAction;
class QDockWidget;

namespace clusterplanner::ui {

class AutosaveController;
class ExportActions;
class ExportableChart;
class LibraryService;
class RecentFilesMenu;
class ScenarioDocument;
class Settings;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    /// Restores geometry and dock layout from `settings`, which must outlive the window, as must `library` (may be
    /// nullptr: no Library panel content, no autosave).
    explicit MainWindow(Settings& settings, LibraryService* library = nullptr, QWidget* parent = nullptr);
    ~MainWindow() override;

    ScenarioDocument* document() const { return m_document; }
    /// The autosave of the document into the library, or nullptr without a library.
    AutosaveController* autosave() const { return m_autosave; }
    /// The dock of panel `name` (see panelNames()), or nullptr.
    QDockWidget* dock(const QString& name) const;
    /// Shows and raises the dock of panel `name`; false for an unknown name.
    bool showPanel(const QString& name);
    /// Shows the panel and hides every other dock, so that it has the whole window (View menu or Reset Layout bring
    /// the others back). For screenshots of panels that need the room (PanelInfo::wholeWindow).
    bool showPanelAlone(const QString& name);
    /// The action with the given objectName ("action.save", "action.exportChart", ...), or nullptr.
    QAction* action(const QString& objectName) const;

    /// Opens `path` without asking about unsaved changes; returns empty or the error message (no dialog).
    QString openFile(const QString& path);
    /// Writes geometry and dock layout to the settings (also done on close).
    void saveWindowSettings();
    /// Puts every dock back where it started and shows it.
    void resetLayout();

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void createDocks();
    void arrangeDefaultDockSizes();
    void createFileMenu();
    void createEditMenu();
    void createViewMenu();
    void createHelpMenu();
    void connectDocument();
    void restoreWindowSettings();
    void updateTitle();
    void updateExportChartAction();

    void newFile();
    void openInteractive();
    void openRecent(const QString& path);
    bool save();
    bool saveAs();
    void exportScenarioJson();
    void exportCurrentChart();
    /// Asks Save / Discard / Cancel when the document has unsaved changes; true when it is fine to go on.
    bool maybeSave();
    QString askFileName(const QString& title, const QString& filter, const QString& suggested, bool forSaving);
    void rememberFile(const QString& path);
    void showError(const QString& title, const QString& message);

    Settings& m_settings;
    LibraryService* m_library;
    ScenarioDocument* m_document;
    AutosaveController* m_autosave = nullptr;
    std::map<QString, QDockWidget*> m_docks;
    RecentFilesMenu* m_recentMenu = nullptr;
    QAction* m_exportChartAction = nullptr;
    ExportActions* m_exportActions = nullptr; ///< import model, report, all charts, launch configuration
    QPointer<QWidget> m_exportChartSource; ///< the focused widget inside an ExportableChart, if any
    QByteArray m_defaultState;
};

} // namespace clusterplanner::ui
