// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/sim/utilizationview.h"

#include "ui/sim/busycolors.h"
#include "ui/sim/simulationlabels.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>
#include <QtConcurrent>

#include <algorithm>
#include <cmath>
#include <map>

namespace clusterplanner::ui {

namespace sched = core::sched;

namespace {

constexpr int kLabelWidthPx = 170;
constexpr int kColorBarWidthPx = 120;
constexpr int kAxisHeightPx = 46;
constexpr int kMaxBins = 2000;
constexpr int kMaxTooltipJobs = 8;
constexpr std::size_t kAsyncJobs = 20000; ///< from this many jobs the heatmap is binned off the GUI thread
constexpr int kMaxTooltipNodes = 64; ///< a merged row of more nodes lists no jobs (the look-up would lag)

} // namespace

UtilizationView::UtilizationView(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("utilizationHeatmap"));
    setMouseTracking(true);
    setMinimumSize(240, 100);
    setFocusPolicy(Qt::ClickFocus);
    connect(&m_watcher, &QFutureWatcher<HeatmapImage>::finished, this, &UtilizationView::applyComputed);
}

void UtilizationView::setData(std::shared_ptr<const SimulationData> simulation)
{
    m_data = std::move(simulation);
    m_selection.reset();
    m_highlightedJob = -1;
    buildRows();
    resetZoom();
}

void UtilizationView::setResource(sched::UsageResource resource)
{
    m_resource = resource;
    rebuild();
}

void UtilizationView::setGrouping(Grouping grouping)
{
    m_grouping = grouping;
    m_expanded.clear();
    buildRows();
    rebuild();
}

void UtilizationView::toggleGroup(int group)
{
    if (!m_expanded.erase(group))
        m_expanded.insert(group);
    buildRows();
    rebuild();
}

void UtilizationView::setSelection(std::optional<std::pair<double, double>> range)
{
    m_selection = range;
    update();
}

void UtilizationView::setHighlightedJob(int job)
{
    m_highlightedJob = job;
    update();
}

void UtilizationView::resetZoom()
{
    if (!m_data) {
        rebuild();
        return;
    }
    const auto& r = m_data->outcome->result;
    setTimeWindow(r.startS, std::max(r.endS, r.startS + 1));
}

void UtilizationView::setTimeWindow(double fromS, double toS)
{
    double lo = fromS, hi = toS;
    if (m_data) {
        const auto& r = m_data->outcome->result;
        const double span = std::max(r.endS - r.startS, 1.0);
        const double width = std::clamp(hi - lo, span / 5000, span); // zoom stops at ~5000× or the whole run
        lo = std::clamp(lo, r.startS, r.startS + span - width);
        hi = lo + width;
    }
    const QRect plot = plotRect();
    m_axis = TimeAxis(lo, hi, plot.left(), plot.width(), m_data ? m_data->outcome->result.startS : 0);
    rebuild();
}

QRect UtilizationView::plotRect() const
{
    return QRect(kLabelWidthPx, 6, std::max(10, width() - kLabelWidthPx - kColorBarWidthPx),
        std::max(10, height() - 6 - kAxisHeightPx));
}

void UtilizationView::buildRows()
{
    // The shown matrix belongs to the old rows: drop it until the new one is ready.
    m_shown = {};
    m_image = QImage();
    m_rows.clear();
    if (!m_data)
        return;
    const auto& result = m_data->outcome->result;
    const auto& nodes = result.nodes;
    auto nodeRow = [&](int n, const QString& indent) {
        const auto& info = nodes[static_cast<std::size_t>(n)];
        return Row {indent + tr("node %1 (rack %2)").arg(n).arg(info.rack), {n}, -1, false};
    };
    if (m_grouping == Grouping::Node) {
        for (int n = 0; n < int(nodes.size()); ++n)
            m_rows.push_back(nodeRow(n, {}));
        return;
    }
    std::map<int, std::vector<int>> groups; // rack or GPU type → nodes, in order
    for (const auto& info : nodes)
        groups[m_grouping == Grouping::Rack ? info.rack : info.gpuType].push_back(info.id);
    for (const auto& [group, members] : groups) {
        const QString name = m_grouping == Grouping::Rack
            ? tr("rack %1").arg(group)
            : QString::fromStdString(result.gpuTypeIds[static_cast<std::size_t>(group)]);
        if (m_expanded.count(group)) {
            m_rows.push_back({QStringLiteral("▾ ") + name, {}, group, false}); // header row, empty
            for (int n : members) {
                m_rows.push_back(nodeRow(n, QStringLiteral("   ")));
                m_rows.back().group = group;
            }
        } else {
            m_rows.push_back(
                {QStringLiteral("▸ ") + name + tr(" (%1 nodes)").arg(members.size()), members, group, true});
        }
    }
}

