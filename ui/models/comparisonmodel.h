// SPDX-License-Identifier: GPL-3.0-or-later
// Two or more scenarios side by side: key results with their difference to the first, then every input field.
#pragma once

#include "core/store/storetypes.h"

#include <QAbstractTableModel>
#include <QString>

#include <optional>
#include <vector>

namespace clusterplanner::ui {

/// One compared scenario: its inputs and, when it could be evaluated, its key figures (see computeKeyFigures).
struct CompareEntry
{
    QString name;
    core::Scenario scenario;
    std::optional<core::CachedResult> result;
};

/// Column 0 names the row; column 1 + i is entries[i]. The first rows are the key results (fits, step time,
/// tokens/s, MFU, run cost, energy); each later column also shows its difference to the first scenario. Then come
/// the input fields as dotted paths of the scenario file ("training.layout.tp"); with onlyDifferences, only those
/// that differ. Rows whose values differ carry DiffersRole = true and are highlighted.
class ComparisonModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    static constexpr int DiffersRole = Qt::UserRole + 1;
    /// True for the key-result rows, false for input rows.
    static constexpr int IsResultRole = Qt::UserRole + 2;

    explicit ComparisonModel(QObject* parent = nullptr);

    void setEntries(std::vector<CompareEntry> entries);
    void setOnlyDifferences(bool only);
    /// The row whose first column is `label` (a result name or a dotted input path), or -1.
    int rowOf(const QString& label) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        QString label;
        bool isResult = false;
        bool differs = false;
        QStringList cells; ///< one per entry
    };
    void rebuild();
    void addResultRows();
    void addInputRows();

    std::vector<CompareEntry> m_entries;
    std::vector<Row> m_rows;
    bool m_onlyDifferences = false;
};

} // namespace clusterplanner::ui
