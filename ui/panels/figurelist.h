// SPDX-License-Identifier: GPL-3.0-or-later
// The derived figures of one purchase as a two-column list grouped by section (the topology panel's live figures).
#pragma once

#include "ui/panels/purchaserows.h"

#include <QTreeWidget>

namespace clusterplanner::ui {

class FigureList : public QTreeWidget
{
    Q_OBJECT
public:
    explicit FigureList(QWidget* parent = nullptr);

    void setRows(const std::vector<FigureRow>& rows);
    /// Replaces the list by one line saying why there are no figures.
    void showError(const QString& message);
    /// The value text shown for `key`, or empty (tests).
    QString valueText(const QString& key) const;
};

} // namespace clusterplanner::ui