namespace {

double capacityOf(const SimulationData& data, sched::UsageResource resource, int node)
{
    const auto& info = data.outcome->result.nodes[static_cast<std::size_t>(node)];
    switch (resource) {
    case sched::UsageResource::Gpu:
        return std::max(1, info.gpus);
    case sched::UsageResource::HostMemory:
        return std::max(1e-9, info.memoryGiB);
    case sched::UsageResource::Cpu:
        return std::max(1e-9, info.cpuCores);
    case sched::UsageResource::Network:
        return std::max(1e-9, info.bandwidthGbps);
    }
    return 1;
}

/// The shown matrix and its image: a pure function of its inputs, so that it can run in a pool thread.
HeatmapImage computeHeatmap(const std::shared_ptr<const SimulationData>& data,
    const std::vector<UtilizationView::Row>& rows, sched::UsageResource resource, int bins, double fromS, double toS,
    int plotHeight)
{
    HeatmapImage out;
    const auto nodeMatrix = sched::binUtilization(data->outcome->result, resource, bins, fromS, toS);
    // Nodes → logical rows (weighted by capacity, so a row is the busy share of its nodes' capacity). A header row
    // of an expanded group has no nodes: it gets a zero-weight dummy so that every row index exists.
    const int nodes = nodeMatrix.rows;
    std::vector<int> rowOfNode(static_cast<std::size_t>(nodes), 0);
    std::vector<double> weight(static_cast<std::size_t>(nodes), 0);
    for (int r = 0; r < int(rows.size()); ++r)
        for (int n : rows[static_cast<std::size_t>(r)].nodes) {
            rowOfNode[static_cast<std::size_t>(n)] = r;
            weight[static_cast<std::size_t>(n)] = capacityOf(*data, resource, n);
        }
    out.matrix = sched::groupRows(nodeMatrix, rowOfNode, int(rows.size()), weight);
    if (int(rows.size()) > plotHeight) {
        // More rows than pixels: merge consecutive rows into screen rows, weighted by their capacity.
        std::vector<int> screenRow(rows.size());
        std::vector<double> rowWeight(rows.size(), 0);
        for (std::size_t r = 0; r < rows.size(); ++r) {
            screenRow[r] = int(r * std::size_t(plotHeight) / rows.size());
            for (int n : rows[r].nodes)
                rowWeight[r] += capacityOf(*data, resource, n);
        }
        out.matrix = sched::groupRows(out.matrix, screenRow, plotHeight, rowWeight);
    }
    out.image = QImage(out.matrix.bins, out.matrix.rows, QImage::Format_RGB32);
    for (int r = 0; r < out.matrix.rows; ++r) {
        auto* line = reinterpret_cast<QRgb*>(out.image.scanLine(r));
        for (int b = 0; b < out.matrix.bins; ++b)
            line[b] = busyColor(out.matrix.at(r, b));
    }
    return out;
}

} // namespace

