// SPDX-License-Identifier: GPL-3.0-or-later
// Table of evaluated layouts (the sweep's top list, or any selection of results), sortable by raw values.
#pragma once

#include "core/sweep/sweep.h"

#include <QAbstractTableModel>

#include <vector>

namespace clusterplanner::ui {

class LayoutTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    /// Results first, so that a table narrower than every column (the explorer's is about 500 px) still shows what
    /// each layout achieves; the layout follows (and is the row's tooltip), then the settings that tell similar
    /// layouts apart.
    enum Column {
        Fits,
        Layout, ///< the degrees and micro-batch in a few characters, so that rows differ without scrolling
        TokensPerGpu,
        Mfu,
        StepTime,
        PeakMemory,
        CostPerMTokens,
        Dp,
        Tp,
        Pp,
        Cp,
        Ep,
        VirtualStages,
        MicroBatch,
        Recompute,
        ZeroStage,
        Schedule,
        RankOrder,
        Headroom,
        ColumnCount
    };
    /// Raw value for sorting and filtering (numbers as double, names as text).
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit LayoutTableModel(QObject* parent = nullptr);

    void setResults(std::vector<core::LayoutResult> results);
    const core::LayoutResult& resultAt(int row) const { return m_results.at(static_cast<std::size_t>(row)); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant sortValue(const core::LayoutResult& r, int column) const;
    QString displayText(const core::LayoutResult& r, int column) const;

    std::vector<core::LayoutResult> m_results;
};

} // namespace clusterplanner::ui
