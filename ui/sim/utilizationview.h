// SPDX-License-Identifier: GPL-3.0-or-later
// The utilisation heatmap: rows are nodes (grouped by rack or GPU type, groups collapsible), columns are time bins,
// colour is the busy fraction of one resource from core::sched::binUtilization. Rows beyond the pixels are merged
// (core::sched::groupRows), never dropped. Wheel zooms time, right-drag pans, left-drag picks a time range.
#pragma once

#include "core/sched/utilizationmatrix.h"
#include "ui/sim/simulationdata.h"
#include "ui/sim/timeaxis.h"

#include <QFutureWatcher>
#include <QImage>
#include <QWidget>

#include <memory>
#include <optional>
#include <set>
#include <utility>
#include <vector>

namespace clusterplanner::ui {

/// What the heatmap draws: the shown matrix and its colours, one pixel per cell.
struct HeatmapImage
{
    core::sched::UtilizationMatrix matrix;
    QImage image;
};

class UtilizationView : public QWidget
{
    Q_OBJECT
public:
    enum class Grouping { Node, Rack, GpuType };

    /// One logical row: a node, or a collapsed group of nodes.
    struct Row
    {
        QString label;
        std::vector<int> nodes;
        int group = -1; ///< rack or GPU type index of the row (for expanding or collapsing), -1 in Node mode
        bool collapsed = false;
    };

    explicit UtilizationView(QWidget* parent = nullptr);

    void setData(std::shared_ptr<const SimulationData> data);
    void setResource(core::sched::UsageResource resource);
    void setGrouping(Grouping grouping);
    /// Expands a collapsed group or collapses an expanded one.
    void toggleGroup(int group);
    void setSelection(std::optional<std::pair<double, double>> range);
    void setHighlightedJob(int job);
    void setTimeWindow(double fromS, double toS);
    void resetZoom();
    std::pair<double, double> timeWindow() const { return {m_axis.fromS(), m_axis.toS()}; }

    /// What is drawn: one row per logical row, or per screen row when there are more rows than pixels.
    const core::sched::UtilizationMatrix& shownMatrix() const { return m_shown; }
    const std::vector<Row>& rows() const { return m_rows; }
    /// Logical rows per shown row (1 unless rows were merged to fit the pixels).
    double rowsPerShownRow() const;
    QRect plotRect() const;
    /// The hover text at a widget position (empty outside the plot).
    QString tooltipAt(const QPoint& position) const;
    /// Whether a large run's matrix is still being binned off the GUI thread.
    bool isRendering() const;

Q_SIGNALS:
    void timeRangeSelected(std::optional<std::pair<double, double>> range);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    bool event(QEvent* event) override;

private:
    void buildRows();
    void rebuild();
    void applyComputed();
    int shownRowAt(int y) const;
    std::pair<int, int> logicalRowsOf(int shownRow) const;
    void drawRowLabels(QPainter& painter, const QRect& plot) const;
    void drawHighlight(QPainter& painter, const QRect& plot) const;
    QString jobsText(const std::vector<int>& nodes, double fromS, double toS) const;

    std::shared_ptr<const SimulationData> m_data;
    core::sched::UsageResource m_resource = core::sched::UsageResource::Gpu;
    Grouping m_grouping = Grouping::Rack;
    std::set<int> m_expanded;
    std::vector<Row> m_rows;
    core::sched::UtilizationMatrix m_shown;
    QImage m_image;
    TimeAxis m_axis;
    std::optional<std::pair<double, double>> m_selection;
    int m_highlightedJob = -1;
    std::optional<int> m_dragStartX;
    std::optional<int> m_panLastX;
    int m_dragNowX = 0;
    QFutureWatcher<HeatmapImage> m_watcher;
};

} // namespace clusterplanner::ui
