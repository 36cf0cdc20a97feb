// SPDX-License-Identifier: GPL-3.0-or-later
// The job Gantt chart of a simulation: one row per GPU (nodes in order), each job a bar on the GPUs it held,
// waiting drawn as a thin line before the bar, preemptions as black ticks. A time range shows only the nodes and
// jobs active in it. Click a bar for the job; wheel zooms time.
#pragma once

#include "ui/sim/simulationdata.h"
#include "ui/sim/timeaxis.h"

#include <QColor>
#include <QFutureWatcher>
#include <QImage>
#include <QWidget>

#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace clusterplanner::ui {

class JobGanttView : public QWidget
{
    Q_OBJECT
public:
    enum class ColorBy { User, Size, State };

    explicit JobGanttView(QWidget* parent = nullptr);

    void setData(std::shared_ptr<const SimulationData> data);
    void setColorBy(ColorBy colorBy);
    /// Shows only the jobs (and the nodes) active in [from, to), zoomed to it; empty = everything.
    void setTimeRange(std::optional<std::pair<double, double>> range);
    void setSelectedJob(int job);

    /// Node of each shown node block, in row order (every GPU of a shown node is a row).
    const std::vector<int>& shownNodes() const { return m_nodes; }
    int rowCount() const { return m_rowCount; }
    /// Indices into the result's jobs that are drawn.
    const std::vector<int>& shownJobs() const { return m_jobs; }
    /// The job whose bar is at a widget position, if any.
    std::optional<int> jobAt(const QPoint& position) const;
    QRect plotRect() const;
    /// The colour a job is drawn in, and the legend of the current colouring.
    QColor jobColor(int job) const;
    QVector<std::pair<QString, QColor>> legend() const;
    /// Whether a large run's bars are still being drawn off the GUI thread.
    bool isRendering() const;

Q_SIGNALS:
    void jobClicked(int job);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    bool event(QEvent* event) override;

private:
    void rebuildRows();
    void render();
    void applyDrawn();
    int rowOf(int node, int gpu) const;
    double rowHeight() const;

    std::shared_ptr<const SimulationData> m_data;
    ColorBy m_colorBy = ColorBy::User;
    std::optional<std::pair<double, double>> m_range;
    int m_selectedJob = -1;
    std::vector<int> m_nodes;
    std::vector<int> m_firstRowOfNode; ///< per node of the cluster; -1 when not shown
    std::vector<int> m_jobs;
    int m_rowCount = 0;
    TimeAxis m_axis;
    QImage m_image; ///< bars rendered at plot size
    QFutureWatcher<QImage> m_watcher;
};

} // namespace clusterplanner::ui
