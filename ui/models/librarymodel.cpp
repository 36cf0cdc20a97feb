// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/models/librarymodel.h"

#include <QDateTime>
#include <QLocale>

namespace clusterplanner::ui {

namespace {

QString fromStd(const std::string& text)
{
    return QString::fromStdString(text);
}

QString joinedTags(const std::vector<std::string>& tags)
{
    QStringList list;
    for (const auto& tag : tags)
        list << fromStd(tag);
    return list.join(QStringLiteral(", "));
}

/// "2025-01-31T12:00:00.000Z" shown in local time, minutes only.
QString localTime(const std::string& isoUtc)
{
    const QDateTime time = QDateTime::fromString(fromStd(isoUtc), Qt::ISODateWithMs);
    return time.isValid() ? time.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm")) : fromStd(isoUtc);
}

/// 1.23 M, 456 k: large figures at a glance.
QString scaled(double value, int decimals = 2)
{
    if (value >= 1e9)
        return QString::number(value / 1e9, 'f', decimals) + QStringLiteral(" G");
    if (value >= 1e6)
        return QString::number(value / 1e6, 'f', decimals) + QStringLiteral(" M");
    if (value >= 1e3)
        return QString::number(value / 1e3, 'f', decimals) + QStringLiteral(" k");
    return QString::number(value, 'f', 0);
}

} // namespace

LibraryModel::LibraryModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void LibraryModel::setRows(std::vector<core::ListRow> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

int LibraryModel::rowOf(core::ScenarioId id) const
{
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i].id == id)
            return static_cast<int>(i);
    }
    return -1;
}

int LibraryModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int LibraryModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LibraryModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const core::ListRow& row = rowAt(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return displayText(row, index.column());
    case SortRole:
        return sortValue(row, index.column());
    case IdRole:
        return QVariant::fromValue<qint64>(row.id);
    case Qt::ToolTipRole:
        return index.column() == Name ? fromStd(row.notes) : QVariant();
    case Qt::TextAlignmentRole:
        return index.column() >= GpuCount && index.column() <= StepTime ? int(Qt::AlignRight | Qt::AlignVCenter)
                                                                        : int(Qt::AlignLeft | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant LibraryModel::sortValue(const core::ListRow& row, int column) const
{
    switch (column) {
    case Name:
        return fromStd(row.name).toLower();
    case Tags:
        return joinedTags(row.tags);
    case GpuType:
        return fromStd(row.gpuId);
    case GpuCount:
        return double(row.gpuCount);
    case Modified:
        return fromStd(row.modified); // ISO 8601 UTC sorts as text
    default:
        break;
    }
    if (!row.figures)
        return {};
    const core::ResultFigures& f = *row.figures;
    switch (column) {
    case TokensPerS:
        return f.tokensPerS;
    case Mfu:
        return f.mfu;
    case Cost:
        return f.costUsd;
    case StepTime:
        return f.stepTimeS;
    default:
        return {};
    }
}

QString LibraryModel::displayText(const core::ListRow& row, int column) const
{
    switch (column) {
    case Name:
        return fromStd(row.name);
    case Tags:
        return joinedTags(row.tags);
    case GpuType:
        return fromStd(row.gpuId);
    case GpuCount:
        return QLocale().toString(row.gpuCount);
    case Modified:
        return localTime(row.modified);
    default:
        break;
    }
    if (!row.figures)
        return QStringLiteral("–");
    const core::ResultFigures& f = *row.figures;
    switch (column) {
    case TokensPerS:
        return scaled(f.tokensPerS);
    case Mfu:
        return QString::number(f.mfu * 100.0, 'f', 1) + QStringLiteral(" %");
    case Cost:
        return QStringLiteral("$") + scaled(f.costUsd);
    case StepTime:
        return QString::number(f.stepTimeS, 'f', 2) + QStringLiteral(" s");
    default:
        return {};
    }
}

QVariant LibraryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= ColumnCount)
        return {};
    static const char* const titles[ColumnCount]
        = {QT_TR_NOOP("Name"), QT_TR_NOOP("Tags"), QT_TR_NOOP("GPU type"), QT_TR_NOOP("GPUs"), QT_TR_NOOP("Tokens/s"),
            QT_TR_NOOP("MFU"), QT_TR_NOOP("Run cost"), QT_TR_NOOP("Step time"), QT_TR_NOOP("Modified")};
    return tr(titles[section]);
}

} // namespace clusterplanner::ui
