// SPDX-License-Identifier: GPL-3.0-or-later
// The topology editor (--panel topology): the cluster as a diagram, a side form that edits it one undo step at a
// time, and the live derived figures, all from core::evaluation::purchaseFigures().
#pragma once

#include "ui/charts/exportablechart.h"
#include "ui/document/scenariochange.h"
#include "ui/panels/topologyitems.h"

#include <QWidget>

class QGraphicsView;
class QLabel;
class QPushButton;

namespace clusterplanner::ui {

class FigureList;
class ScenarioDocument;
class TopologyForm;
class TopologyScene;

class TopologyPanel : public QWidget, public ExportableChart
{
    Q_OBJECT
public:
    TopologyPanel(ScenarioDocument* document, QWidget* parent = nullptr);
    ~TopologyPanel() override;

    QString chartTitle() const override { return QStringLiteral("cluster-topology"); }
    /// Writes the diagram with a title and a caption (scenario, GPUs, date).
    QString exportChart(const QString& path, const QSize& sizePx) const override;

    TopologyScene* scene() const { return m_scene; }
    TopologyForm* form() const { return m_form; }
    FigureList* figures() const { return m_figures; }
    QGraphicsView* view() const { return m_view; }
    QString summaryText() const;
    /// Redraws from the document (called on every change of the topology or what the run depends on).
    void refresh();

Q_SIGNALS:
    void refreshed();

private:
    void createLayout();
    void onScenarioChanged(ScenarioChanges changes);
    void onDiagramSelection();
    void selectInDiagram();
    void exportWithDialog();

    ScenarioDocument* m_document;
    TopologyScene* m_scene;
    QGraphicsView* m_view;
    TopologyForm* m_form;
    FigureList* m_figures;
    QLabel* m_summary;
    QPushButton* m_export;
    TopologyElement m_selectedKind = TopologyElement::Group; ///< what the diagram keeps selected across redraws
};

} // namespace clusterplanner::ui
