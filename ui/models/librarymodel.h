// SPDX-License-Identifier: GPL-3.0-or-later
// Table of library scenarios (one ListRow each) with their cached key figures, sortable by raw values.
#pragma once

#include "core/store/storetypes.h"

#include <QAbstractTableModel>

#include <vector>

namespace clusterplanner::ui {

class LibraryModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Name, Tags, GpuType, GpuCount, TokensPerS, Mfu, Cost, StepTime, Modified, ColumnCount };
    /// Raw value for sorting (numbers as double, text as text); invalid when a scenario has no cached result, so
    /// those rows sort after the others in ascending order.
    static constexpr int SortRole = Qt::UserRole + 1;
    /// The row's core::ScenarioId (qint64).
    static constexpr int IdRole = Qt::UserRole + 2;

    explicit LibraryModel(QObject* parent = nullptr);

    void setRows(std::vector<core::ListRow> rows);
    const core::ListRow& rowAt(int row) const { return m_rows.at(static_cast<std::size_t>(row)); }
    /// The row of the scenario, or -1.
    int rowOf(core::ScenarioId id) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant sortValue(const core::ListRow& row, int column) const;
    QString displayText(const core::ListRow& row, int column) const;

    std::vector<core::ListRow> m_rows;
};

} // namespace clusterplanner::ui