void UtilizationView::rebuild()
{
    if (!m_data || m_rows.empty()) {
        m_shown = {};
        m_image = QImage();
        update();
        return;
    }
    const QRect plot = plotRect();
    m_axis = TimeAxis(m_axis.fromS(), m_axis.toS(), plot.left(), plot.width(), m_data->outcome->result.startS);
    const int bins = std::clamp(plot.width(), 1, kMaxBins);
    if (m_data->outcome->result.jobs.size() < kAsyncJobs) {
        auto done = computeHeatmap(m_data, m_rows, m_resource, bins, m_axis.fromS(), m_axis.toS(), plot.height());
        m_shown = std::move(done.matrix);
        m_image = std::move(done.image);
        m_watcher.setFuture(QFuture<HeatmapImage>()); // drops a pending computation
        update();
        return;
    }
    // Large runs are binned in a pool thread; the old image stays up until the new one is ready.
    m_watcher.setFuture(QtConcurrent::run(
        computeHeatmap, m_data, m_rows, m_resource, bins, m_axis.fromS(), m_axis.toS(), plot.height()));
}

void UtilizationView::applyComputed()
{
    if (m_watcher.future().isCanceled() || m_watcher.future().resultCount() == 0)
        return;
    HeatmapImage done = m_watcher.future().result();
    m_shown = std::move(done.matrix);
    m_image = std::move(done.image);
    update();
}

bool UtilizationView::isRendering() const
{
    return m_watcher.isRunning();
}

double UtilizationView::rowsPerShownRow() const
{
    return m_shown.rows > 0 ? double(m_rows.size()) / m_shown.rows : 1;
}

int UtilizationView::shownRowAt(int y) const
{
    const QRect plot = plotRect();
    if (m_shown.rows == 0 || y < plot.top() || y > plot.bottom())
        return -1;
    return std::clamp(int(double(y - plot.top()) / plot.height() * m_shown.rows), 0, m_shown.rows - 1);
}

std::pair<int, int> UtilizationView::logicalRowsOf(int shownRow) const
{
    const double per = rowsPerShownRow();
    if (per <= 1)
        return {shownRow, shownRow};
    // Rows r with ⌊r·H/R⌋ == shownRow.
    const auto total = m_rows.size();
    const int h = m_shown.rows;
    const int first = int(std::ceil(double(shownRow) * total / h));
    const int last = std::min(int(total) - 1, int(std::ceil(double(shownRow + 1) * total / h)) - 1);
    return {first, std::max(first, last)};
}

void UtilizationView::resizeEvent(QResizeEvent*)
{
    rebuild();
}

void UtilizationView::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.fillRect(rect(), palette().color(QPalette::Window));
    const QRect plot = plotRect();
    if (m_image.isNull()) {
        painter.setPen(palette().color(QPalette::WindowText));
        painter.drawText(plot, Qt::AlignCenter, m_data ? tr("Binning the utilisation…") : tr("No simulation yet."));
        return;
    }
    painter.drawImage(plot, m_image);
    painter.setPen(palette().color(QPalette::Mid));
    painter.drawRect(plot.adjusted(0, 0, -1, -1));
    drawRowLabels(painter, plot);
    drawHighlight(painter, plot);
    auto band = [&](double a, double b, QColor fill) {
        const int x0 = std::max(plot.left(), int(m_axis.x(std::min(a, b))));
        const int x1 = std::min(plot.right(), int(m_axis.x(std::max(a, b))));
        if (x1 <= x0)
            return;
        painter.fillRect(QRect(x0, plot.top(), x1 - x0, plot.height()), fill);
        painter.setPen(QPen(Qt::white, 2));
        painter.drawLine(x0, plot.top(), x0, plot.bottom());
        painter.drawLine(x1, plot.top(), x1, plot.bottom());
    };
    if (m_selection)
        band(m_selection->first, m_selection->second, QColor(255, 255, 255, 60));
    if (m_dragStartX)
        band(m_axis.time(*m_dragStartX), m_axis.time(m_dragNowX), QColor(255, 255, 255, 90));
    m_axis.draw(painter, QRect(plot.left(), plot.bottom() + 1, plot.width(), kAxisHeightPx), palette());
    const QRect bar(plot.right() + 14, plot.top() + 4, 18, std::max(20, plot.height() - 8));
    drawBusyColorBar(painter, bar, resourceLabel(m_resource), palette());
}

