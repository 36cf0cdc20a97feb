// SPDX-License-Identifier: GPL-3.0-or-later
// Asks where to export a chart and at which size; remembers the last folder and size for the session.
#pragma once

#include <QDialog>
#include <QSize>

class QLineEdit;
class QSpinBox;

namespace clusterplanner::ui {

class ExportDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ExportDialog(const QString& chartName, QWidget* parent = nullptr);

    QString path() const;
    QSize size() const;

private:
    void browse();

    QLineEdit* m_path;
    QSpinBox* m_width;
    QSpinBox* m_height;
};

} // namespace clusterplanner::ui
