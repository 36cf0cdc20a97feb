// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/report/chartkinds.h"

#include "core/model/modelmath.h"
#include "ui/charts/ganttchart.h"
#include "ui/charts/heatmapchart.h"
#include "ui/charts/linechart.h"
#include "ui/charts/scatterchart.h"
#include "ui/charts/stackedbarchart.h"
#include "ui/panels/enumlabels.h"
#include "ui/panels/gridexplorerpanel.h"
#include "ui/panels/memorypanel.h"
#include "ui/panels/pipelinepanel.h"
#include "ui/panels/scalingpanel.h"
#include "ui/panels/steptimepanel.h"

#include <QCoreApplication>
#include <QDate>

namespace clusterplanner::ui {

namespace {

template <typename Panel, auto Getter>
ChartWidget* chartOf(QWidget* panel)
{
    auto* typed = qobject_cast<Panel*>(panel);
    return typed ? (typed->*Getter)() : nullptr;
}

} // namespace

const std::vector<ChartKind>& chartKinds()
{
    static const std::vector<ChartKind> kinds = {
        {"grid", "grid", QT_TRANSLATE_NOOP("ChartKind", "Layout explorer: throughput over the layout grid"),
            &chartOf<GridExplorerPanel, &GridExplorerPanel::heatmap>, true},
        {"pareto", "grid", QT_TRANSLATE_NOOP("ChartKind", "Memory against throughput of every layout"),
            &chartOf<GridExplorerPanel, &GridExplorerPanel::scatter>, true},
        {"memory", "memory", QT_TRANSLATE_NOOP("ChartKind", "Memory per GPU, term by term"),
            &chartOf<MemoryPanel, &MemoryPanel::chart>, false},
        {"steptime", "steptime", QT_TRANSLATE_NOOP("ChartKind", "Where the step time goes"),
            &chartOf<StepTimePanel, &StepTimePanel::chart>, false},
        {"pipeline", "pipeline", QT_TRANSLATE_NOOP("ChartKind", "Pipeline schedule, first micro-batches of a step"),
            &chartOf<PipelinePanel, &PipelinePanel::chart>, false},
        {"scaling", "scaling", QT_TRANSLATE_NOOP("ChartKind", "Scaling with the number of GPUs"),
            &chartOf<ScalingPanel, &ScalingPanel::chart>, false},
    };
    return kinds;
}

const ChartKind* chartKind(const QString& id)
{
    for (const ChartKind& kind : chartKinds())
        if (id == QLatin1String(kind.id))
            return &kind;
    return nullptr;
}

QStringList chartKindIds()
{
    QStringList ids;
    for (const ChartKind& kind : chartKinds())
        ids << QString::fromLatin1(kind.id);
    return ids;
}

QString layoutText(const core::ParallelLayout& l)
{
    QString text = QStringLiteral("DP %1 × TP %2 × PP %3").arg(l.dp).arg(l.tp).arg(l.pp);
    if (l.cp > 1)
        text += QStringLiteral(" × CP %1").arg(l.cp);
    if (l.ep > 1)
        text += QStringLiteral(", EP %1").arg(l.ep);
    if (const int expertTp = core::expertTensorParallel(l); l.ep > 1 && expertTp != l.tp) // Megatron's default: TP
        text += QStringLiteral(", expert TP %1").arg(expertTp);
    if (l.virtualStages > 1)
        text += QStringLiteral(", %1 virtual stages").arg(l.virtualStages);
    return text;
}

QString chartCaption(const core::Scenario& s)
{
    return QCoreApplication::translate("ChartKind", "%1 · %2 · micro-batch %3, %4 · %5")
        .arg(QString::fromStdString(s.name), layoutText(s.training.layout))
        .arg(s.training.microBatch)
        .arg(enumLabel(s.training.schedule), QDate::currentDate().toString(Qt::ISODate));
}

} // namespace clusterplanner::ui
