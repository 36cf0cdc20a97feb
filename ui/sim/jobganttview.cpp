// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/sim/jobganttview.h"

#include "ui/charts/chartstyle.h"
#include "ui/sim/simulationlabels.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>
#include <QtConcurrent>

#include <algorithm>
#include <cmath>

namespace clusterplanner::ui {

namespace {

constexpr int kLabelWidthPx = 130;
constexpr int kLegendHeightPx = 24;
constexpr int kAxisHeightPx = 46;
constexpr int kRightMarginPx = 16;
constexpr int kMaxLabelledJobs = 3000;

/// Fills [x0, x1) × [y0, y1) of an RGB32 image, clipped; faster than QPainter for 100,000s of tiny bars.
void fill(QImage& image, int x0, int x1, int y0, int y1, QRgb color)
{
    x0 = std::max(0, x0);
    y0 = std::max(0, y0);
    x1 = std::min(image.width(), x1);
    y1 = std::min(image.height(), y1);
    for (int y = y0; y < y1; ++y)
        std::fill_n(reinterpret_cast<QRgb*>(image.scanLine(y)) + x0, std::max(0, x1 - x0), color);
}

// Black: the size palette has a red (9-16 GPUs) and the user palette a vermillion, so a red tick could not be told
// from a bar.
const QColor kPreemptColor(20, 20, 20);
const QColor kWaitColor(150, 150, 150);
constexpr std::size_t kAsyncJobs = 20000; ///< from this many jobs the bars are drawn off the GUI thread

QColor colorOfJob(const core::sched::JobRecord& r, JobGanttView::ColorBy colorBy)
{
    switch (colorBy) {
    case JobGanttView::ColorBy::User:
        // Eight colour-blind-safe hues, three lightness steps: 24 users before a colour repeats.
        return categoryColor(r.user % 8).lighter(100 + 25 * ((r.user / 8) % 3));
    case JobGanttView::ColorBy::Size: {
        const int gpus = r.gpus;
        const int step = gpus == 0 ? 0
            : gpus == 1            ? 1
            : gpus <= 2            ? 2
            : gpus <= 4            ? 3
            : gpus <= 8            ? 4
            : gpus <= 16           ? 5
                                   : 6;
        static const QColor sizes[] = {QColor(0xa6cee3), QColor(0x1f78b4), QColor(0x33a02c), QColor(0xb2df8a),
            QColor(0xff7f00), QColor(0xe31a1c), QColor(0x6a3d9a)};
        return sizes[step];
    }
    case JobGanttView::ColorBy::State:
        return r.unfinished ? QColor(0x999999) : r.preemptions > 0 ? QColor(0xe69f00) : QColor(0x0072b2);
    }
    return Qt::gray;
}

/// Everything the bars depend on, copied so that a pool thread can draw them.
struct GanttFrame
{
    std::shared_ptr<const SimulationData> data;
    std::shared_ptr<const std::vector<int>> jobs;
    std::vector<int> firstRowOfNode;
    TimeAxis axis;
    QSize size;
    int plotLeft = 0;
    double rowHeight = 1;
    JobGanttView::ColorBy colorBy = JobGanttView::ColorBy::User;
    QColor base;
};

int rowOfIn(const GanttFrame& f, int node, int gpu)
{
    const int first = f.firstRowOfNode[static_cast<std::size_t>(node)];
    return first < 0 ? -1 : first + gpu;
}

QImage drawBars(const GanttFrame& f)
{
    QImage image(f.size, QImage::Format_RGB32);
    image.fill(f.base);
    const auto& result = f.data->outcome->result;
    const double h = f.rowHeight;
    const int gap = h >= 5 ? 1 : 0;
    auto xOf = [&](double t) { return int(std::floor(f.axis.x(t))) - f.plotLeft; };
    auto yOf = [&](int row) { return int(std::floor(row * h)); };
    const QRgb wait = kWaitColor.rgb();
    const QRgb preempt = kPreemptColor.rgb();
    for (int j : *f.jobs) {
        const auto& job = result.jobs[static_cast<std::size_t>(j)];
        const QRgb color = colorOfJob(job, f.colorBy).rgb();
        double lastEnd = job.submitS;
        for (std::size_t s = 0; s < job.segments.size(); ++s) {
            const auto& segment = job.segments[s];
            const int x0 = xOf(segment.startS), x1 = std::max(x0 + 1, xOf(segment.endS));
            int firstRow = -1;
            for (const auto& slice : segment.slices)
                for (int gpu : slice.gpus) {
                    const int row = rowOfIn(f, slice.node, gpu);
                    if (row < 0)
                        continue;
                    firstRow = firstRow < 0 ? row : std::min(firstRow, row);
                    const int y0 = yOf(row);
                    fill(image, x0, x1, y0, std::max(y0 + 1, yOf(row + 1) - gap), color);
                }
            if (firstRow < 0)
                continue;
            // Waiting before this run (the queue before the first start, or after a preemption).
            const int ym = yOf(firstRow) + int(h / 2);
            fill(image, xOf(lastEnd), x0, ym, ym + (h >= 6 ? 2 : 1), wait);
            if (s + 1 < job.segments.size()) // preempted here
                fill(image, x1 - 1, x1 + 2, yOf(firstRow), std::max(yOf(firstRow) + 2, yOf(firstRow + 1)), preempt);
            lastEnd = segment.endS;
        }
    }
    return image;
}

} // namespace

JobGanttView::JobGanttView(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("jobGantt"));
    setMouseTracking(true);
    setMinimumSize(240, 100);
    connect(&m_watcher, &QFutureWatcher<QImage>::finished, this, &JobGanttView::applyDrawn);
}

