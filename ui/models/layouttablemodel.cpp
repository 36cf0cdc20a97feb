// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/models/layouttablemodel.h"

#include "core/model/enumnames.h"
#include "ui/models/layoutgrid.h"

#include <QColor>
#include <QStringList>

#include <utility>

namespace clusterplanner::ui {

namespace {

QString number(double value, int decimals)
{
    return QString::number(value, 'f', decimals);
}

/// "16·4·2·2 v6 mb1": DP·TP·PP·CP, then EP, virtual stages, the hybrid shard degree and the micro-batch where they
/// say something.
QString compactLayout(const core::LayoutCandidate& c)
{
    const auto& l = c.layout;
    QStringList parts {QStringLiteral("%1·%2·%3·%4").arg(l.dp).arg(l.tp).arg(l.pp).arg(l.cp)};
    for (const auto& [prefix, degree] : {std::pair {"ep", l.ep}, std::pair {"v", l.virtualStages}})
        if (degree > 1)
            parts << QLatin1String(prefix) + QString::number(degree);
    if (l.shardReplicas() > 1)
        parts << QStringLiteral("shard%1").arg(l.shardDp());
    parts << QStringLiteral("mb%1").arg(c.microBatch);
    return parts.join(QLatin1Char(' '));
}

} // namespace

LayoutTableModel::LayoutTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void LayoutTableModel::setResults(std::vector<core::LayoutResult> results)
{
    beginResetModel();
    m_results = std::move(results);
    endResetModel();
}

int LayoutTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_results.size());
}

int LayoutTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LayoutTableModel::sortValue(const core::LayoutResult& r, int column) const
{
    const auto& c = r.candidate;
    switch (column) {
    case Dp:
        return c.layout.dp;
    case Tp:
        return c.layout.tp;
    case Pp:
        return c.layout.pp;
    case Cp:
        return c.layout.cp;
    case Ep:
        return c.layout.ep;
    case VirtualStages:
        return c.layout.virtualStages;
    case MicroBatch:
        return c.microBatch;
    case Recompute:
        return QString::fromLatin1(core::toString(c.recompute).data());
    case ZeroStage:
        return c.zeroStage;
    case Schedule:
        return QString::fromLatin1(core::toString(c.schedule).data());
    case RankOrder:
        return QString::fromLatin1(core::toString(c.layout.rankOrder).data());
    case Fits:
        return r.fits;
    case Layout:
        return compactLayout(c);
    case PeakMemory:
        return r.peakMemoryGiB;
    case Headroom:
        return r.headroomGiB();
    case StepTime:
        return r.stepTimeS;
    case TokensPerGpu:
        return r.tokensPerSPerGpu;
    case Mfu:
        return r.mfu;
    case CostPerMTokens:
        return r.costPerMTokensUsd;
    default:
        return {};
    }
}

QString LayoutTableModel::displayText(const core::LayoutResult& r, int column) const
{
    switch (column) {
    case Fits: // a fit within the memory model's error band says so: it may not fit in practice
        return r.fits ? (r.tight() ? tr("tight") : tr("yes")) : tr("no");
    case PeakMemory:
    case Headroom:
        return number(sortValue(r, column).toDouble(), 1);
    case StepTime:
        return number(r.stepTimeS, 3);
    case TokensPerGpu:
        return number(r.tokensPerSPerGpu, 0);
    case Mfu:
        return number(100 * r.mfu, 1);
    case CostPerMTokens:
        return number(r.costPerMTokensUsd, 2);
    case Recompute: // a layout that fits only by offloading says so where recompute would have been the answer
        return r.offloadedLayers > 0
            ? tr("%1 + offload %2 layers").arg(sortValue(r, column).toString()).arg(r.offloadedLayers)
            : sortValue(r, column).toString();
    default:
        return sortValue(r, column).toString();
    }
}

QVariant LayoutTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto& r = m_results[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return displayText(r, index.column());
    case SortRole:
        return sortValue(r, index.column());
    case Qt::TextAlignmentRole:
        return index.column() == Layout || index.column() == Recompute || index.column() == Schedule
                || index.column() == RankOrder
            ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
            : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        return layoutSummary(r.candidate); // the whole layout, whichever columns are scrolled out of view
    case Qt::ForegroundRole:
        return r.fits ? QVariant() : QVariant(QColor(0xC0, 0x30, 0x30));
    default:
        return {};
    }
}

QVariant LayoutTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == Layout)
        return tr("DP·TP·PP·CP, then EP (ep), virtual stages (v) and the micro-batch (mb); the columns further right "
                  "hold each on its own");
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == Fits)
        return tr(
            "yes: fits the GPU's usable memory; tight: fits with less than %1 % of it to spare, within the memory "
            "model's error band, so it may not fit in practice; no: does not fit")
            .arg(100 * core::LayoutResult::kTightHeadroomFraction, 0, 'f', 0);
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == Mfu)
        return tr("Model FLOPs utilization: 6·N + 12·L·s·h FLOPs per token (attention over the whole score matrix, "
                  "the Megatron-LM and PaLM convention; causal kernels do half of that part) against the GPU's dense "
                  "16-bit peak");
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char* const names[ColumnCount]
        = {"Fits", "Layout", "Tokens/s/GPU", "MFU %", "Step s", "Peak GiB", "$/M tokens", "DP", "TP", "PP", "CP", "EP",
            "VPP", "Micro-batch", "Recompute", "ZeRO", "Schedule", "Rank order", "Headroom GiB"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

} // namespace clusterplanner::ui
