// SPDX-License-Identifier: GPL-3.0-or-later
// Help ▸ About: application, Qt and QCustomPlot versions and the licence.
#pragma once

#include <QDialog>

namespace clusterplanner::ui {

class AboutDialog : public QDialog
{
    Q_OBJECT
public:
    explicit AboutDialog(QWidget* parent = nullptr);

    /// The dialog's rich text: names the application version, qVersion() and the QCustomPlot version.
    static QString aboutText();
};

} // namespace clusterplanner::ui