void JobGanttView::setData(std::shared_ptr<const SimulationData> simulation)
{
    m_data = std::move(simulation);
    m_range.reset();
    m_selectedJob = -1;
    rebuildRows();
}

void JobGanttView::setColorBy(ColorBy colorBy)
{
    m_colorBy = colorBy;
    render();
}

void JobGanttView::setTimeRange(std::optional<std::pair<double, double>> range)
{
    if (range == m_range)
        return; // a redraw of 100,000 jobs is not free: only when the range changed
    m_range = range;
    rebuildRows();
}

void JobGanttView::setSelectedJob(int job)
{
    m_selectedJob = job;
    render();
}

QRect JobGanttView::plotRect() const
{
    return QRect(kLabelWidthPx, kLegendHeightPx + 4, std::max(10, width() - kLabelWidthPx - kRightMarginPx),
        std::max(10, height() - kLegendHeightPx - 4 - kAxisHeightPx));
}

double JobGanttView::rowHeight() const
{
    return m_rowCount > 0 ? double(plotRect().height()) / m_rowCount : 1;
}

int JobGanttView::rowOf(int node, int gpu) const
{
    const int first = m_firstRowOfNode[static_cast<std::size_t>(node)];
    return first < 0 ? -1 : first + gpu;
}

void JobGanttView::rebuildRows()
{
    m_nodes.clear();
    m_jobs.clear();
    m_rowCount = 0;
    if (!m_data) {
        render();
        return;
    }
    const auto& result = m_data->outcome->result;
    m_firstRowOfNode.assign(result.nodes.size(), -1);
    double from = result.startS, to = std::max(result.endS, result.startS + 1);
    if (m_range) {
        std::tie(from, to) = *m_range;
        m_nodes = m_data->runs->nodesIn(from, to);
        m_jobs = m_data->runs->jobsIn(from, to);
    } else {
        for (const auto& info : result.nodes)
            m_nodes.push_back(info.id);
        for (int j = 0; j < int(result.jobs.size()); ++j)
            if (!result.jobs[static_cast<std::size_t>(j)].segments.empty())
                m_jobs.push_back(j);
    }
    for (int node : m_nodes) {
        m_firstRowOfNode[static_cast<std::size_t>(node)] = m_rowCount;
        m_rowCount += result.nodes[static_cast<std::size_t>(node)].gpus;
    }
    const QRect plot = plotRect();
    m_axis = TimeAxis(from, to, plot.left(), plot.width(), result.startS);
    render();
}

QColor JobGanttView::jobColor(int job) const
{
    return colorOfJob(m_data->outcome->result.jobs[static_cast<std::size_t>(job)], m_colorBy);
}

