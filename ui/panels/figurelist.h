// SPDX-License-Identifier: GPL-3.0-or-later
// The derived figures of one purchase as a two-column list grouped by section (the topology panel's live figures).
#pragma once

#include "ui/panels/purchaserows.h"

#include <QTreeWidget>

class QLabel;

namespace clusterplanner::ui {

class FigureList : public QTreeWidget
{
    Q_OBJECT
public:
    explicit FigureList(QWidget* parent = nullptr);

    void setRows(const std::vector<FigureRow>& rows);
    /// Replaces the list by a message saying why there are no figures, wrapped to the list's width (a cluster's
    /// error can be a long sentence; a row would cut it at the column's edge).
    void showError(const QString& message);
    /// The value text shown for `key`, or empty (tests).
    QString valueText(const QString& key) const;
    /// The error shown instead of the figures, or empty (tests).
    QString errorText() const;

protected:
    bool viewportEvent(QEvent* event) override;

private:
    QLabel* m_error;
};

} // namespace clusterplanner::ui
