// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/machinebenchrunner.h"

#include <QtConcurrent/QtConcurrentRun>

namespace clusterplanner::ui {

MachineBenchRunner::MachineBenchRunner(QObject* parent)
    : QObject(parent)
    , m_watcher(new QFutureWatcher<BenchResults>(this))
{
    connect(m_watcher, &QFutureWatcher<BenchResults>::finished, this,
        [this] { Q_EMIT finished(m_watcher->result(), m_stop.stop_requested()); });
}

MachineBenchRunner::~MachineBenchRunner()
{
    // The worker holds a pointer to nothing of ours but may still call progress: stop it and wait.
    m_stop.request_stop();
    m_watcher->waitForFinished();
}

void MachineBenchRunner::start(const core::probe::ProbeOptions& options, const core::probe::ProbeResult& probed)
{
    if (isRunning())
        return;
    m_stop = std::stop_source();
    // Queued to this object: Qt drops the call if the runner is gone by the time the event loop gets to it.
    auto report = [this](int done, int total, const std::string& next) {
        const int permille = total > 0 ? done * 1000 / total : 1000;
        const auto name = QString::fromStdString(next);
        QMetaObject::invokeMethod(
            this, [this, permille, name] { Q_EMIT progress(permille, name); }, Qt::QueuedConnection);
    };
    m_watcher->setFuture(QtConcurrent::run([options, probed, token = m_stop.get_token(), report] {
        return core::probe::runBenchmarks(options, probed, {}, token, report);
    }));
}

void MachineBenchRunner::cancel()
{
    m_stop.request_stop();
}

bool MachineBenchRunner::isRunning() const
{
    return m_watcher->isRunning();
}

} // namespace clusterplanner::ui
