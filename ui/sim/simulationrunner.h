// SPDX-License-Identifier: GPL-3.0-or-later
// Runs simulation jobs off the GUI thread, several in parallel: progress, cancel, and each result handed over as
// soon as it is ready (streaming), results of a cancelled or superseded batch dropped.
#pragma once

#include <QFuture>
#include <QList>
#include <QObject>
#include <QString>

#include <any>
#include <functional>
#include <memory>
#include <stop_token>
#include <vector>

namespace clusterplanner::ui {

/// One unit of work, run in a pool thread. It reports progress in [0, 1], should throw (any exception) or return
/// early when the token asks it to stop, and returns its result (typically a shared_ptr to a core result).
using SimulationJob = std::function<std::any(std::stop_token stop, const std::function<void(double)>& progress)>;

struct SimulationBatch;

class SimulationRunner : public QObject
{
    Q_OBJECT
public:
    explicit SimulationRunner(QObject* parent = nullptr);
    /// Stops every job it started and waits for them: no worker outlives the runner.
    ~SimulationRunner() override;

    /// Cancels the running batch and starts these jobs in the global thread pool.
    void start(std::vector<SimulationJob> jobs);
    /// Stops the running batch; nothing of it is emitted any more (cancelled() is, once).
    void cancel();
    bool isRunning() const { return m_current != nullptr; }
    /// Waits until the batch ends (finished or failed), handling its queued signals; for screenshots and tests.
    /// Returns false when it did not end within timeoutMs.
    bool waitForFinished(int timeoutMs);

Q_SIGNALS:
    void started(int jobs);
    /// Mean progress of the batch's jobs, in thousandths.
    void progress(int permille);
    void resultReady(int job, const std::any& result);
    void jobFailed(int job, const QString& message);
    /// Every job of the batch ended (some may have failed).
    void finished();
    void cancelled();

private:
    friend class SimulationPoster;
    void deliverProgress(const SimulationBatch* batch);
    void deliverResult(const SimulationBatch* batch, int job, const std::any& result);
    void deliverFailure(const SimulationBatch* batch, int job, const QString& message);
    void jobEnded(const SimulationBatch* batch);

    std::shared_ptr<SimulationBatch> m_current;
    QList<QFuture<void>> m_workers;
};

} // namespace clusterplanner::ui
