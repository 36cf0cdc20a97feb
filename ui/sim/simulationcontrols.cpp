// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/sim/simulationcontrols.h"

#include "ui/charts/numberformat.h"
#include "ui/sim/simulationlabels.h"
#include "ui/sim/simulationrunner.h"
#include "ui/sim/simulationsession.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>

namespace clusterplanner::ui {

SimulationControls::SimulationControls(SimulationSession* session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
    , m_policy(new QComboBox)
    , m_placement(new QComboBox)
    , m_run(new QPushButton(tr("Simulate")))
    , m_cancel(new QPushButton(tr("Cancel")))
    , m_progress(new QProgressBar)
    , m_status(new QLabel)
{
    for (core::sched::Policy policy : allPolicies())
        m_policy->addItem(policyLabel(policy), int(policy));
    for (core::sched::PlacementStrategy placement : allPlacements())
        m_placement->addItem(placementLabel(placement), int(placement));
    m_policy->setObjectName(QStringLiteral("policy"));
    m_policy->setCurrentIndex(m_policy->findData(int(session->policy())));
    m_placement->setCurrentIndex(m_placement->findData(int(session->placement())));
    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(160);
    m_progress->setFormat(QStringLiteral("%p %"));
    m_status->setObjectName(QStringLiteral("simulationStatus"));
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // long figures must not widen the window
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("Policy:")));
    layout->addWidget(m_policy);
    layout->addWidget(new QLabel(tr("Placement:")));
    layout->addWidget(m_placement);
    layout->addWidget(m_run);
    layout->addWidget(m_cancel);
    layout->addWidget(m_progress);
    layout->addWidget(m_status, 1);

    auto apply = [this] {
        m_session->setPolicy(core::sched::Policy(m_policy->currentData().toInt()),
            core::sched::PlacementStrategy(m_placement->currentData().toInt()));
    };
    connect(m_policy, &QComboBox::currentIndexChanged, this, apply);
    connect(m_placement, &QComboBox::currentIndexChanged, this, apply);
    connect(m_run, &QPushButton::clicked, session, &SimulationSession::restart);
    connect(m_cancel, &QPushButton::clicked, session, &SimulationSession::cancel);
    connect(session, &SimulationSession::progress, m_progress, &QProgressBar::setValue);
    for (auto signal : {&SimulationSession::started, &SimulationSession::dataChanged, &SimulationSession::cancelled})
        connect(session, signal, this, &SimulationControls::showState);
    connect(session, &SimulationSession::failed, this, &SimulationControls::showState);
    // The runner counts as running until its last result is handed over: show the state once it is done.
    connect(session->runner(), &SimulationRunner::finished, this, &SimulationControls::showState);
    showState();
}

void SimulationControls::addWidget(QWidget* widget)
{
    static_cast<QHBoxLayout*>(layout())->insertWidget(4, widget);
}

void SimulationControls::showState()
{
    const bool running = m_session->isRunning();
    m_cancel->setEnabled(running);
    m_progress->setVisible(running);
    if (running) {
        m_progress->setValue(0);
        m_status->setText(tr("Simulating…"));
    } else if (!m_session->error().isEmpty()) {
        m_status->setText(tr("Cannot simulate: %1").arg(m_session->error()));
    } else if (const auto sim = m_session->data()) {
        const auto& m = sim->outcome->metrics;
        m_status->setText(tr("%1 jobs on %2 GPUs: %3 finished, GPU utilisation %4 %, mean wait %5, makespan %6")
                              .arg(formatCount(m.jobs))
                              .arg(formatCount(sim->cluster.gpuCount()))
                              .arg(formatCount(m.finished))
                              .arg(100 * m.gpuUtilization, 0, 'f', 1)
                              .arg(durationText(m.waitS.mean), durationText(m.makespanS)));
    } else {
        m_status->setText(tr("Cancelled: press Simulate to run again."));
    }
}

} // namespace clusterplanner::ui
