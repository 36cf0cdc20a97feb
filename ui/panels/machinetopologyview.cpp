// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/machinetopologyview.h"

#include "core/probe/probejson.h"
#include "core/probe/probetext.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>

#include <map>

namespace clusterplanner::ui {

namespace {

constexpr double kMarginPx = 12;
constexpr double kGpuHeightPx = 44;
constexpr double kGapPx = 10;
const QColor kNvlinkColor(118, 185, 0); // NVIDIA green: the links users look for first
const QColor kPcieColor(110, 110, 120);

bool anySwitchLinks(const core::probe::ProbeResult& result)
{
    for (const auto& gpu : result.gpus)
        if (gpu.nvlinkSwitchLinks > 0)
            return true;
    return false;
}

} // namespace

MachineTopologyView::MachineTopologyView(QWidget* parent)
    : QWidget(parent)
{
    setMinimumHeight(170);
}

void MachineTopologyView::setProbe(const core::probe::ProbeResult& result)
{
    m_result = result;
    update();
}

QSize MachineTopologyView::sizeHint() const
{
    return {600, 190};
}

QString MachineTopologyView::summary() const
{
    std::map<std::string, int> pairs; // link description -> number of GPU pairs
    for (const auto& gpu : m_result.gpus)
        for (const auto& peer : gpu.peers)
            if (peer.peerIndex > gpu.index)
                ++pairs[core::probe::describeLink(peer)];
    QStringList lines;
    for (const auto& [text, count] : pairs)
        lines << tr("%n pair(s): %1", nullptr, count).arg(QString::fromStdString(text));
    return lines.isEmpty() ? tr("One GPU: no GPU-to-GPU links") : lines.join(QLatin1Char('\n'));
}

QRectF MachineTopologyView::gpuRect(int position) const
{
    const int count = std::max<int>(1, int(m_result.gpus.size()));
    const double width = (this->width() - 2 * kMarginPx - (count - 1) * kGapPx) / count;
    return {kMarginPx + position * (width + kGapPx), kMarginPx, width, kGpuHeightPx};
}

void MachineTopologyView::paintFabric(QPainter& painter, const QString& name, double y, bool nvlink) const
{
    const QRectF bar(kMarginPx, y, width() - 2 * kMarginPx, 26);
    const QColor color = nvlink ? kNvlinkColor : kPcieColor;
    painter.setPen(QPen(color, nvlink ? 3 : 1.5, nvlink ? Qt::SolidLine : Qt::DashLine));
    for (int i = 0; i < int(m_result.gpus.size()); ++i)
        painter.drawLine(QPointF(gpuRect(i).center().x(), gpuRect(i).bottom()), QPointF(gpuRect(i).center().x(), y));
    painter.setPen(color.darker(130));
    painter.setBrush(color.lighter(nvlink ? 170 : 160));
    painter.drawRoundedRect(bar, 5, 5);
    painter.setPen(palette().color(QPalette::WindowText));
    painter.drawText(bar, Qt::AlignCenter, name);
}

void MachineTopologyView::paintLinks(QPainter& painter) const
{
    // Direct GPU-to-GPU NVLink (NVLink bridges, DGX-1 cube mesh): arcs under the GPUs, labelled with the count.
    painter.setBrush(Qt::NoBrush);
    for (const auto& gpu : m_result.gpus)
        for (const auto& peer : gpu.peers) {
            if (peer.peerIndex <= gpu.index || peer.nvlinkLinks == 0)
                continue;
            const auto a = gpuRect(gpu.index).center();
            const auto b = gpuRect(peer.peerIndex).center();
            QPainterPath arc(QPointF(a.x(), kMarginPx + kGpuHeightPx));
            const double depth = 18 + 8 * (peer.peerIndex - gpu.index);
            arc.quadTo(QPointF((a.x() + b.x()) / 2, kMarginPx + kGpuHeightPx + depth),
                QPointF(b.x(), arc.currentPosition().y()));
            painter.setPen(QPen(kNvlinkColor, 1 + peer.nvlinkLinks));
            painter.drawPath(arc);
        }
}

void MachineTopologyView::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    if (m_result.gpus.empty()) {
        painter.drawText(rect(), Qt::AlignCenter, tr("No GPU: nothing to draw"));
        return;
    }
    const bool nvswitch = anySwitchLinks(m_result);
    const double fabricY = kMarginPx + kGpuHeightPx + 46;
    if (nvswitch)
        paintFabric(painter, tr("NVSwitch fabric — NVLink to every peer"), fabricY, true);
    paintLinks(painter);
    const auto& first = m_result.gpus.front();
    const auto ancestor = first.peers.empty()
        ? QString()
        : QString::fromStdString(core::probe::ancestorName(first.peers.back().ancestor));
    paintFabric(painter,
        tr("PCIe — CPU / host (GPU 0 to its farthest peer: %1)").arg(ancestor.isEmpty() ? tr("single GPU") : ancestor),
        nvswitch ? fabricY + 48 : fabricY, false);
    for (const auto& gpu : m_result.gpus) {
        const auto box = gpuRect(gpu.index);
        painter.setPen(palette().color(QPalette::WindowText));
        painter.setBrush(gpu.lost ? QColor(220, 120, 120) : palette().color(QPalette::Base));
        painter.drawRoundedRect(box, 5, 5);
        painter.drawText(box, Qt::AlignCenter, tr("GPU %1\n%2 NVLink").arg(gpu.index).arg(gpu.nvlinkActiveLinks));
    }
}

} // namespace clusterplanner::ui
