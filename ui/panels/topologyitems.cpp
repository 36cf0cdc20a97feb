// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/topologyitems.h"

#include "ui/charts/chartstyle.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QGuiApplication>
#include <QLocale>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

#include <algorithm>
#include <cmath>

namespace clusterplanner::ui {

namespace {

constexpr double kPadPx = 10;
constexpr double kRackAreaPx = 150; ///< height of the rack picture at most
constexpr int kRacksDrawnAtMost = 4; ///< more racks: three drawn, the rest as a count
constexpr int kGpusDrawnAtMost = 16;

QString tr(const char* text, const char* disambiguation = nullptr, int n = -1)
{
    return QCoreApplication::translate("TopologyDiagram", text, disambiguation, n);
}

QString count(long long value)
{
    return QLocale().toString(value);
}

QFont diagramFont(bool bold = false)
{
    QFont font = QGuiApplication::font();
    font.setBold(bold);
    return font;
}

double lineHeight()
{
    return QFontMetricsF(diagramFont()).lineSpacing();
}

double wrappedHeight(const QStringList& lines, double width)
{
    const QFontMetricsF metrics(diagramFont());
    double height = 0;
    for (const auto& line : lines)
        height += metrics.boundingRect(QRectF(0, 0, width, 1e6), Qt::TextWordWrap, line).height() + 2;
    return height;
}

/// Draws `lines` word-wrapped from the top of `area`; returns the y below them.
double drawWrapped(QPainter& painter, const QRectF& area, const QStringList& lines)
{
    double y = area.top();
    for (const auto& line : lines) {
        const QRectF box = painter.boundingRect(QRectF(area.left(), y, area.width(), 1e6), Qt::TextWordWrap, line);
        painter.drawText(QRectF(area.left(), y, area.width(), box.height()), Qt::TextWordWrap, line);
        y += box.height() + 2;
    }
    return y;
}

QString gbps(double value)
{
    return QLocale().toString(value, 'f', value == std::floor(value) ? 0 : 1) + tr(" Gb/s");
}

/// Height of one rack drawing: nodes as rows of at most 18 px, the rack at most kRackAreaPx tall.
double rackHeightPx(const core::cluster::NodeGroup& g)
{
    const int perRack = std::max(1, g.nodesPerRack);
    return std::clamp((kRackAreaPx - 6) / perRack, 3.0, 18.0) * perRack + 6;
}

} // namespace

namespace topologycolors {
QColor gpu()
{
    return {0x56, 0xB4, 0xE9};
}
QColor domain()
{
    return {0x2E, 0x8B, 0x22};
} // NVLink green, darker for contrast on white
QColor rack()
{
    return {0x50, 0x50, 0x58};
}
QColor issue()
{
    return {0xD0, 0x30, 0x30};
}
QColor tier(int index)
{
    return categoryColor(4 + index).lighter(150);
}
QColor group(int index)
{
    return categoryColor(index).lighter(170);
}
} // namespace topologycolors

GroupItem::GroupItem(const core::cluster::NodeGroup& group, int index, bool training, QStringList issues)
    : m_group(group)
    , m_index(index)
    , m_training(training)
    , m_issues(std::move(issues))
{
    setFlag(ItemIsSelectable);
    setData(0, int(TopologyElement::Group));
    setData(1, index);
    const double text = (2 + textLines().size()) * lineHeight();
    m_height
        = kPadPx * 3 + text + rackHeightPx(m_group) + 2 * lineHeight() + wrappedHeight(m_issues, kWidthPx - 2 * kPadPx);
    setToolTip(textLines().join(QLatin1Char('\n')));
}

QRectF GroupItem::boundingRect() const
{
    return {-2, -2, kWidthPx + 4, m_height + 4};
}

QStringList GroupItem::textLines() const
{
    const auto& g = m_group;
    QStringList lines;
    lines << tr("%1 nodes × %2 GPUs = %3 GPUs").arg(count(g.nodeCount), count(g.gpusPerNode), count(g.gpuCount()));
    const int domain = g.scaleUpDomainGpus;
    if (domain > g.gpusPerNode && g.gpusPerNode > 0)
        lines << tr("NVLink domain: %1 GPUs across %2 nodes").arg(domain).arg(double(domain) / g.gpusPerNode);
    else if (domain < g.gpusPerNode && domain > 0)
        lines << tr("NVLink domain: %1 GPUs (%2 per node)").arg(domain).arg(double(g.gpusPerNode) / domain);
    else
        lines << tr("NVLink domain: %1 GPUs (the node)").arg(domain);
    lines << tr("NICs: %1 × %2 per node").arg(g.nicsPerNode).arg(gbps(g.nicGbps));
    const int racks = g.nodesPerRack > 0 ? (g.nodeCount + g.nodesPerRack - 1) / g.nodesPerRack : 0;
    lines << tr("Racks: %1 × %2 nodes").arg(count(racks)).arg(g.nodesPerRack);
    QStringList extras;
    if (g.gpuPowerLimitW)
        extras << tr("GPU limit %1 W").arg(*g.gpuPowerLimitW, 0, 'f', 0);
    if (g.nodePriceUsd)
        extras << tr("node $%1").arg(QLocale().toString(*g.nodePriceUsd, 'f', 0));
    if (!extras.isEmpty())
        lines << extras.join(QStringLiteral(" · "));
    return lines;
}

void GroupItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*)
{
    const QRectF box(0, 0, kWidthPx, m_height);
    const bool selected = option->state & QStyle::State_Selected;
    const bool broken = !m_issues.isEmpty();
    painter->setPen(QPen(broken ? topologycolors::issue() : topologycolors::rack(), broken || selected ? 3 : 1.2));
    painter->setBrush(Qt::white);
    painter->drawRoundedRect(box, 6, 6);
    const double header = 2 * lineHeight() + kPadPx;
    painter->setPen(Qt::NoPen);
    painter->setBrush(topologycolors::group(m_index));
    painter->drawRoundedRect(box.adjusted(1.5, 1.5, -1.5, -(m_height - header)), 5, 5);
    painter->setPen(Qt::black);
    painter->setFont(diagramFont(true));
    const QString title = QString::fromStdString(m_group.name) + (m_training ? tr("  ★ training group") : QString());
    painter->drawText(QRectF(kPadPx, kPadPx / 2, kWidthPx - 2 * kPadPx, lineHeight()), Qt::AlignLeft, title);
    painter->setFont(diagramFont());
    painter->drawText(QRectF(kPadPx, kPadPx / 2 + lineHeight(), kWidthPx - 2 * kPadPx, lineHeight()), Qt::AlignLeft,
        QString::fromStdString(m_group.gpuId));
    double y = header + kPadPx / 2;
    for (const auto& line : textLines()) {
        painter->drawText(QRectF(kPadPx, y, kWidthPx - 2 * kPadPx, lineHeight()), Qt::AlignLeft, line);
        y += lineHeight();
    }
    y += kPadPx;
    paintRacks(*painter, QRectF(kPadPx, y, kWidthPx - 2 * kPadPx, rackHeightPx(m_group) + 2 * lineHeight()));
    y += rackHeightPx(m_group) + 2 * lineHeight() + kPadPx;
    painter->setPen(topologycolors::issue());
    QStringList warnings;
    for (const auto& issue : m_issues)
        warnings << QStringLiteral("⚠ ") + issue;
    drawWrapped(*painter, QRectF(kPadPx, y, kWidthPx - 2 * kPadPx, 1e6), warnings);
}