QVector<std::pair<QString, QColor>> JobGanttView::legend() const
{
    QVector<std::pair<QString, QColor>> entries;
    switch (m_colorBy) {
    case ColorBy::User:
        for (int u = 0; u < 8; ++u)
            entries.append({tr("user %1").arg(u), categoryColor(u)});
        entries.append({tr("(colours repeat every 24 users)"), QColor()});
        break;
    case ColorBy::Size: {
        const QStringList names = {
            tr("< 1 GPU"), tr("1 GPU"), tr("2 GPUs"), tr("3–4 GPUs"), tr("5–8 GPUs"), tr("9–16 GPUs"), tr("> 16 GPUs")};
        static const QColor sizes[] = {QColor(0xa6cee3), QColor(0x1f78b4), QColor(0x33a02c), QColor(0xb2df8a),
            QColor(0xff7f00), QColor(0xe31a1c), QColor(0x6a3d9a)};
        for (int i = 0; i < names.size(); ++i)
            entries.append({names[i], sizes[i]});
        break;
    }
    case ColorBy::State:
        entries.append({tr("ran without interruption"), QColor(0x0072b2)});
        entries.append({tr("preempted at least once"), QColor(0xe69f00)});
        entries.append({tr("unfinished at the end"), QColor(0x999999)});
        break;
    }
    entries.append({tr("waiting (queued)"), kWaitColor});
    entries.append({tr("preemption"), kPreemptColor});
    return entries;
}

void JobGanttView::resizeEvent(QResizeEvent*)
{
    const QRect plot = plotRect();
    m_axis = TimeAxis(
        m_axis.fromS(), m_axis.toS(), plot.left(), plot.width(), m_data ? m_data->outcome->result.startS : 0);
    render();
}

void JobGanttView::render()
{
    const QRect plot = plotRect();
    if (!m_data || m_rowCount == 0) {
        m_image = QImage(plot.size(), QImage::Format_RGB32);
        m_image.fill(palette().color(QPalette::Base));
        m_watcher.setFuture(QFuture<QImage>());
        update();
        return;
    }
    GanttFrame frame {m_data, std::make_shared<const std::vector<int>>(m_jobs), m_firstRowOfNode, m_axis, plot.size(),
        plot.left(), rowHeight(), m_colorBy, palette().color(QPalette::Base)};
    if (m_jobs.size() < kAsyncJobs) {
        m_image = drawBars(frame);
        m_watcher.setFuture(QFuture<QImage>()); // drops a pending drawing
        update();
        return;
    }
    // Large runs are drawn in a pool thread; the old image stays up until the new one is ready.
    m_watcher.setFuture(QtConcurrent::run(drawBars, std::move(frame)));
}

void JobGanttView::applyDrawn()
{
    if (m_watcher.future().resultCount() == 0)
        return;
    m_image = m_watcher.future().result();
    update();
}

bool JobGanttView::isRendering() const
{
    return m_watcher.isRunning();
}

void JobGanttView::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.fillRect(rect(), palette().color(QPalette::Window));
    const QRect plot = plotRect();
    const QFontMetrics metrics(painter.font());
    // Legend on one line above the plot.
    int x = plot.left();
    painter.setPen(palette().color(QPalette::WindowText));
    for (const auto& [text, color] : legend()) {
        if (color.isValid()) {
            painter.fillRect(QRect(x, 6, 12, 12), color);
            x += 16;
        }
        painter.drawText(x, 6 + metrics.ascent(), text);
        x += metrics.horizontalAdvance(text) + 14;
    }
    if (!m_data || m_rowCount == 0) {
        painter.drawText(
            plot, Qt::AlignCenter, m_data ? tr("No job ran in this time range.") : tr("No simulation yet."));
        return;
    }
    painter.drawImage(plot.topLeft(), m_image);
    painter.setPen(palette().color(QPalette::Mid));
    painter.drawRect(plot.adjusted(0, 0, -1, -1));
    const auto& result = m_data->outcome->result;
    const double h = rowHeight();
    // Node labels: one per node block, as many as fit.
    painter.setPen(palette().color(QPalette::WindowText));
    int lastLabelY = -1000;
    for (int node : m_nodes) {
        const int first = m_firstRowOfNode[static_cast<std::size_t>(node)];
        const int gpus = result.nodes[static_cast<std::size_t>(node)].gpus;
        const int yTop = plot.top() + int(first * h);
        const int yMid = plot.top() + int((first + gpus / 2.0) * h);
        if (yMid - lastLabelY >= metrics.height()) {
            painter.drawText(QRect(0, yMid - metrics.height() / 2, kLabelWidthPx - 8, metrics.height()),
                Qt::AlignRight | Qt::AlignVCenter, tr("node %1").arg(node));
            lastLabelY = yMid;
        }
        if (gpus * h >= 6) { // node boundary
            painter.setPen(palette().color(QPalette::Mid));
            painter.drawLine(plot.left(), yTop, plot.right(), yTop);
            painter.setPen(palette().color(QPalette::WindowText));
        }
    }
    // Job ids inside wide enough bars, and the selected job outlined.
    if (h >= 12 && m_jobs.size() <= std::size_t(kMaxLabelledJobs)) {
        painter.setPen(Qt::white);
        for (int j : m_jobs) {
            const auto& job = result.jobs[static_cast<std::size_t>(j)];
            for (const auto& segment : job.segments) {
                const auto& slice = segment.slices.front();
                const int row = rowOf(slice.node, slice.gpus.empty() ? 0 : slice.gpus.front());
                const int x0 = int(m_axis.x(segment.startS)), x1 = int(m_axis.x(segment.endS));
                const QString label = QStringLiteral("#%1").arg(job.jobId);
                if (row >= 0 && x1 - x0 > metrics.horizontalAdvance(label) + 4)
                    painter.drawText(QRect(x0, plot.top() + int(row * h), x1 - x0, int(h)), Qt::AlignCenter, label);
            }
        }
    }
    if (m_selectedJob >= 0 && m_selectedJob < int(result.jobs.size())) {
        painter.setPen(QPen(palette().color(QPalette::Highlight), 3));
        for (const auto& segment : result.jobs[static_cast<std::size_t>(m_selectedJob)].segments)
            for (const auto& slice : segment.slices)
                for (int gpu : slice.gpus) {
                    const int row = rowOf(slice.node, gpu);
                    if (row < 0)
                        continue;
                    const int x0 = int(m_axis.x(segment.startS)), x1 = int(m_axis.x(segment.endS));
                    painter.drawRect(QRect(x0, plot.top() + int(row * h), std::max(2, x1 - x0), std::max(2, int(h))));
                }
    }
    m_axis.draw(painter, QRect(plot.left(), plot.bottom() + 1, plot.width(), kAxisHeightPx), palette());
}

