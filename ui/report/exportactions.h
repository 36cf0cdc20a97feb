// SPDX-License-Identifier: GPL-3.0-or-later
// The hand-off actions of the main window: import a Hugging Face model, export the report, every chart, or a
// launch configuration. They own their dialogs; the work itself is in functions a test can call directly.
#pragma once

#include <QObject>
#include <QSize>
#include <QStringList>

#include <functional>

class QAction;
class QWidget;

namespace clusterplanner::ui {

class ScenarioDocument;

class ExportActions : public QObject
{
    Q_OBJECT
public:
    /// `panelAt` returns the live panel of a panelregistry name (or nullptr); `window` parents the dialogs.
    ExportActions(ScenarioDocument* document, std::function<QWidget*(const QString&)> panelAt, QWidget* window);

    QAction* importModelAction() const { return m_importModel; }
    QAction* reportAction() const { return m_report; }
    QAction* allChartsAction() const { return m_allCharts; }
    QAction* launchConfigAction() const { return m_launchConfig; }

    /// Replaces the document's model by the config.json at `path` as one undoable edit. Returns empty or the error;
    /// `notes` receives the approximations the import made.
    QString importModel(const QString& path, QStringList* notes = nullptr);
    /// Writes every chart of the live panels as <id>.png and <id>.svg into `folder`; returns the problems.
    QStringList exportAllCharts(const QString& folder, QSize size) const;
    /// Sets the title and the caption (scenario, layout, date) of every live chart.
    void updateCaptions() const;

private:
    void importModelInteractive();
    void exportReportInteractive();
    void exportAllChartsInteractive();
    void exportLaunchConfigInteractive();

    ScenarioDocument* m_document;
    std::function<QWidget*(const QString&)> m_panelAt;
    QWidget* m_window;
    QAction* m_importModel;
    QAction* m_report;
    QAction* m_allCharts;
    QAction* m_launchConfig;
};

} // namespace clusterplanner::ui
