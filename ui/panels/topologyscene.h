// SPDX-License-Identifier: GPL-3.0-or-later
// The topology diagram as a QGraphicsScene: a title line and legend, the fabric tiers from the top tier down to the
// leaves, and the node groups below them; the core's issues marked in red on the element they name.
#pragma once

#include "core/cluster/clusterfigures.h"
#include "ui/panels/topologyitems.h"

#include <QGraphicsScene>
#include <QStringList>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clusterplanner::ui {

class TopologyScene : public QGraphicsScene
{
    Q_OBJECT
public:
    explicit TopologyScene(QObject* parent = nullptr);

    /// Redraws the cluster. `figures` is the core's result (nullptr when it failed: `error` says why and is shown).
    void setCluster(const core::cluster::ClusterSpec& spec, const std::string& trainingGroup,
        const core::cluster::ClusterFigures* figures, const QString& error = {});

    /// The element whose item is selected (kind None when nothing is).
    std::pair<TopologyElement, int> selectedElement() const;
    void selectElement(TopologyElement kind, int index);
    /// Every issue text drawn, each prefixed with where it is drawn ("groups[1]: …"), for tests and the status.
    QStringList drawnIssues() const { return m_drawnIssues; }
    /// Items in the scene (a 2,000-node group is a handful of items, whatever its size).
    int itemCount() const { return int(items().size()); }

private:
    double addHeader(const core::cluster::ClusterSpec& spec, const core::cluster::ClusterFigures* figures, double y);
    double addLegend(double y);
    double addTiers(
        const core::cluster::ClusterSpec& spec, const core::cluster::ClusterFigures* figures, double y, double width);
    double addGroups(const core::cluster::ClusterSpec& spec, const std::string& trainingGroup, double y, double width,
        double leafBottom);
    void addOtherIssues(double y, double width, const QString& error);
    QStringList issuesAt(const QString& prefix);
    QGraphicsSimpleTextItem* addLabel(const QString& text, QPointF at, bool bold = false);

    std::vector<core::cluster::ClusterIssue> m_pendingIssues; ///< issues not yet drawn on an element
    QStringList m_drawnIssues;
};

} // namespace clusterplanner::ui
