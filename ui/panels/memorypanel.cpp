// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/memorypanel.h"

#include "core/evaluation/scenarioevaluation.h"
#include "core/memory/memorymodel.h"
#include "ui/charts/chartstyle.h"
#include "ui/charts/stackedbarchart.h"
#include "ui/document/scenariodocument.h"

#include <QVBoxLayout>

#include <algorithm>

namespace clusterplanner::ui {

namespace {

QVector<BarSeries> breakdownSeries(const core::MemoryEstimate& estimate, bool twoStages)
{
    struct Term
    {
        const char* name;
        double core::MemoryBreakdown::*bytes;
    };
    static const Term terms[] = {
        {QT_TRANSLATE_NOOP("MemoryPanel", "weights"), &core::MemoryBreakdown::weightsBytes},
        {QT_TRANSLATE_NOOP("MemoryPanel", "gradients"), &core::MemoryBreakdown::gradientsBytes},
        {QT_TRANSLATE_NOOP("MemoryPanel", "optimizer states"), &core::MemoryBreakdown::optimizerBytes},
        {QT_TRANSLATE_NOOP("MemoryPanel", "activations"), &core::MemoryBreakdown::activationsBytes},
        {QT_TRANSLATE_NOOP("MemoryPanel", "logits and loss"), &core::MemoryBreakdown::logitsBytes},
        {QT_TRANSLATE_NOOP("MemoryPanel", "autocast weight copies"), &core::MemoryBreakdown::castCacheBytes},
        {QT_TRANSLATE_NOOP("MemoryPanel", "ZeRO/FSDP buffers"), &core::MemoryBreakdown::shardBufferBytes},
        {QT_TRANSLATE_NOOP("MemoryPanel", "workspace"), &core::MemoryBreakdown::workspaceBytes},
    };
    QVector<BarSeries> series;
    int colorIndex = 0;
    for (const Term& term : terms) {
        BarSeries s {QCoreApplication::translate("MemoryPanel", term.name), categoryColor(colorIndex++), {}};
        s.values << estimate.first.peak.*term.bytes / core::kGiB;
        if (twoStages)
            s.values << estimate.last.peak.*term.bytes / core::kGiB;
        series << s;
    }
    // What the caching allocator holds beyond the tensors: freed gradient shards cached for FSDP's reduce-scatter
    // stream, and fragmentation of the transient part.
    BarSeries cached {QCoreApplication::translate("MemoryPanel", "freed gradients cached for the reduce stream"),
        categoryColor(colorIndex), {}};
    BarSeries reserve {
        QCoreApplication::translate("MemoryPanel", "allocator overhead (fragmentation)"), QColor(0xBB, 0xBB, 0xBB), {}};
    const auto addStage = [&](const core::StageMemory& stage) {
        cached.values << stage.cachedGradientBytes / core::kGiB;
        reserve.values << (stage.reservedBytes - stage.peak.totalBytes() - stage.cachedGradientBytes) / core::kGiB;
    };
    addStage(estimate.first);
    if (twoStages)
        addStage(estimate.last);
    if (std::any_of(cached.values.cbegin(), cached.values.cend(), [](double v) { return v > 0; }))
        series << cached;
    series << reserve;
    return series;
}

} // namespace

MemoryPanel::MemoryPanel(ScenarioDocument* document, QWidget* parent)
    : ChartPanel(document, new StackedBarChart, parent)
    , m_chart(chartAs<StackedBarChart>())
{
    setObjectName(QStringLiteral("memoryPanel"));
    m_chart->setObjectName(QStringLiteral("memory-breakdown"));
    m_chart->setValueAxisLabel(tr("GiB per GPU"));
    refresh();
}

void MemoryPanel::refresh()
{
    const core::Scenario& s = document()->scenario();
    const core::ScenarioEvaluation evaluation = core::evaluateScenario(s, core::EvaluationOptions {true, false, 0});
    if (!evaluation.valid()) {
        showProblems(evaluation);
        return;
    }
    showChart();
    const core::MemoryEstimate& estimate = evaluation.memory.estimate;
    const int pp = s.training.layout.pp;
    const bool twoStages = pp > 1 && estimate.last.stage != estimate.first.stage;
    QStringList stages;
    if (s.training.schedule == core::PipelineSchedule::DualPipe && pp > 1) {
        // DualPipe: rank d holds stage d of one direction and stage pp − 1 − d of the other.
        const auto rank = [&](int d) { return tr("rank %1 (stages %1 and %2)").arg(d).arg(pp - 1 - d); };
        stages << rank(estimate.first.stage);
        if (twoStages)
            stages << rank(estimate.last.stage);
    } else {
        stages << tr("first stage (0)");
        if (twoStages)
            stages << tr("last stage (%1)").arg(pp - 1);
    }
    m_chart->setData(stages, breakdownSeries(estimate, twoStages));
    m_chart->setLimit(
        estimate.usableBytes / core::kGiB, tr("usable %1 GiB").arg(estimate.usableBytes / core::kGiB, 0, 'f', 1));
    setSummary(summary(evaluation.memory));
}

void MemoryPanel::showProblems(const core::ScenarioEvaluation& evaluation)
{
    QStringList lines;
    if (evaluation.error)
        lines << QString::fromStdString(evaluation.error->text());
    for (const auto& line : evaluation.reasons)
        lines << QString::fromStdString(line);
    // A scenario the engine cannot read (an unknown GPU, a field out of range) has no layout to judge yet.
    showWithoutChart(
        evaluation.error ? tr("This scenario cannot be evaluated:") : tr("This layout is not valid:"), lines);
    m_chart->setData({}, {});
    m_chart->setLimit(std::nullopt, QString()); // no GPU, or none judged: no capacity line left from the last one
}

QString MemoryPanel::summary(const core::MemoryView& memory) const
{
    const core::MemoryEstimate& estimate = memory.estimate;
    const core::Scenario& scenario = document()->scenario();
    const int pp = scenario.training.layout.pp;
    // DualPipe: a rank holds two stages, so the peak is named by its rank.
    const QString where = scenario.training.schedule == core::PipelineSchedule::DualPipe && pp > 1
        ? tr("rank %1 (stages %1 and %2)").arg(estimate.peakStage).arg(pp - 1 - estimate.peakStage)
        : tr("stage %1").arg(estimate.peakStage);
    QString text = tr("<b>Peak %1 GiB allocated, %2 GiB reserved</b> on %3 · %4 · largest micro-batch that "
                      "fits: %5 · %6 micro-batches per step")
                       .arg(estimate.peakAllocatedBytes / core::kGiB, 0, 'f', 1)
                       .arg(estimate.peakReservedBytes / core::kGiB, 0, 'f', 1)
                       .arg(where)
                       .arg(estimate.fits ? tr("fits") : tr("<span style='color:#c03030'>does not fit</span>"))
                       .arg(memory.maxMicroBatch)
                       .arg(estimate.gradientAccumulationSteps);
    if (estimate.offloadedLayers > 0) { // not in the bars: host memory, not the GPU's
        const QString hostGiB = QString::number(estimate.peakStageMemory().hostActivationBytes / core::kGiB, 'f', 1);
        QString amount = tr("%1 GiB per GPU").arg(hostGiB);
        if (memory.hostMemoryPerGpuGiB) {
            amount = tr("%1 of %2 GiB per GPU").arg(hostGiB).arg(*memory.hostMemoryPerGpuGiB, 0, 'f', 0);
            if (memory.hostMemoryShort())
                amount = tr("<span style='color:#c03030'>%1: more than the node has</span>").arg(amount);
        }
        text += tr(" · activations of %1 layers in host memory: %2").arg(estimate.offloadedLayers).arg(amount);
    }
    QStringList remedies;
    for (const auto& remedy : memory.remedies)
        remedies << QString::fromStdString(remedy).toHtmlEscaped();
    if (!remedies.isEmpty())
        text += tr("<br>Would fit with: %1").arg(remedies.join(QStringLiteral("; ")));
    return text;
}

} // namespace clusterplanner::ui
