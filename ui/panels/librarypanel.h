// SPDX-License-Identifier: GPL-3.0-or-later
// The Library dock: the saved scenarios with search, sorting, open/save, history, trash, import/export, compare.
#pragma once

#include "core/store/storetypes.h"

#include <QWidget>

#include <vector>

class QAction;
class QCheckBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace clusterplanner::ui {

class LibraryModel;
class LibraryService;
class ScenarioDocument;

/// Lists the library (or its trash) through a LibraryModel sorted by raw values. Actions act on the selected rows
/// and are found by objectName ("library.open", "library.save", "library.saveNew", "library.rename",
/// "library.duplicate", "library.tags", "library.delete", "library.restore", "library.purge", "library.history",
/// "library.import", "library.export", "library.compare"). Without a library (nullptr or not open) the panel
/// says so and its actions are disabled.
class LibraryPanel : public QWidget
{
    Q_OBJECT
public:
    LibraryPanel(ScenarioDocument* document, LibraryService* library, QWidget* parent = nullptr);

    LibraryModel* model() const { return m_model; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }
    QTableView* view() const { return m_view; }
    QAction* action(const QString& objectName) const;
    /// The text of the banner above the list (library problems), empty when it is hidden.
    QString statusText() const;

    /// Re-reads the list with the current search text and trash toggle, keeping the selection.
    void refresh();
    void setSearchText(const QString& text);
    void setShowTrash(bool trash);
    /// Selected scenarios, in view order.
    std::vector<core::ScenarioId> selectedIds() const;
    void selectIds(const std::vector<core::ScenarioId>& ids);

    // Operations behind the actions that need no further input (also used by tests).
    void openSelected();
    void saveDocument(bool asNew);
    void duplicateSelected();
    void deleteSelected();
    void restoreSelected();

private:
    void createActions();
    void createLayout();
    void updateActions();
    void updateStatus();
    void renameSelected();
    void tagSelected();
    void showHistory();
    void purgeSelected();
    void importFiles();
    void exportSelected();
    void compareSelected();
    void forEachSelected(QString (LibraryService::*operation)(core::ScenarioId));
    void report(const QString& title, const QString& error);

    ScenarioDocument* m_document;
    LibraryService* m_library;
    LibraryModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
    QLineEdit* m_search;
    QCheckBox* m_trash;
    QLabel* m_status;
};

} // namespace clusterplanner::ui
