// SPDX-License-Identifier: GPL-3.0-or-later
// The DP×TP×PP×CP grid explorer: a heatmap over two layout axes, the top layouts, and memory vs throughput.
#pragma once

#include "ui/models/layoutgrid.h"

#include <QWidget>

#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace clusterplanner::ui {

class HeatmapChart;
class LayoutTableModel;
class ScatterChart;
class ScenarioDocument;
class SweepRunner;

class GridExplorerPanel : public QWidget
{
    Q_OBJECT
public:
    GridExplorerPanel(ScenarioDocument* document, QWidget* parent = nullptr);
    ~GridExplorerPanel() override;

    HeatmapChart* heatmap() const { return m_heatmap; }
    ScatterChart* scatter() const { return m_scatter; }
    SweepRunner* runner() const { return m_runner; }
    const LayoutGrid& grid() const { return m_grid; }
    LayoutTableModel* tableModel() const { return m_model; }
    /// Makes the best layout of a heatmap cell the document's layout (an undoable edit).
    void selectCell(int xIndex, int yIndex);

Q_SIGNALS:
    /// Emitted when a sweep finished and every view shows its complete result.
    void sweepFinished();

private:
    QWidget* createControls();
    QWidget* createViews();
    void connectSignals();
    void onScenarioChanged();
    void restartSweep();
    void onBatch(const QVector<core::LayoutResult>& batch, quint64 revision);
    void onFinished(quint64 revision);
    void rebuildGrid();
    void refreshHeatmap();
    void refreshTableAndScatter();
    void includeSelected(const std::vector<core::LayoutResult>& fitting);
    std::optional<int> selectedScatterIndex() const;
    void selectLayout(const core::LayoutCandidate& candidate);

    ScenarioDocument* m_document;
    SweepRunner* m_runner;
    LayoutGrid m_grid;
    std::vector<core::LayoutResult> m_results; ///< everything streamed for the current sweep
    core::Scenario m_sweptKey; ///< the scenario without its layout: a sweep depends on nothing else
    bool m_haveKey = false;
    QComboBox* m_xAxis;
    QComboBox* m_yAxis;
    QComboBox* m_metric;
    QComboBox* m_otherDims;
    QProgressBar* m_progress;
    QPushButton* m_cancel;
    QLabel* m_status;
    QLabel* m_confidence;
    HeatmapChart* m_heatmap;
    QWidget* m_views = nullptr; ///< the heatmap beside the tables, hidden while a failed sweep has nothing to show
    ScatterChart* m_scatter;
    QTableView* m_table;
    QLineEdit* m_filter;
    LayoutTableModel* m_model;
    QSortFilterProxyModel* m_proxy;
    std::vector<core::LayoutResult> m_scatterResults;
};

} // namespace clusterplanner::ui
