// SPDX-License-Identifier: GPL-3.0-or-later
// "Compare…": two or more library scenarios side by side, differing inputs highlighted, results with differences.
#pragma once

#include "core/store/storetypes.h"
#include "ui/models/comparisonmodel.h"

#include <QDialog>

#include <vector>

class QTableView;

namespace clusterplanner::ui {

class LibraryService;

class CompareDialog : public QDialog
{
    Q_OBJECT
public:
    explicit CompareDialog(std::vector<CompareEntry> entries, QWidget* parent = nullptr);

    /// The library scenarios with their cached key figures, computed where the cache has none. Ids that cannot be
    /// loaded are left out.
    static std::vector<CompareEntry> entriesFor(LibraryService& library, const std::vector<core::ScenarioId>& ids);

    ComparisonModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }

private:
    ComparisonModel* m_model;
    QTableView* m_view;
};

} // namespace clusterplanner::ui