void GroupItem::paintRacks(QPainter& painter, const QRectF& area) const
{
    const auto& g = m_group;
    const int perRack = std::max(1, g.nodesPerRack);
    const int racks = std::max(1, (g.nodeCount + perRack - 1) / perRack);
    const bool collapsed = racks > kRacksDrawnAtMost;
    const int drawn = collapsed ? kRacksDrawnAtMost - 1 : racks;
    const double gap = 8;
    const double moreWidth = collapsed ? 90 : 0;
    const double rackWidth = std::min(78.0, (area.width() - moreWidth - gap * (drawn - 1)) / drawn);
    const double rackHeight = rackHeightPx(g);
    for (int r = 0; r < drawn; ++r) {
        const int nodes = std::min(perRack, g.nodeCount - r * perRack);
        paintRack(painter, QRectF(area.left() + r * (rackWidth + gap), area.top(), rackWidth, rackHeight), r * perRack,
            std::max(0, nodes));
    }
    painter.setPen(Qt::black);
    painter.setFont(diagramFont());
    const double right = area.left() + drawn * (rackWidth + gap);
    if (collapsed)
        painter.drawText(QRectF(right, area.top(), moreWidth, rackHeight), Qt::AlignCenter | Qt::TextWordWrap,
            tr("… %1 more racks").arg(count(racks - drawn)));
    const QString caption = collapsed ? tr("%1 of %2 racks drawn; each node a row of GPUs").arg(drawn).arg(count(racks))
                                      : tr("every rack drawn; each node a row of GPUs");
    painter.drawText(
        QRectF(area.left(), area.top() + rackHeight + 4, area.width(), lineHeight()), Qt::AlignLeft, caption);
}

