// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/models/layoutgrid.h"

#include "core/model/enumnames.h"

#include <QCoreApplication>

namespace clusterplanner::ui {

namespace {

QString layoutGridTr(const char* text)
{
    return QCoreApplication::translate("LayoutGrid", text);
}

/// Short names of core::LayoutProblem bits, in bit order.
QString problemText(std::uint32_t problems)
{
    static const char* const names[] = {"degree < 1", "DP×TP×PP×CP ≠ GPUs", "TP does not divide heads",
        "TP does not fit KV heads", "more stages than layers", "layers < PP×v", "micro-batches % PP ≠ 0",
        "sequence % 2·CP ≠ 0", "EP does not divide experts", "EP does not divide DP×CP×TP", "EP on a dense model",
        "global batch % (DP×micro-batch) ≠ 0", "ZeRO stage", "batch < 1"};
    QStringList list;
    for (int bit = 0; bit < int(std::size(names)); ++bit)
        if (problems & (1u << bit))
            list << layoutGridTr(names[bit]);
    return list.join(QStringLiteral(", "));
}

} // namespace

QString axisName(LayoutAxis axis)
{
    static const char* const names[] = {"DP", "TP", "PP", "CP", "EP", "micro-batch", "virtual stages"};
    return layoutGridTr(names[int(axis)]);
}

QString metricName(GridMetric metric)
{
    static const char* const names[] = {"tokens/s per GPU", "MFU (%)", "step time (s)", "peak memory (GiB)",
        "memory headroom (GiB)", "cost per million tokens ($)"};
    return layoutGridTr(names[int(metric)]);
}

QVector<int> LayoutGrid::xValues() const
{
    const std::vector<int> values = m_grid.xValues();
    return QVector<int>(values.begin(), values.end());
}

QVector<int> LayoutGrid::yValues() const
{
    const std::vector<int> values = m_grid.yValues();
    return QVector<int>(values.begin(), values.end());
}

QString LayoutGrid::describe(const GridCell& cell) const
{
    if (cell.best) {
        const auto& b = *cell.best;
        return layoutGridTr("%1\n%2 tokens/s per GPU · MFU %3 % · step %4 s\npeak %5 of %6 GiB · $%7 per M tokens")
            .arg(layoutSummary(b.candidate))
            .arg(b.tokensPerSPerGpu, 0, 'f', 0)
            .arg(100 * b.mfu, 0, 'f', 1)
            .arg(b.stepTimeS, 0, 'f', 3)
            .arg(b.peakMemoryGiB, 0, 'f', 1)
            .arg(b.capacityGiB, 0, 'f', 1)
            .arg(b.costPerMTokensUsd, 0, 'f', 2);
    }
    if (cell.valid > 0)
        return layoutGridTr("Does not fit in memory: the smallest of %1 valid layouts needs %2 GiB, %3 GiB are usable")
            .arg(cell.valid)
            .arg(cell.smallestPeakGiB, 0, 'f', 1)
            .arg(cell.capacityGiB, 0, 'f', 1);
    if (cell.evaluated > 0)
        return layoutGridTr("Invalid layout: %1").arg(problemText(cell.problems));
    return layoutGridTr("Not a layout of this GPU count");
}

QString layoutSummary(const core::LayoutCandidate& c)
{
    const auto& l = c.layout;
    QString text = QStringLiteral("DP %1 · TP %2 · PP %3 · CP %4").arg(l.dp).arg(l.tp).arg(l.pp).arg(l.cp);
    if (l.ep > 1)
        text += QStringLiteral(" · EP %1").arg(l.ep);
    if (l.virtualStages > 1)
        text += QStringLiteral(" · v %1").arg(l.virtualStages);
    if (l.shardReplicas() > 1) // hybrid sharding: states sharded over this many DP ranks, copied over the rest
        text += QStringLiteral(" · shard %1").arg(l.shardDp());
    if (l.rankOrder != core::RankOrdering::TpCpEpDpPp)
        text += QStringLiteral(" · order %1").arg(QString::fromLatin1(core::toString(l.rankOrder).data()));
    return text
        + QStringLiteral(" · mb %1 · %2 recompute · ZeRO %3 · %4")
              .arg(c.microBatch)
              .arg(QString::fromLatin1(core::toString(c.recompute).data()))
              .arg(c.zeroStage)
              .arg(QString::fromLatin1(core::toString(c.schedule).data()));
}

} // namespace clusterplanner::ui
