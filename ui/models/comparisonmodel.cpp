// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/models/comparisonmodel.h"

#include "core/io/scenariojson.h"
#include "ui/library/keyfigures.h"

#include <QBrush>
#include <QColor>
#include <QFont>

#include <algorithm>
#include <cmath>
#include <map>

namespace clusterplanner::ui {

namespace {

const QColor kDifferenceColor(255, 236, 179); // a soft amber that reads on light and dark palettes

bool isListOfObjects(const nlohmann::json& value)
{
    return value.is_array() && !value.empty()
        && std::all_of(value.begin(), value.end(), [](const nlohmann::json& item) { return item.is_object(); });
}

/// Leaves of a scenario object by dotted path. Lists of objects (node groups, fabric tiers) are opened element by
/// element ("cluster.node_groups[0].gpu"), so a comparison marks the one field that differs; other arrays and null
/// are leaves.
void flatten(const nlohmann::json& value, const std::string& path, std::map<std::string, QString>& out)
{
    if (value.is_object()) {
        for (const auto& [key, child] : value.items())
            flatten(child, path.empty() ? key : path + "." + key, out);
        return;
    }
    if (isListOfObjects(value)) {
        for (std::size_t i = 0; i < value.size(); ++i)
            flatten(value[i], path + "[" + std::to_string(i) + "]", out);
        return;
    }
    out[path] = value.is_string() ? QString::fromStdString(value.get<std::string>())
        : value.is_null()         ? QStringLiteral("—")
                                  : QString::fromStdString(value.dump());
}

/// One key result: its name, how to read it from a cached result, and how to show it.
struct ResultField
{
    const char* label;
    double (*value)(const core::CachedResult&);
    int decimals;
    const char* unit;
    double scale; ///< shown value = value / scale
};

const ResultField kResultFields[] = {
    {QT_TRANSLATE_NOOP("ComparisonModel", "Step time"), [](const core::CachedResult& r) { return r.figures.stepTimeS; },
        2, " s", 1.0},
    {QT_TRANSLATE_NOOP("ComparisonModel", "Tokens/s"), [](const core::CachedResult& r) { return r.figures.tokensPerS; },
        3, " M", 1e6},
    {QT_TRANSLATE_NOOP("ComparisonModel", "MFU"), [](const core::CachedResult& r) { return r.figures.mfu; }, 1, " %",
        0.01},
    {QT_TRANSLATE_NOOP("ComparisonModel", "Run cost"), [](const core::CachedResult& r) { return r.figures.costUsd; }, 2,
        " M USD", 1e6},
    {QT_TRANSLATE_NOOP("ComparisonModel", "Energy"), [](const core::CachedResult& r) { return energyKwhOf(r); }, 1,
        " MWh", 1e3},
};

QString formatted(double value, const ResultField& field)
{
    return QString::number(value / field.scale, 'f', field.decimals) + QLatin1String(field.unit);
}

/// "+4.1 %" relative to the first scenario's value.
QString relativeDifference(double value, double reference)
{
    if (reference == 0 || !std::isfinite(reference) || !std::isfinite(value))
        return {};
    const double percent = (value - reference) / std::abs(reference) * 100.0;
    return QStringLiteral(" (%1%2 %)").arg(percent >= 0 ? QStringLiteral("+") : QString()).arg(percent, 0, 'f', 1);
}

} // namespace

ComparisonModel::ComparisonModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void ComparisonModel::setEntries(std::vector<CompareEntry> entries)
{
    m_entries = std::move(entries);
    rebuild();
}

void ComparisonModel::setOnlyDifferences(bool only)
{
    m_onlyDifferences = only;
    rebuild();
}

int ComparisonModel::rowOf(const QString& label) const
{
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i].label == label)
            return static_cast<int>(i);
    }
    return -1;
}

void ComparisonModel::rebuild()
{
    beginResetModel();
    m_rows.clear();
    if (!m_entries.empty()) {
        addResultRows();
        addInputRows();
    }
    endResetModel();
}

void ComparisonModel::addResultRows()
{
    Row fits {tr("Fits in memory"), true, false, {}};
    for (const CompareEntry& entry : m_entries)
        fits.cells << (!entry.result ? tr("not evaluated") : fitsOf(*entry.result) ? tr("yes") : tr("no"));
    fits.differs = fits.cells.count(fits.cells.front()) != fits.cells.size();
    m_rows.push_back(fits);

    for (const ResultField& field : kResultFields) {
        Row row {tr(field.label), true, false, {}};
        const auto& first = m_entries.front().result;
        const double reference = first ? field.value(*first) : std::nan("");
        for (std::size_t i = 0; i < m_entries.size(); ++i) {
            const auto& result = m_entries[i].result;
            const double value = result ? field.value(*result) : std::nan("");
            if (!std::isfinite(value)) { // not evaluated, or a figure the engine could not give
                row.cells << QStringLiteral("–");
                continue;
            }
            row.cells << formatted(value, field) + (i > 0 ? relativeDifference(value, reference) : QString());
            row.differs = row.differs || formatted(value, field) != formatted(reference, field);
        }
        m_rows.push_back(row);
    }
}

void ComparisonModel::addInputRows()
{
    std::vector<std::map<std::string, QString>> fields(m_entries.size());
    std::map<std::string, bool> paths; // every path of any scenario, sorted
    for (std::size_t i = 0; i < m_entries.size(); ++i) {
        flatten(core::scenarioToJson(m_entries[i].scenario), {}, fields[i]);
        for (const auto& entry : fields[i])
            paths[entry.first] = true;
    }
    for (const auto& [path, unused] : paths) {
        Row row {QString::fromStdString(path), false, false, {}};
        for (const auto& values : fields) {
            const auto it = values.find(path);
            row.cells << (it == values.end() ? QStringLiteral("—") : it->second);
        }
        row.differs = row.cells.count(row.cells.front()) != row.cells.size();
        if (row.differs || !m_onlyDifferences)
            m_rows.push_back(row);
    }
}

int ComparisonModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ComparisonModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : 1 + static_cast<int>(m_entries.size());
}

QVariant ComparisonModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& row = m_rows.at(static_cast<std::size_t>(index.row()));
    switch (role) {
    case Qt::DisplayRole:
        return index.column() == 0 ? row.label : row.cells.value(index.column() - 1);
    case DiffersRole:
        return row.differs;
    case IsResultRole:
        return row.isResult;
    case Qt::BackgroundRole:
        return row.differs ? QBrush(kDifferenceColor) : QVariant();
    case Qt::ForegroundRole:
        return row.differs ? QBrush(Qt::black) : QVariant(); // readable on the highlight in a dark palette too
    case Qt::FontRole: {
        QFont font;
        font.setBold(row.isResult || (row.differs && index.column() > 0));
        return font;
    }
    default:
        return {};
    }
}

QVariant ComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= columnCount())
        return {};
    return section == 0 ? tr("Field") : m_entries.at(static_cast<std::size_t>(section - 1)).name;
}

} // namespace clusterplanner::ui