std::optional<int> JobGanttView::jobAt(const QPoint& position) const
{
    const QRect plot = plotRect();
    if (!m_data || m_rowCount == 0 || !plot.contains(position))
        return std::nullopt;
    const int row = std::clamp(int((position.y() - plot.top()) / rowHeight()), 0, m_rowCount - 1);
    const auto it = std::upper_bound(m_nodes.begin(), m_nodes.end(), row,
        [this](int r, int node) { return r < m_firstRowOfNode[static_cast<std::size_t>(node)]; });
    if (it == m_nodes.begin())
        return std::nullopt;
    const int node = *(it - 1);
    const int gpu = row - m_firstRowOfNode[static_cast<std::size_t>(node)];
    // A pixel spans some time: look in a window of ±1 px.
    const double t = m_axis.time(position.x());
    const double slack = m_axis.time(position.x() + 1) - t;
    for (int j : m_data->runs->jobsOn(node, t - slack, t + slack))
        for (const auto& segment : m_data->outcome->result.jobs[static_cast<std::size_t>(j)].segments)
            if (segment.startS <= t + slack && segment.endS >= t - slack)
                for (const auto& slice : segment.slices)
                    if (slice.node == node && std::find(slice.gpus.begin(), slice.gpus.end(), gpu) != slice.gpus.end())
                        return j;
    return std::nullopt;
}

void JobGanttView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    if (const auto job = jobAt(event->position().toPoint()))
        Q_EMIT jobClicked(*job);
}

void JobGanttView::wheelEvent(QWheelEvent* event)
{
    if (!m_data)
        return;
    const auto& r = m_data->outcome->result;
    const double factor = std::pow(0.8, event->angleDelta().y() / 120.0);
    const double at = m_axis.time(event->position().x());
    const double lo = std::max(r.startS, at - (at - m_axis.fromS()) * factor);
    const double hi = std::min(std::max(r.endS, r.startS + 1), at + (m_axis.toS() - at) * factor);
    if (hi - lo < 1)
        return;
    const QRect plot = plotRect();
    m_axis = TimeAxis(lo, hi, plot.left(), plot.width(), r.startS);
    render();
    event->accept();
}

bool JobGanttView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        if (const auto j = jobAt(help->pos())) {
            const auto& job = m_data->outcome->result.jobs[static_cast<std::size_t>(*j)];
            QToolTip::showText(help->globalPos(),
                tr("Job #%1 · user %2 · %3 GPUs · waited %4 · %5 preemption(s) — click for details")
                    .arg(job.jobId)
                    .arg(job.user)
                    .arg(job.gpus)
                    .arg(durationText(job.queuedS))
                    .arg(job.preemptions),
                this);
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QWidget::event(event);
}

} // namespace clusterplanner::ui