void UtilizationView::drawRowLabels(QPainter& painter, const QRect& plot) const
{
    const QFontMetrics metrics(painter.font());
    const double rowHeight = double(plot.height()) / m_shown.rows;
    const int every = std::max(1, int(std::ceil(metrics.height() / rowHeight)));
    painter.setPen(palette().color(QPalette::WindowText));
    for (int s = 0; s < m_shown.rows; s += every) {
        const auto [first, last] = logicalRowsOf(s);
        QString label = m_rows[static_cast<std::size_t>(first)].label;
        if (last > first)
            label = m_rows[static_cast<std::size_t>(first)].label.trimmed() + QStringLiteral(" …");
        const int y = plot.top() + int((s + 0.5) * rowHeight);
        painter.drawText(QRect(2, y - metrics.height() / 2, kLabelWidthPx - 8, metrics.height()),
            Qt::AlignRight | Qt::AlignVCenter, metrics.elidedText(label, Qt::ElideRight, kLabelWidthPx - 10));
    }
}

void UtilizationView::drawHighlight(QPainter& painter, const QRect& plot) const
{
    if (!m_data || m_shown.rows == 0 || m_highlightedJob < 0
        || m_highlightedJob >= int(m_data->outcome->result.jobs.size()))
        return;
    const auto& job = m_data->outcome->result.jobs[static_cast<std::size_t>(m_highlightedJob)];
    const double rowHeight = double(plot.height()) / m_shown.rows;
    painter.setPen(QPen(QColor(255, 64, 64), 2));
    painter.setBrush(Qt::NoBrush);
    for (const auto& segment : job.segments)
        for (const auto& slice : segment.slices)
            for (int r = 0; r < int(m_rows.size()); ++r) {
                const auto& nodes = m_rows[static_cast<std::size_t>(r)].nodes;
                if (std::find(nodes.begin(), nodes.end(), slice.node) == nodes.end())
                    continue;
                const int shown = rowsPerShownRow() > 1 ? int(r * std::size_t(m_shown.rows) / m_rows.size()) : r;
                const int x0 = std::max(plot.left(), int(m_axis.x(segment.startS)));
                const int x1 = std::min(plot.right(), int(m_axis.x(segment.endS)));
                const int y = plot.top() + int(shown * rowHeight);
                painter.drawRect(QRect(x0 - 1, y - 1, std::max(3, x1 - x0 + 2), std::max(3, int(rowHeight) + 2)));
            }
}

QString UtilizationView::jobsText(const std::vector<int>& nodes, double fromS, double toS) const
{
    if (nodes.size() > std::size_t(kMaxTooltipNodes))
        return tr("(zoom in or expand the group to list jobs)");
    std::vector<int> jobs;
    for (int node : nodes) {
        const auto onNode = m_data->runs->jobsOn(node, fromS, toS);
        jobs.insert(jobs.end(), onNode.begin(), onNode.end());
    }
    std::sort(jobs.begin(), jobs.end());
    jobs.erase(std::unique(jobs.begin(), jobs.end()), jobs.end());
    if (jobs.empty())
        return tr("no job ran here");
    QStringList parts;
    for (std::size_t i = 0; i < jobs.size() && i < std::size_t(kMaxTooltipJobs); ++i) {
        const auto& job = m_data->outcome->result.jobs[static_cast<std::size_t>(jobs[i])];
        parts << tr("#%1 (user %2, %3 GPUs)").arg(job.jobId).arg(job.user).arg(job.gpus > 0 ? job.gpus : 0);
    }
    QString text = tr("%n job(s): ", nullptr, int(jobs.size())) + parts.join(QStringLiteral(", "));
    if (jobs.size() > std::size_t(kMaxTooltipJobs))
        text += tr(", +%1 more").arg(jobs.size() - kMaxTooltipJobs);
    return text;
}

