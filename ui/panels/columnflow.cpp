// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/columnflow.h"

#include <QHBoxLayout>
#include <QVBoxLayout>

#include <algorithm>
#include <functional>
#include <limits>
#include <numeric>

namespace clusterplanner::ui {

ColumnFlow::ColumnFlow(QWidget* parent)
    : QWidget(parent)
    , m_layout(new QHBoxLayout(this))
{
    m_layout->setContentsMargins(0, 0, 0, 0);
}

void ColumnFlow::addWidget(QWidget* widget)
{
    widget->setParent(this);
    m_widgets.push_back(widget);
    m_columns = 0; // force the next setColumns() to lay out again
}

void ColumnFlow::setColumns(int columns)
{
    columns = std::clamp(columns, 1, std::max(1, static_cast<int>(m_widgets.size())));
    if (columns == m_columns)
        return;
    m_columns = columns;
    while (QLayoutItem* item = m_layout->takeAt(0))
        delete item; // the column layouts only; the widgets stay children of this
    std::vector<int> heights;
    for (QWidget* widget : m_widgets)
        heights.push_back(widget->sizeHint().height());
    const std::vector<int> cuts = balancedCuts(heights, columns);
    std::size_t next = 0;
    for (int c = 0; c < columns; ++c) {
        auto* column = new QVBoxLayout;
        const std::size_t end = c < columns - 1 ? static_cast<std::size_t>(cuts[c]) : m_widgets.size();
        for (; next < end; ++next)
            column->addWidget(m_widgets[next]);
        if (!(m_lastGrows && end == m_widgets.size()))
            column->addStretch(1);
        m_layout->addLayout(column, 1);
    }
}

std::vector<int> ColumnFlow::balancedCuts(const std::vector<int>& heights, int columns)
{
    // A handful of widgets and at most a few columns: trying every split is cheap and exact.
    const int n = static_cast<int>(heights.size());
    std::vector<int> cuts(std::max(0, columns - 1));
    std::vector<int> best = cuts;
    int bestHeight = std::numeric_limits<int>::max();
    std::function<void(int, int)> search = [&](int cut, int from) {
        if (cut == columns - 1) {
            int tallest = 0;
            int start = 0;
            for (int c = 0; c < columns; ++c) {
                const int end = c < columns - 1 ? cuts[c] : n;
                tallest = std::max(tallest, std::accumulate(heights.begin() + start, heights.begin() + end, 0));
                start = end;
            }
            if (tallest < bestHeight) {
                bestHeight = tallest;
                best = cuts;
            }
            return;
        }
        for (int at = from; at <= n - (columns - 1 - cut); ++at) {
            cuts[cut] = at;
            search(cut + 1, at + 1);
        }
    };
    search(0, 1);
    return best;
}

} // namespace clusterplanner::ui
