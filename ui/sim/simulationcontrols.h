// SPDX-License-Identifier: GPL-3.0-or-later
// The toolbar of the shared simulation: policy, placement, run, cancel, progress and a status line.
#pragma once

#include <QWidget>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;

namespace clusterplanner::ui {

class SimulationSession;

class SimulationControls : public QWidget
{
    Q_OBJECT
public:
    explicit SimulationControls(SimulationSession* session, QWidget* parent = nullptr);

    QComboBox* policyBox() const { return m_policy; }
    QPushButton* cancelButton() const { return m_cancel; }
    QLabel* statusLabel() const { return m_status; }
    /// Extra widgets (e.g. a resource choice) go after the policy controls.
    void addWidget(QWidget* widget);

private:
    void showState();

    SimulationSession* m_session;
    QComboBox* m_policy;
    QComboBox* m_placement;
    QPushButton* m_run;
    QPushButton* m_cancel;
    QProgressBar* m_progress;
    QLabel* m_status;
};

} // namespace clusterplanner::ui