QString UtilizationView::tooltipAt(const QPoint& position) const
{
    const QRect plot = plotRect();
    const int shown = shownRowAt(position.y());
    if (!m_data || shown < 0 || !plot.contains(position))
        return {};
    const int bin
        = std::clamp(int(double(position.x() - plot.left()) / plot.width() * m_shown.bins), 0, m_shown.bins - 1);
    const double from = m_shown.startS + bin * m_shown.binS;
    const double to = from + m_shown.binS;
    const auto [first, last] = logicalRowsOf(shown);
    std::vector<int> nodes;
    for (int r = first; r <= last; ++r) {
        const auto& rowNodes = m_rows[static_cast<std::size_t>(r)].nodes;
        nodes.insert(nodes.end(), rowNodes.begin(), rowNodes.end());
    }
    QString who = m_rows[static_cast<std::size_t>(first)].label.trimmed();
    if (last > first)
        who = tr("%1 … %2 (%3 nodes)")
                  .arg(who, m_rows[static_cast<std::size_t>(last)].label.trimmed())
                  .arg(nodes.size());
    else if (nodes.size() == 1) {
        const auto& info = m_data->outcome->result.nodes[static_cast<std::size_t>(nodes.front())];
        who += tr(" · %1 × %2")
                   .arg(info.gpus)
                   .arg(QString::fromStdString(
                       m_data->outcome->result.gpuTypeIds[static_cast<std::size_t>(info.gpuType)]));
    }
    return tr("%1\n%2 – %3: %4 %5 %\n%6")
        .arg(who, m_axis.format(from), m_axis.format(to), resourceLabel(m_resource))
        .arg(100.0 * m_shown.at(shown, bin), 0, 'f', 1)
        .arg(jobsText(nodes, from, to));
}

bool UtilizationView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = tooltipAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

void UtilizationView::mousePressEvent(QMouseEvent* event)
{
    const int x = int(event->position().x());
    if (!plotRect().contains(event->position().toPoint()))
        return;
    if (event->button() == Qt::LeftButton && !(event->modifiers() & Qt::ShiftModifier)) {
        m_dragStartX = x;
        m_dragNowX = x;
    } else {
        m_panLastX = x; // right, middle or Shift+left button: pan
    }
}

void UtilizationView::mouseMoveEvent(QMouseEvent* event)
{
    const int x = int(event->position().x());
    if (m_dragStartX) {
        m_dragNowX = std::clamp(x, plotRect().left(), plotRect().right());
        update();
    } else if (m_panLastX) {
        const double shift = m_axis.time(*m_panLastX) - m_axis.time(x);
        m_panLastX = x;
        setTimeWindow(m_axis.fromS() + shift, m_axis.toS() + shift);
    }
}

void UtilizationView::mouseReleaseEvent(QMouseEvent*)
{
    if (m_dragStartX) {
        const int start = *m_dragStartX;
        m_dragStartX.reset();
        if (std::abs(m_dragNowX - start) >= 3)
            Q_EMIT timeRangeSelected(
                std::pair {m_axis.time(std::min(start, m_dragNowX)), m_axis.time(std::max(start, m_dragNowX))});
        else
            Q_EMIT timeRangeSelected(std::nullopt); // a click clears the range
        update();
    }
    m_panLastX.reset();
}

void UtilizationView::mouseDoubleClickEvent(QMouseEvent* event)
{
    // Double-click on a group row (label or cells) expands or collapses it.
    const int shown = shownRowAt(int(event->position().y()));
    if (shown < 0 || rowsPerShownRow() > 1)
        return;
    const int group = m_rows[static_cast<std::size_t>(shown)].group;
    if (group >= 0)
        toggleGroup(group);
}

void UtilizationView::wheelEvent(QWheelEvent* event)
{
    if (!m_data)
        return;
    const double steps = event->angleDelta().y() / 120.0;
    const double factor = std::pow(0.8, steps); // one notch in: 80 % of the window
    const double at = m_axis.time(event->position().x());
    setTimeWindow(at - (at - m_axis.fromS()) * factor, at + (m_axis.toS() - at) * factor);
    event->accept();
}

} // namespace clusterplanner::ui
