// SPDX-License-Identifier: GPL-3.0-or-later
// The side form of the topology editor: pick a node group or fabric tier and edit its fields, add, duplicate and
// remove groups and tiers, the training group, the fabric and the facility. Every change is one undoable edit.
#pragma once

#include "core/model/scenario.h"

#include <QWidget>

#include <functional>
#include <vector>

class QComboBox;
class QFormLayout;
class QPushButton;

namespace clusterplanner::ui {

class ScenarioDocument;

/// Widgets are named "topology.<field>" (e.g. "topology.group.nodes", "topology.tier.switch_radix",
/// "topology.addGroup"); tests drive the editor through them. Numeric fields merge consecutive changes of the same
/// field of the same element into one undo step.
class TopologyForm : public QWidget
{
    Q_OBJECT
public:
    TopologyForm(ScenarioDocument* document, QWidget* parent = nullptr);

    int currentGroup() const { return m_group; }
    int currentTier() const { return m_tier; }
    void setCurrentGroup(int index);
    void setCurrentTier(int index);
    /// Re-reads every field from the document.
    void refresh();

Q_SIGNALS:
    /// The user picked another group or tier in the form (the diagram selects it too).
    void currentGroupChanged(int index);
    void currentTierChanged(int index);

private:
    using GroupChange = std::function<void(core::cluster::NodeGroup&)>;
    using TierChange = std::function<void(core::cluster::FabricTier&)>;
    using Refresher = std::function<void(const core::Scenario&)>;

    QWidget* createGroupBox();
    QWidget* createTierBox();
    QWidget* createFabricBox();
    void addGroupFields(QFormLayout* form);
    void addGroupIntField(QFormLayout* form, const char* name, const QString& label, int min, int max,
        int core::cluster::NodeGroup::*member, const QString& toolTip = {});
    void addGroupNumberField(QFormLayout* form, const char* name, const QString& label, double max, int decimals,
        const QString& suffix, double core::cluster::NodeGroup::*member);
    void addGroupOptionalField(QFormLayout* form, const char* name, const QString& label, double max,
        const QString& suffix, std::optional<double> core::cluster::NodeGroup::*member, const QString& unsetText);
    void addTierFields(QFormLayout* form);
    void addRow(
        QFormLayout* form, const char* name, const QString& label, QWidget* widget, const QString& toolTip = {});

    /// Applies `change` to a copy of the scenario and pushes it as one edit.
    void apply(const std::function<void(core::Scenario&)>& change, const QString& text, int mergeId = -1);
    /// Syncs the engine's view of the run (Scenario::cluster) with the topology and pushes `after` as one edit.
    void commit(core::Scenario& after, const QString& text, int mergeId = -1);
    void changeGroup(const GroupChange& change, const QString& text, int field);
    void changeTier(const TierChange& change, const QString& text, int field);
    void addGroup();
    void duplicateGroup();
    void removeGroup();
    void addTier();
    void removeTier();
    void refreshChoosers(const core::Scenario& scenario);

    ScenarioDocument* m_document;
    int m_group = 0;
    int m_tier = 0;
    int m_fieldCount = 0;
    std::vector<Refresher> m_groupRefreshers;
    std::vector<Refresher> m_otherRefreshers;
    QComboBox* m_groupChooser;
    QComboBox* m_tierChooser;
    QComboBox* m_trainingGroup;
    QPushButton* m_removeGroup;
    QPushButton* m_duplicateGroup;
    QPushButton* m_removeTier;
};

} // namespace clusterplanner::ui
