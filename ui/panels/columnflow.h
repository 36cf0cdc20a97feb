// SPDX-License-Identifier: GPL-3.0-or-later
// A widget that arranges its child widgets, in order, into a given number of balanced columns.
#pragma once

#include <QWidget>

#include <vector>

class QHBoxLayout;

namespace clusterplanner::ui {

/// Widgets keep their reading order: column 1 holds the first run of them, column 2 the next, and so on; the runs
/// are chosen so that the tallest column is as short as possible. The last widget may be marked to take the
/// remaining height of its column.
class ColumnFlow : public QWidget
{
    Q_OBJECT
public:
    explicit ColumnFlow(QWidget* parent = nullptr);

    void addWidget(QWidget* widget);
    /// Lets the last added widget grow to the bottom of its column.
    void setLastWidgetGrows(bool grows) { m_lastGrows = grows; }
    int columns() const { return m_columns; }
    /// Re-arranges into `columns` columns (at least 1); does nothing when the count is unchanged.
    void setColumns(int columns);

    /// Cut positions splitting `heights` into `columns` contiguous runs with the smallest tallest sum.
    static std::vector<int> balancedCuts(const std::vector<int>& heights, int columns);

private:
    QHBoxLayout* m_layout;
    std::vector<QWidget*> m_widgets;
    bool m_lastGrows = false;
    int m_columns = 0;
};

} // namespace clusterplanner::ui
