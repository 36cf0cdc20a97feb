// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/topologyscene.h"

#include <QFontMetricsF>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QLocale>
#include <QPen>
#include <QSignalBlocker>

#include <algorithm>

namespace clusterplanner::ui {

namespace {

constexpr int kGroupsPerRow = 4;
constexpr double kGapPx = 24;
constexpr double kTierGapPx = 40;
constexpr double kMinWidthPx = 760;

QString count(long long value)
{
    return QLocale().toString(value);
}

} // namespace

TopologyScene::TopologyScene(QObject* parent)
    : QGraphicsScene(parent)
{
    setBackgroundBrush(Qt::white);
}

QGraphicsSimpleTextItem* TopologyScene::addLabel(const QString& text, QPointF at, bool bold)
{
    auto* label = addSimpleText(text);
    QFont font = label->font();
    font.setBold(bold);
    label->setFont(font);
    label->setBrush(Qt::black);
    label->setPos(at);
    return label;
}

QStringList TopologyScene::issuesAt(const QString& prefix)
{
    QStringList reasons;
    auto it = m_pendingIssues.begin();
    while (it != m_pendingIssues.end()) {
        const QString where = QString::fromStdString(it->where);
        // "groups[1]" also claims "groups[1].nodes_per_rack"; "groups[1]" does not claim "groups[10]".
        if (where == prefix || where.startsWith(prefix + QLatin1Char('.'))) {
            reasons << QString::fromStdString(it->reason);
            m_drawnIssues << where + QStringLiteral(": ") + reasons.back();
            it = m_pendingIssues.erase(it);
        } else {
            ++it;
        }
    }
    return reasons;
}

void TopologyScene::setCluster(const core::cluster::ClusterSpec& spec, const std::string& trainingGroup,
    const core::cluster::ClusterFigures* figures, const QString& error)
{
    clear();
    m_drawnIssues.clear();
    m_pendingIssues = figures ? figures->issues : std::vector<core::cluster::ClusterIssue> {};
    const int columns = std::clamp(int(spec.groups.size()), 1, kGroupsPerRow);
    const double width = std::max(kMinWidthPx, columns * (GroupItem::kWidthPx + kGapPx) - kGapPx);
    double y = addHeader(spec, figures, 0);
    y = addLegend(y + 6);
    const double leafBottom = addTiers(spec, figures, y + 16, width);
    y = addGroups(spec, trainingGroup, leafBottom + kTierGapPx + 10, width, leafBottom);
    addOtherIssues(y + 16, width, error);
    setSceneRect(itemsBoundingRect().adjusted(-12, -12, 12, 12));
}

double TopologyScene::addHeader(
    const core::cluster::ClusterSpec& spec, const core::cluster::ClusterFigures* figures, double y)
{
    QStringList parts;
    parts << QString::fromStdString(spec.name);
    if (figures)
        parts << tr("%1 GPUs in %2 nodes, %3 %4")
                     .arg(count(figures->gpus), count(figures->nodes), count(figures->racks),
                         figures->racks == 1 ? tr("rack") : tr("racks"));
    parts << tr("rack limit %1 kW").arg(spec.facility.rackPowerLimitKw, 0, 'f', 0);
    if (spec.facility.pue)
        parts << tr("PUE %1").arg(*spec.facility.pue, 0, 'f', 2);
    parts << (spec.fabric.railOptimized ? tr("rail-optimised fabric") : tr("fabric not rail-optimised"));
    auto* label = addLabel(parts.join(QStringLiteral(" · ")), {0, y}, true);
    return y + label->boundingRect().height();
}

double TopologyScene::addLegend(double y)
{
    double x = 0;
    const auto entry = [this, &x, y](const QString& text, const QBrush& brush, const QPen& pen) {
        auto* swatch = addRect(QRectF(x, y + 3, 14, 12), pen, brush);
        swatch->setToolTip(text);
        auto* label = addLabel(text, {x + 19, y});
        x += 19 + label->boundingRect().width() + 18;
    };
    entry(tr("GPU"), topologycolors::gpu(), Qt::NoPen);
    entry(tr("NVLink (scale-up) domain"), Qt::NoBrush, QPen(topologycolors::domain(), 2));
    entry(tr("rack"), QColor(0xF2, 0xF2, 0xF4), QPen(topologycolors::rack(), 2));
    entry(tr("switch tier"), topologycolors::tier(0), QPen(topologycolors::tier(0).darker(160)));
    entry(tr("problem (reason in red)"), Qt::NoBrush, QPen(topologycolors::issue(), 3));
    return y + 20;
}

double TopologyScene::addTiers(
    const core::cluster::ClusterSpec& spec, const core::cluster::ClusterFigures* figures, double y, double width)
{
    const auto& tiers = spec.fabric.tiers;
    QPen linkPen(topologycolors::rack(), 1.5);
    for (int i = int(tiers.size()) - 1; i >= 0; --i) {
        const auto* tierFigures = figures && i < int(figures->tiers.size()) ? &figures->tiers[std::size_t(i)] : nullptr;
        auto* item = new TierItem(tiers[std::size_t(i)], tierFigures, i, i == int(tiers.size()) - 1, width,
            issuesAt(QStringLiteral("fabric.tiers[%1]").arg(i)));
        item->setPos(0, y);
        addItem(item);
        y += item->boundingRect().height() - 4;
        if (i == 0)
            break;
        // Links up from the tier below: a few strokes stand for all of them, the count says how many.
        for (int k = 1; k <= 7; ++k)
            addLine(QLineF(width * k / 8, y, width * k / 8, y + kTierGapPx), linkPen);
        const auto* below
            = figures && i - 1 < int(figures->tiers.size()) ? &figures->tiers[std::size_t(i - 1)] : nullptr;
        if (below) {
            auto* label
                = addLabel(tr("%1 uplinks from %2")
                               .arg(count(below->uplinks), QString::fromStdString(tiers[std::size_t(i - 1)].name)),
                    {width / 16 + 6, y + kTierGapPx / 2 - 8});
            label->setBrush(topologycolors::rack());
        }
        y += kTierGapPx;
    }
    return y;
}

double TopologyScene::addGroups(
    const core::cluster::ClusterSpec& spec, const std::string& trainingGroup, double y, double width, double leafBottom)
{
    if (spec.groups.empty()) {
        addLabel(tr("No node group: add one with \"Add group\"."), {0, y});
        return y + 24;
    }
    const int columns = std::min(int(spec.groups.size()), kGroupsPerRow);
    const double rowWidth = columns * (GroupItem::kWidthPx + kGapPx) - kGapPx;
    const double left = (width - rowWidth) / 2;
    double rowTop = y;
    double rowBottom = y;
    for (int i = 0; i < int(spec.groups.size()); ++i) {
        const auto& group = spec.groups[std::size_t(i)];
        if (i > 0 && i % kGroupsPerRow == 0)
            rowTop = rowBottom + kGapPx;
        auto* item
            = new GroupItem(group, i, group.name == trainingGroup, issuesAt(QStringLiteral("groups[%1]").arg(i)));
        item->setPos(left + (i % kGroupsPerRow) * (GroupItem::kWidthPx + kGapPx), rowTop);
        addItem(item);
        rowBottom = std::max(rowBottom, rowTop + item->boundingRect().height());
        // The group's NICs go up to the leaf tier (drawn behind later rows' blocks).
        const QPointF anchor = item->linkAnchor();
        auto* link = addLine(QLineF(anchor, QPointF(anchor.x(), leafBottom)), QPen(topologycolors::rack(), 2));
        link->setZValue(-1);
        if (i < kGroupsPerRow) {
            auto* label = addLabel(tr("%1 × %2 Gb/s NIC links")
                                       .arg(count(static_cast<long long>(group.nodeCount) * group.nicsPerNode))
                                       .arg(group.nicGbps, 0, 'f', 0),
                {anchor.x() + 6, leafBottom + 8});
            label->setBrush(topologycolors::rack());
        }
    }
    return rowBottom;
}

void TopologyScene::addOtherIssues(double y, double width, const QString& error)
{
    QStringList lines;
    if (!error.isEmpty())
        lines << QStringLiteral("⚠ ") + error;
    for (const auto& issue : m_pendingIssues) {
        const QString where = QString::fromStdString(issue.where);
        const QString reason = QString::fromStdString(issue.reason);
        lines << QStringLiteral("⚠ %1: %2").arg(where, reason);
        m_drawnIssues << where + QStringLiteral(": ") + reason;
    }
    m_pendingIssues.clear();
    if (lines.isEmpty())
        return;
    auto* text = addText(lines.join(QLatin1Char('\n')));
    text->setDefaultTextColor(topologycolors::issue());
    text->setTextWidth(width);
    text->setPos(0, y);
    auto* frame = addRect(text->boundingRect().translated(0, y), QPen(topologycolors::issue(), 2));
    frame->setZValue(-1);
}

std::pair<TopologyElement, int> TopologyScene::selectedElement() const
{
    for (auto* item : selectedItems()) {
        const auto kind = static_cast<TopologyElement>(item->data(0).toInt());
        if (kind != TopologyElement::None)
            return {kind, item->data(1).toInt()};
    }
    return {TopologyElement::None, -1};
}

void TopologyScene::selectElement(TopologyElement kind, int index)
{
    const QSignalBlocker blocker(this);
    clearSelection();
    for (auto* item : items())
        if (static_cast<TopologyElement>(item->data(0).toInt()) == kind && item->data(1).toInt() == index)
            item->setSelected(true);
}

} // namespace clusterplanner::ui
