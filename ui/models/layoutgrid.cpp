// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/models/layoutgrid.h"

#include "core/model/enumnames.h"

#include <QCoreApplication>

namespace clusterplanner::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("LayoutGrid", text);
}

bool better(const core::LayoutResult& a, const core::LayoutResult& b, GridMetric metric)
{
    const double va = metricValue(a, metric);
    const double vb = metricValue(b, metric);
    return higherIsBetter(metric) ? va > vb : va < vb;
}

/// Short names of core::LayoutProblem bits, in bit order.
QString problemText(std::uint32_t problems)
{
    static const char* const names[] = {"degree < 1", "DP×TP×PP×CP ≠ GPUs", "TP does not divide heads",
        "TP does not fit KV heads", "more stages than layers", "layers % (PP×v) ≠ 0", "micro-batches % PP ≠ 0",
        "sequence % 2·CP ≠ 0", "EP does not divide experts", "EP does not divide DP×CP×TP", "EP on a dense model",
        "global batch % (DP×micro-batch) ≠ 0", "ZeRO stage", "batch < 1"};
    QStringList list;
    for (int bit = 0; bit < int(std::size(names)); ++bit)
        if (problems & (1u << bit))
            list << tr(names[bit]);
    return list.join(QStringLiteral(", "));
}

} // namespace

QString axisName(LayoutAxis axis)
{
    static const char* const names[] = {"DP", "TP", "PP", "CP", "EP", "micro-batch", "virtual stages"};
    return tr(names[int(axis)]);
}

QString metricName(GridMetric metric)
{
    static const char* const names[] = {"tokens/s per GPU", "MFU (%)", "step time (s)", "peak memory (GiB)",
        "memory headroom (GiB)", "cost per million tokens ($)"};
    return tr(names[int(metric)]);
}

bool higherIsBetter(GridMetric metric)
{
    return metric == GridMetric::TokensPerGpu || metric == GridMetric::Mfu || metric == GridMetric::Headroom;
}

int axisValue(const core::LayoutCandidate& c, LayoutAxis axis)
{
    switch (axis) {
    case LayoutAxis::Dp:
        return c.layout.dp;
    case LayoutAxis::Tp:
        return c.layout.tp;
    case LayoutAxis::Pp:
        return c.layout.pp;
    case LayoutAxis::Cp:
        return c.layout.cp;
    case LayoutAxis::Ep:
        return c.layout.ep;
    case LayoutAxis::MicroBatch:
        return c.microBatch;
    case LayoutAxis::VirtualStages:
        return c.layout.virtualStages;
    }
    return 0;
}

double metricValue(const core::LayoutResult& r, GridMetric metric)
{
    switch (metric) {
    case GridMetric::TokensPerGpu:
        return r.tokensPerSPerGpu;
    case GridMetric::Mfu:
        return 100 * r.mfu;
    case GridMetric::StepTime:
        return r.stepTimeS;
    case GridMetric::PeakMemory:
        return r.peakMemoryGiB;
    case GridMetric::Headroom:
        return r.headroomGiB();
    case GridMetric::CostPerMTokens:
        return r.costPerMTokensUsd;
    }
    return 0;
}

void LayoutGrid::configure(LayoutAxis x, LayoutAxis y, GridMetric metric, std::optional<core::LayoutCandidate> fixedTo)
{
    m_x = x;
    m_y = y;
    m_metric = metric;
    m_fixed = fixedTo;
    clear();
}

void LayoutGrid::clear()
{
    m_cells.clear();
    m_xCounts.clear();
    m_yCounts.clear();
}

bool LayoutGrid::matchesFixed(const core::LayoutCandidate& c) const
{
    if (!m_fixed)
        return true;
    // Every dimension but the two axes and DP (DP follows from the GPU count) must equal the scenario's.
    for (LayoutAxis axis : {LayoutAxis::Tp, LayoutAxis::Pp, LayoutAxis::Cp, LayoutAxis::Ep, LayoutAxis::MicroBatch,
             LayoutAxis::VirtualStages})
        if (axis != m_x && axis != m_y && axisValue(c, axis) != axisValue(*m_fixed, axis))
            return false;
    return c.recompute == m_fixed->recompute && c.zeroStage == m_fixed->zeroStage && c.schedule == m_fixed->schedule
        && c.layout.rankOrder == m_fixed->layout.rankOrder;
}

void LayoutGrid::addOne(const core::LayoutResult& r)
{
    if (!matchesFixed(r.candidate))
        return;
    const int x = axisValue(r.candidate, m_x);
    const int y = axisValue(r.candidate, m_y);
    ++m_xCounts[x];
    ++m_yCounts[y];
    GridCell& cell = m_cells[{x, y}];
    ++cell.evaluated;
    cell.capacityGiB = r.capacityGiB;
    if (!r.valid) {
        cell.problems |= r.problems;
        return;
    }
    cell.smallestPeakGiB = cell.valid == 0 ? r.peakMemoryGiB : std::min(cell.smallestPeakGiB, r.peakMemoryGiB);
    ++cell.valid;
    if (r.fits && (!cell.best || better(r, *cell.best, m_metric)))
        cell.best = r;
}

void LayoutGrid::add(std::span<const core::LayoutResult> results)
{
    for (const auto& r : results)
        addOne(r);
}

QVector<int> LayoutGrid::xValues() const
{
    QVector<int> values;
    for (const auto& [value, count] : m_xCounts)
        values << value;
    return values;
}

QVector<int> LayoutGrid::yValues() const
{
    QVector<int> values;
    for (const auto& [value, count] : m_yCounts)
        values << value;
    return values;
}

const GridCell* LayoutGrid::cell(int xValue, int yValue) const
{
    auto it = m_cells.find({xValue, yValue});
    return it == m_cells.end() ? nullptr : &it->second;
}

QString LayoutGrid::describe(const GridCell& cell) const
{
    if (cell.best) {
        const auto& b = *cell.best;
        return tr("%1\n%2 tokens/s per GPU · MFU %3 % · step %4 s\npeak %5 of %6 GiB · $%7 per M tokens")
            .arg(layoutSummary(b.candidate))
            .arg(b.tokensPerSPerGpu, 0, 'f', 0)
            .arg(100 * b.mfu, 0, 'f', 1)
            .arg(b.stepTimeS, 0, 'f', 3)
            .arg(b.peakMemoryGiB, 0, 'f', 1)
            .arg(b.capacityGiB, 0, 'f', 1)
            .arg(b.costPerMTokensUsd, 0, 'f', 2);
    }
    if (cell.valid > 0)
        return tr("Does not fit in memory: the smallest of %1 valid layouts needs %2 GiB, %3 GiB are usable")
            .arg(cell.valid)
            .arg(cell.smallestPeakGiB, 0, 'f', 1)
            .arg(cell.capacityGiB, 0, 'f', 1);
    if (cell.evaluated > 0)
        return tr("Invalid layout: %1").arg(problemText(cell.problems));
    return tr("Not a layout of this GPU count");
}

QString layoutSummary(const core::LayoutCandidate& c)
{
    const auto& l = c.layout;
    QString text = QStringLiteral("DP %1 · TP %2 · PP %3 · CP %4").arg(l.dp).arg(l.tp).arg(l.pp).arg(l.cp);
    if (l.ep > 1)
        text += QStringLiteral(" · EP %1").arg(l.ep);
    if (l.virtualStages > 1)
        text += QStringLiteral(" · v %1").arg(l.virtualStages);
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
