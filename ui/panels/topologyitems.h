// SPDX-License-Identifier: GPL-3.0-or-later
// The items of the topology diagram: a node group block (its racks, nodes, GPUs and NVLink domains drawn for a few
// representative racks, the rest as counts) and a fabric tier bar. Each paints itself, so that a 2,000-node group
// is one item, not 16,000.
#pragma once

#include "core/cluster/clusterfigures.h"

#include <QGraphicsItem>
#include <QStringList>

#include <optional>

namespace clusterplanner::ui {

/// Colours shared by the items and the legend.
namespace topologycolors {
QColor gpu();
QColor domain();
QColor rack();
QColor issue();
QColor tier(int index);
QColor group(int index);
} // namespace topologycolors

/// Item data role 0 holds the element's kind, role 1 its index (see TopologyScene::selectedElement).
enum class TopologyElement { None, Group, Tier };

class GroupItem : public QGraphicsItem
{
public:
    static constexpr double kWidthPx = 360;
    /// `issues`: the reasons the core gave for this group; drawn in red under the block.
    GroupItem(const core::cluster::NodeGroup& group, int index, bool training, QStringList issues);

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
    /// Top centre, where the fabric's links arrive.
    QPointF linkAnchor() const { return mapToScene(QPointF(kWidthPx / 2, 0)); }

private:
    QStringList textLines() const;
    void paintRacks(QPainter& painter, const QRectF& area) const;
    void paintRack(QPainter& painter, const QRectF& rack, int firstNode, int nodes) const;

    core::cluster::NodeGroup m_group;
    int m_index;
    bool m_training;
    QStringList m_issues;
    double m_height;
};

class TierItem : public QGraphicsItem
{
public:
    TierItem(const core::cluster::FabricTier& tier, const core::cluster::TierFigures* figures, int index, bool top,
        double widthPx, QStringList issues);

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    QString headline() const;
    QString detail() const;

    core::cluster::FabricTier m_tier;
    std::optional<core::cluster::TierFigures> m_figures;
    int m_index;
    bool m_top;
    double m_width;
    QStringList m_issues;
    double m_height;
};

} // namespace clusterplanner::ui
