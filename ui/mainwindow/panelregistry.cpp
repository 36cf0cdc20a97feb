// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/mainwindow/panelregistry.h"

#include "ui/panels/gridexplorerpanel.h"
#include "ui/panels/jobspanel.h"
#include "ui/panels/librarypanel.h"
#include "ui/panels/machinepanel.h"
#include "ui/panels/memorypanel.h"
#include "ui/panels/pipelinepanel.h"
#include "ui/panels/policiespanel.h"
#include "ui/panels/purchasepanel.h"
#include "ui/panels/queuepanel.h"
#include "ui/panels/scalingpanel.h"
#include "ui/panels/scenarioform.h"
#include "ui/panels/steptimepanel.h"
#include "ui/panels/topologypanel.h"
#include "ui/panels/utilizationpanel.h"
#include "ui/panels/workloadpanel.h"

#include <QtGlobal>

namespace clusterplanner::ui {

namespace {

template <typename Panel>
QWidget* make(const PanelContext& context, QWidget* parent)
{
    return new Panel(context.document, parent);
}

QWidget* makePurchase(const PanelContext& context, QWidget* parent)
{
    return new PurchasePanel(context.document, context.library, parent);
}

QWidget* makeLibrary(const PanelContext& context, QWidget* parent)
{
    return new LibraryPanel(context.document, context.library, parent);
}

} // namespace

const std::vector<PanelInfo>& panels()
{
    static const std::vector<PanelInfo> table = {
        {"scenario", QT_TRANSLATE_NOOP("Panel", "Scenario"), Qt::LeftDockWidgetArea, &make<ScenarioForm>},
        {"grid", QT_TRANSLATE_NOOP("Panel", "Layout explorer"), Qt::RightDockWidgetArea, &make<GridExplorerPanel>},
        {"memory", QT_TRANSLATE_NOOP("Panel", "Memory"), Qt::BottomDockWidgetArea, &make<MemoryPanel>},
        {"steptime", QT_TRANSLATE_NOOP("Panel", "Step time"), Qt::BottomDockWidgetArea, &make<StepTimePanel>},
        {"pipeline", QT_TRANSLATE_NOOP("Panel", "Pipeline"), Qt::BottomDockWidgetArea, &make<PipelinePanel>},
        {"scaling", QT_TRANSLATE_NOOP("Panel", "Scaling"), Qt::BottomDockWidgetArea, &make<ScalingPanel>},
        {"library", QT_TRANSLATE_NOOP("Panel", "Library"), Qt::BottomDockWidgetArea, &makeLibrary},
        {"machine", QT_TRANSLATE_NOOP("Panel", "This machine"), Qt::RightDockWidgetArea, &make<MachinePanel>},
        {"topology", QT_TRANSLATE_NOOP("Panel", "Topology"), Qt::RightDockWidgetArea, &make<TopologyPanel>, true},
        {"purchase", QT_TRANSLATE_NOOP("Panel", "Purchase comparison"), Qt::RightDockWidgetArea, &makePurchase, true},
        // The shared cluster (issue 14): one simulation per document, shared by these panels.
        {"workload", QT_TRANSLATE_NOOP("Panel", "Workload"), Qt::BottomDockWidgetArea, &make<WorkloadPanel>},
        {"utilization", QT_TRANSLATE_NOOP("Panel", "Utilisation"), Qt::BottomDockWidgetArea, &make<UtilizationPanel>},
        {"jobs", QT_TRANSLATE_NOOP("Panel", "Jobs"), Qt::BottomDockWidgetArea, &make<JobsPanel>},
        {"policies", QT_TRANSLATE_NOOP("Panel", "Policies"), Qt::BottomDockWidgetArea, &make<PoliciesPanel>},
        {"queue", QT_TRANSLATE_NOOP("Panel", "Queue sizing"), Qt::BottomDockWidgetArea, &make<QueuePanel>},
    };
    return table;
}

const PanelInfo* findPanel(const QString& name)
{
    for (const auto& panel : panels())
        if (name == QLatin1String(panel.name))
            return &panel;
    return nullptr;
}

QStringList panelNames()
{
    QStringList names;
    for (const auto& panel : panels())
        names << QString::fromLatin1(panel.name);
    return names;
}

} // namespace clusterplanner::ui
