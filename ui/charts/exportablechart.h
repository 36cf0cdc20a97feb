// SPDX-License-Identifier: GPL-3.0-or-later
// Interface of chart panels that File ▸ Export ▸ Current chart… can write to a file.
#pragma once

#include <QSize>
#include <QString>
#include <QWidget>

namespace clusterplanner::ui {

/// A chart panel inherits QWidget and this. The main window enables "Current chart…" while keyboard focus is
/// inside such a widget, asks for a path, and calls exportChart() (no dialog inside, see house style 24).
class ExportableChart
{
public:
    virtual ~ExportableChart() = default;
    /// Short title, used for the suggested file name.
    virtual QString chartTitle() const = 0;
    /// Writes the chart; the format follows the suffix (png, pdf, svg). Returns empty or an error message.
    virtual QString exportChart(const QString& path, const QSize& sizePx) const = 0;
};

/// The exportable chart that contains `widget` (or is it), or nullptr.
inline ExportableChart* exportableChartAt(QWidget* widget)
{
    for (; widget; widget = widget->parentWidget())
        if (auto* chart = dynamic_cast<ExportableChart*>(widget))
            return chart;
    return nullptr;
}

} // namespace clusterplanner::ui
