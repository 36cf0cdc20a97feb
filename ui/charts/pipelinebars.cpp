// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/pipelinebars.h"

#include <QCoreApplication>

#include <array>

namespace clusterplanner::ui {

namespace {

using core::perf::PipelineOp;
using core::perf::PipelineOpKind;

QString pipelineTr(const char* text)
{
    return QCoreApplication::translate("PipelineBars", text);
}

/// Okabe–Ito blue, orange and bluish green: told apart with every common colour-vision deficiency.
QColor kindColor(PipelineOpKind kind)
{
    static const std::array<QColor, 3> colors {
        QColor(0x00, 0x72, 0xB2), QColor(0xE6, 0x9F, 0x00), QColor(0x00, 0x9E, 0x73)};
    return colors[std::size_t(kind)];
}

QString kindName(PipelineOpKind kind)
{
    switch (kind) {
    case PipelineOpKind::Forward:
        return pipelineTr("Forward");
    case PipelineOpKind::Backward:
        return pipelineTr("Backward");
    case PipelineOpKind::WeightGrad:
        return pipelineTr("Weight gradient");
    }
    return {};
}

QColor opColor(const PipelineOp& op)
{
    // Chunks alternate between the base shade and a lighter one, so that neighbouring chunks differ.
    const QColor base = kindColor(op.kind);
    return op.chunk % 2 == 0 ? base : base.lighter(135);
}

QString opLabel(const PipelineOp& op, int chunks)
{
    static const char kinds[] = {'F', 'B', 'W'};
    const QString label = QLatin1Char(kinds[int(op.kind)]) + QString::number(op.microBatch + 1);
    return chunks > 1 ? label + QLatin1Char('.') + QString::number(op.chunk + 1) : label;
}

QString opTooltip(const PipelineOp& op, int chunks)
{
    QString text
        = pipelineTr("%1 · stage %2 · micro-batch %3").arg(kindName(op.kind)).arg(op.stage + 1).arg(op.microBatch + 1);
    if (chunks > 1)
        text += pipelineTr(" · chunk %1 of %2").arg(op.chunk + 1).arg(chunks);
    return text + pipelineTr("\n%1 – %2 ms").arg(op.start, 0, 'f', 2).arg(op.end, 0, 'f', 2);
}

} // namespace

QStringList pipelineStageRows(int stages, bool dualPipe)
{
    QStringList rows;
    for (int stage = 1; stage <= stages; ++stage)
        rows << (dualPipe ? pipelineTr("rank %1 · stages %1 + %2").arg(stage).arg(stages + 1 - stage)
                          : pipelineTr("stage %1").arg(stage));
    return rows;
}

QVector<GanttBar> pipelineBars(const std::vector<PipelineOp>& ops, int chunks)
{
    QVector<GanttBar> bars;
    bars.reserve(qsizetype(ops.size()));
    for (const auto& op : ops)
        bars.push_back({op.stage, op.start, op.end, opLabel(op, chunks), opColor(op), opTooltip(op, chunks)});
    return bars;
}

QVector<GanttLegendEntry> pipelineLegend(bool splitBackward, int chunks, bool dualPipe)
{
    QVector<GanttLegendEntry> entries {{pipelineTr("F forward"), kindColor(PipelineOpKind::Forward)},
        {splitBackward ? pipelineTr("B backward (input gradient)") : pipelineTr("B backward"),
            kindColor(PipelineOpKind::Backward)}};
    if (splitBackward)
        entries.push_back({pipelineTr("W weight gradient"), kindColor(PipelineOpKind::WeightGrad)});
    // Interleaved: the two shades are the chunks, and a narrow bar's label loses its ".chunk" part; say both.
    if (chunks > 1)
        entries.push_back(
            {pipelineTr("lighter: even chunks of %1 per stage (B3.2 = micro-batch 3, chunk 2)").arg(chunks),
                kindColor(PipelineOpKind::Forward).lighter(135)});
    if (dualPipe)
        entries.push_back({pipelineTr("lighter: micro-batches entering at the last rank (DualPipe's second direction)"),
            kindColor(PipelineOpKind::Forward).lighter(135)});
    return entries;
}

} // namespace clusterplanner::ui
