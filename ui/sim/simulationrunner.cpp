// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/sim/simulationrunner.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QThread>
#include <QtConcurrent>

#include <atomic>

namespace clusterplanner::ui {

/// One started batch, shared by the runner and its workers; the runner forgets it when cancelled or superseded,
/// and what a worker still posts for it is then recognised by address and dropped.
struct SimulationBatch
{
    explicit SimulationBatch(std::size_t jobs)
        : progress(jobs)
        , remaining(static_cast<int>(jobs))
    { }
    std::stop_source stop;
    std::vector<std::atomic<double>> progress;
    int remaining; ///< touched on the GUI thread only
};

/// A worker's side: posts into the runner's thread, a few times a second for progress.
class SimulationPoster
{
public:
    SimulationPoster(SimulationRunner* runner, std::shared_ptr<SimulationBatch> batch, int job)
        : m_runner(runner)
        , m_batch(std::move(batch))
        , m_job(job)
    {
        m_clock.start();
    }

    void progress(double fraction)
    {
        m_batch->progress[static_cast<std::size_t>(m_job)].store(fraction, std::memory_order_relaxed);
        if (m_clock.elapsed() < kProgressIntervalMs)
            return;
        m_clock.restart();
        post([](SimulationRunner* runner, const SimulationBatch* batch, int) { runner->deliverProgress(batch); });
    }

    void result(std::any value)
    {
        post([value = std::move(value)](SimulationRunner* runner, const SimulationBatch* batch, int job) {
            runner->deliverResult(batch, job, value);
        });
    }

    void fail(const QString& message)
    {
        post([message](SimulationRunner* runner, const SimulationBatch* batch, int job) {
            runner->deliverFailure(batch, job, message);
        });
    }

private:
    static constexpr qint64 kProgressIntervalMs = 50;

    template <typename Call>
    void post(Call call)
    {
        // A queued call runs in the runner's thread, only while the runner lives; the runner waits for its
        // workers before it dies, so the raw pointer stays valid for the worker's life.
        QMetaObject::invokeMethod(
            m_runner,
            [runner = m_runner, batch = m_batch, job = m_job, call = std::move(call)] {
                call(runner, batch.get(), job);
            },
            Qt::QueuedConnection);
    }

    SimulationRunner* m_runner;
    std::shared_ptr<SimulationBatch> m_batch;
    int m_job;
    QElapsedTimer m_clock;
};

SimulationRunner::SimulationRunner(QObject* parent)
    : QObject(parent)
{ }

SimulationRunner::~SimulationRunner()
{
    if (m_current)
        m_current->stop.request_stop();
    m_current.reset();
    for (QFuture<void>& worker : m_workers)
        worker.waitForFinished();
}

void SimulationRunner::start(std::vector<SimulationJob> jobs)
{
    cancel();
    m_workers.removeIf([](const QFuture<void>& worker) { return worker.isFinished(); });
    if (jobs.empty())
        return;
    auto batch = std::make_shared<SimulationBatch>(jobs.size());
    m_current = batch;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        m_workers.append(QtConcurrent::run([this, batch, job = std::move(jobs[i]), index = int(i)] {
            SimulationPoster poster(this, batch, index);
            const std::stop_token stop = batch->stop.get_token();
            if (stop.stop_requested())
                return poster.fail(QStringLiteral("cancelled")); // dropped: the batch is no longer current
            try {
                poster.result(job(stop, [&](double fraction) { poster.progress(fraction); }));
            } catch (const std::exception& error) {
                poster.fail(QString::fromUtf8(error.what()));
            } catch (...) {
                poster.fail(QStringLiteral("unknown error in the simulation"));
            }
        }));
    }
    Q_EMIT started(int(jobs.size()));
}

void SimulationRunner::cancel()
{
    if (!m_current)
        return;
    m_current->stop.request_stop();
    m_current.reset();
    Q_EMIT cancelled();
}

bool SimulationRunner::waitForFinished(int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    while (m_current && !deadline.hasExpired()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QThread::msleep(2);
    }
    return !m_current;
}

void SimulationRunner::deliverProgress(const SimulationBatch* batch)
{
    if (batch != m_current.get())
        return;
    double sum = 0;
    for (const auto& p : m_current->progress)
        sum += p.load(std::memory_order_relaxed);
    Q_EMIT progress(int(1000 * sum / double(m_current->progress.size())));
}

void SimulationRunner::deliverResult(const SimulationBatch* batch, int job, const std::any& result)
{
    if (batch != m_current.get())
        return;
    m_current->progress[static_cast<std::size_t>(job)].store(1.0);
    Q_EMIT resultReady(job, result);
    jobEnded(batch);
}

void SimulationRunner::deliverFailure(const SimulationBatch* batch, int job, const QString& message)
{
    if (batch != m_current.get())
        return;
    m_current->progress[static_cast<std::size_t>(job)].store(1.0);
    Q_EMIT jobFailed(job, message);
    jobEnded(batch);
}

void SimulationRunner::jobEnded(const SimulationBatch* batch)
{
    if (batch != m_current.get() || --m_current->remaining > 0) {
        deliverProgress(batch);
        return;
    }
    m_current.reset(); // before emitting: a receiver may start the next batch
    Q_EMIT progress(1000);
    Q_EMIT finished();
}

} // namespace clusterplanner::ui