void GroupItem::paintRack(QPainter& painter, const QRectF& rack, int firstNode, int nodes) const
{
    const auto& g = m_group;
    painter.setPen(QPen(topologycolors::rack(), 2));
    painter.setBrush(QColor(0xF2, 0xF2, 0xF4));
    painter.drawRoundedRect(rack, 2, 2);
    const double nodeHeight = (rack.height() - 6) / std::max(1, g.nodesPerRack);
    const QRectF inner = rack.adjusted(3, 3, -3, -3);
    const int gpus = std::min(g.gpusPerNode, kGpusDrawnAtMost);
    const double cell = gpus > 0 ? inner.width() / gpus : inner.width();
    painter.setPen(Qt::NoPen);
    painter.setBrush(topologycolors::gpu());
    for (int n = 0; n < nodes; ++n)
        for (int k = 0; k < gpus; ++k)
            painter.drawRect(QRectF(inner.left() + k * cell + 0.5, inner.top() + n * nodeHeight + 0.5,
                std::max(1.0, cell - 1), std::max(1.0, nodeHeight - 1)));
    // NVLink domains: runs of GPUs inside a node, a node, or runs of nodes.
    painter.setPen(QPen(topologycolors::domain(), 2.2));
    painter.setBrush(Qt::NoBrush);
    const int domain = std::max(1, g.scaleUpDomainGpus);
    if (domain < g.gpusPerNode && g.gpusPerNode <= kGpusDrawnAtMost) {
        for (int n = 0; n < nodes; ++n)
            for (int k = 0; k < gpus; k += domain)
                painter.drawRect(
                    QRectF(inner.left() + k * cell, inner.top() + n * nodeHeight, domain * cell, nodeHeight));
        return;
    }
    const int nodesPerDomain = std::max(1, domain / std::max(1, g.gpusPerNode));
    for (int n = 0; n < nodes;) {
        const int global = firstNode + n;
        const int run = std::min(nodes - n, nodesPerDomain - global % nodesPerDomain);
        painter.drawRect(QRectF(inner.left(), inner.top() + n * nodeHeight, inner.width(), run * nodeHeight));
        n += run;
    }
}

TierItem::TierItem(const core::cluster::FabricTier& tier, const core::cluster::TierFigures* figures, int index,
    bool top, double widthPx, QStringList issues)
    : m_tier(tier)
    , m_index(index)
    , m_top(top)
    , m_width(widthPx)
    , m_issues(std::move(issues))
{
    if (figures)
        m_figures = *figures;
    setFlag(ItemIsSelectable);
    setData(0, int(TopologyElement::Tier));
    setData(1, index);
    QStringList warnings = m_issues;
    m_height = 2 * lineHeight() + 2 * kPadPx + wrappedHeight(warnings, m_width - 2 * kPadPx);
    setToolTip(headline() + QLatin1Char('\n') + detail());
}

QRectF TierItem::boundingRect() const
{
    return {-2, -2, m_width + 4, m_height + 4};
}

QString TierItem::headline() const
{
    const QString name = QString::fromStdString(m_tier.name);
    const QString ports = tr("%1-port %2 switches").arg(m_tier.switchRadix).arg(gbps(m_tier.portGbps));
    if (m_top)
        return tr("%1 (top tier) · %2").arg(name, ports);
    const QString ratio = m_tier.oversubscription <= 1.0
        ? tr("1:1 non-blocking")
        : tr("%1:1 oversubscribed").arg(QLocale().toString(m_tier.oversubscription, 'g', 3));
    return tr("%1 · %2 · %3").arg(name, ports, ratio);
}

QString TierItem::detail() const
{
    if (!m_figures)
        return tr("no figures (see the problem above)");
    const auto& f = *m_figures;
    return tr("%1 switches · %2 uplinks · bisection %3 Tb/s")
        .arg(count(f.switches), count(f.uplinks), QLocale().toString(f.bisectionGbps / 1000, 'f', 1));
}

void TierItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*)
{
    const bool selected = option->state & QStyle::State_Selected;
    const bool broken = !m_issues.isEmpty();
    painter->setPen(QPen(
        broken ? topologycolors::issue() : topologycolors::tier(m_index).darker(160), broken || selected ? 3 : 1.2));
    painter->setBrush(topologycolors::tier(m_index));
    painter->drawRoundedRect(QRectF(0, 0, m_width, m_height), 6, 6);
    painter->setPen(Qt::black);
    painter->setFont(diagramFont(true));
    painter->drawText(QRectF(kPadPx, kPadPx, m_width - 2 * kPadPx, lineHeight()), Qt::AlignLeft, headline());
    painter->setFont(diagramFont());
    painter->drawText(
        QRectF(kPadPx, kPadPx + lineHeight(), m_width - 2 * kPadPx, lineHeight()), Qt::AlignLeft, detail());
    painter->setPen(topologycolors::issue());
    QStringList warnings;
    for (const auto& issue : m_issues)
        warnings << QStringLiteral("⚠ ") + issue;
    drawWrapped(*painter, QRectF(kPadPx, kPadPx + 2 * lineHeight(), m_width - 2 * kPadPx, 1e6), warnings);
}

} // namespace clusterplanner::ui
