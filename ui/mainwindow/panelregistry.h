// SPDX-License-Identifier: GPL-3.0-or-later
// The dock panels of the main window: one line each, used for the docks, the View menu and --panel.
#pragma once

#include <QString>
#include <QStringList>
#include <Qt>

#include <vector>

class QWidget;

namespace clusterplanner::ui {

class LibraryService;
class ScenarioDocument;

/// What a panel may use: the document, and the scenario library (nullptr when the window has none).
struct PanelContext
{
    ScenarioDocument* document;
    LibraryService* library;
};

struct PanelInfo
{
    const char* name; ///< stable id: dock objectName is "dock.<name>", used by --panel and saved window state
    const char* title; ///< translatable dock title (QT_TRANSLATE_NOOP context "Panel")
    Qt::DockWidgetArea area;
    QWidget* (*create)(const PanelContext& context, QWidget* parent);
    /// A `--panel NAME --screenshot` picture gives it the whole window (a diagram or a wide table needs the room).
    bool wholeWindow = false;
};

/// The entry of panels() named `name`, or nullptr.
const PanelInfo* findPanel(const QString& name);

/// Every panel, in View-menu order. To add a panel, add one line in panelregistry.cpp (and bump
/// Settings::kWindowStateVersion so old saved layouts are not applied to the new set of docks).
const std::vector<PanelInfo>& panels();
/// The names of panels(), for --help and error messages.
QStringList panelNames();

} // namespace clusterplanner::ui
