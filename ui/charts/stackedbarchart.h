// SPDX-License-Identifier: GPL-3.0-or-later
// Stacked bars per category (e.g. memory terms per pipeline stage) with an optional limit line (GPU capacity).
#pragma once

#include "ui/charts/chartwidget.h"

#include <QColor>
#include <QStringList>
#include <QVector>

#include <optional>

class QCPLayoutGrid;

namespace clusterplanner::ui {

struct BarSeries
{
    QString name;
    QColor color;
    QVector<double> values; ///< one per category
};

class StackedBarChart : public ChartWidget
{
    Q_OBJECT
public:
    explicit StackedBarChart(QWidget* parent = nullptr);

    void setData(const QStringList& categories, QVector<BarSeries> series);
    void setLimit(std::optional<double> value, const QString& label);
    void setValueAxisLabel(const QString& label);
    /// Horizontal bars read better with many categories or long names.
    void setHorizontal(bool horizontal);
    double stackTotal(int category) const;
    void replot() override;

private:
    QStringList m_categories;
    QVector<BarSeries> m_series;
    std::optional<double> m_limit;
    QString m_limitLabel;
    QString m_valueLabel;
    bool m_horizontal = false;
    QCPLayoutGrid* m_legendColumn = nullptr;
};

} // namespace clusterplanner::ui
