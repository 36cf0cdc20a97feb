// SPDX-License-Identifier: GPL-3.0-or-later
// In-memory ordering of list rows.
#include "core/store/listsort.h"

#include <algorithm>
#include <optional>

namespace clusterplanner::core {

namespace {

int compareNoCase(const std::string& a, const std::string& b)
{
    const std::size_t n = std::min(a.size(), b.size());
    for (std::size_t i = 0; i < n; ++i) {
        const auto x = static_cast<unsigned char>(a[i] >= 'A' && a[i] <= 'Z' ? a[i] + 32 : a[i]);
        const auto y = static_cast<unsigned char>(b[i] >= 'A' && b[i] <= 'Z' ? b[i] + 32 : b[i]);
        if (x != y)
            return x < y ? -1 : 1;
    }
    return a.size() == b.size() ? 0 : (a.size() < b.size() ? -1 : 1);
}

std::optional<double> numericKey(const ListRow& row, SortColumn column)
{
    if (column == SortColumn::GpuCount)
        return row.figures ? row.figures->gpuCount : row.gpuCount;
    if (!row.figures)
        return std::nullopt;
    switch (column) {
    case SortColumn::TokensPerS:
        return row.figures->tokensPerS;
    case SortColumn::CostUsd:
        return row.figures->costUsd;
    case SortColumn::Mfu:
        return row.figures->mfu;
    default:
        return row.figures->stepTimeS;
    }
}

/// <0, 0, >0 in ascending order; missing values are handled by the caller.
int compareKeys(const ListRow& a, const ListRow& b, SortColumn column)
{
    switch (column) {
    case SortColumn::Name:
        return compareNoCase(a.name, b.name);
    case SortColumn::Created:
        return a.created.compare(b.created);
    case SortColumn::Modified:
        return a.modified.compare(b.modified);
    default:
        break;
    }
    const double x = *numericKey(a, column), y = *numericKey(b, column);
    return x < y ? -1 : (x > y ? 1 : 0);
}

bool hasKey(const ListRow& row, SortColumn column)
{
    return column == SortColumn::Name || column == SortColumn::Created || column == SortColumn::Modified
        || numericKey(row, column).has_value();
}

} // namespace

void sortRows(std::vector<ListRow>& rows, SortColumn column, bool descending)
{
    std::sort(rows.begin(), rows.end(), [&](const ListRow& a, const ListRow& b) {
        const bool aHas = hasKey(a, column), bHas = hasKey(b, column);
        if (aHas != bHas)
            return aHas; // rows without a value last, whatever the direction
        int order = aHas ? compareKeys(a, b, column) : 0;
        if (order == 0)
            order = a.id < b.id ? -1 : (a.id > b.id ? 1 : 0);
        return descending ? order > 0 : order < 0;
    });
}

} // namespace clusterplanner::core
