// SPDX-License-Identifier: GPL-3.0-or-later
// The scenario form panel: every field of the scenario as a grouped, undoable form.
#pragma once

#include "core/model/scenario.h"

#include <QWidget>

class QFormLayout;
class QGroupBox;
class QLabel;

namespace clusterplanner::ui {

class ColumnFlow;
class FormBinder;
class ScenarioDocument;

/// Groups: model (with its MoE part), cluster, training, parallel layout, economics, notes. Every widget is named
/// after its field's path in the scenario file ("model.layers", "training.layout.virtual_stages", ...; the field
/// table in core/model/scenariofields.h gives bounds, units, labels and tooltips); derived read-only labels are
/// "cluster.node_count", "training.layout.check" and "scenario.problem". Groups flow into 1-3 columns by width.
class ScenarioForm : public QWidget
{
    Q_OBJECT
public:
    ScenarioForm(ScenarioDocument* document, QWidget* parent = nullptr);
    ~ScenarioForm() override;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void createLayout();
    QFormLayout* addGroup(const QString& title, const char* objectName);
    void createModelGroup();
    void createLatentAttentionGroup();
    void createMoeGroup();
    void createClusterGroup();
    void createTrainingGroup();
    void createLayoutGroup();
    void createEconomicsGroup();
    void createNotesGroup();
    void addDerivedRefreshers();
    QString layoutMismatchText(const core::Scenario& s, const QString& product) const;
    void setMoeEnabled(bool enabled);
    void setLatentAttentionEnabled(bool enabled);
    void applyPreset(int index);

    ScenarioDocument* m_document;
    FormBinder* m_binder;
    QWidget* m_content = nullptr;
    ColumnFlow* m_flow = nullptr;
    QGroupBox* m_lastGroup = nullptr;
    QGroupBox* m_moeGroup = nullptr;
    QGroupBox* m_mlaGroup = nullptr;
    QLabel* m_problemLabel = nullptr;
    QLabel* m_nodeCountLabel = nullptr;
    QLabel* m_layoutCheckLabel = nullptr;
    core::MoeConfig m_lastMoe; ///< restored when MoE is switched back on
    core::MlaConfig m_lastMla; ///< restored when latent attention is switched back on
};

} // namespace clusterplanner::ui
