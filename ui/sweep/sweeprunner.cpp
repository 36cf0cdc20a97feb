// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/sweep/sweeprunner.h"

#include <QElapsedTimer>
#include <QtConcurrent>

#include <stdexcept>
#include <utility>

namespace clusterplanner::ui {

/// One started sweep, shared by the runner and its worker. The runner forgets it when the sweep is cancelled or
/// superseded; what the worker still posts for it is then recognised by address and dropped.
struct SweepRun
{
    std::stop_source stop;
};

/// The worker's side: collects streamed results and posts them to the runner a few times per second. A posted
/// call runs in the runner's thread and only while the runner lives (Qt drops pending calls with their context
/// object); the runner waits for its workers before it dies, so the raw pointer is valid for the worker's life.
class SweepPoster
{
public:
    SweepPoster(SweepRunner* runner, std::shared_ptr<SweepRun> run)
        : m_runner(runner)
        , m_run(std::move(run))
    {
        m_clock.start();
    }

    void add(double fraction, std::span<const core::LayoutResult> batch)
    {
        m_pending.append(LayoutBatch(batch.begin(), batch.end()));
        m_fraction = fraction;
        if (m_clock.elapsed() >= kFlushIntervalMs)
            flush();
    }

    void flush()
    {
        post([batch = std::exchange(m_pending, {}), permille = int(m_fraction * 1000)](
                 SweepRunner* runner, const SweepRun* run) { runner->deliverBatch(run, batch, permille); });
        m_clock.restart();
    }

    void finish(core::SweepResult result)
    {
        post([result = std::make_shared<core::SweepResult>(std::move(result))](
                 SweepRunner* runner, const SweepRun* run) { runner->deliverResult(run, result); });
    }

    void fail(const QString& message)
    {
        post([message](SweepRunner* runner, const SweepRun* run) { runner->deliverFailure(run, message); });
    }

private:
    static constexpr qint64 kFlushIntervalMs = 40; // ~25 updates/s: smooth, without flooding the GUI thread

    template <typename Call>
    void post(Call call)
    {
        // The shared pointer keeps the run's address from being reused while a call for it is pending.
        QMetaObject::invokeMethod(
            m_runner, [runner = m_runner, run = m_run, call = std::move(call)] { call(runner, run.get()); },
            Qt::QueuedConnection);
    }

    SweepRunner* m_runner;
    std::shared_ptr<SweepRun> m_run;
    LayoutBatch m_pending;
    double m_fraction = 0;
    QElapsedTimer m_clock;
};

namespace {

void runInWorker(SweepPoster& poster, const EvaluatorFactory& factory, const core::Scenario& scenario,
    const core::SweepSpec& spec, std::stop_token stop)
{
    if (stop.stop_requested())
        return; // cancelled before the pool started it (or run by waitForFinished in a dying runner)
    try {
        const auto evaluator = factory(scenario);
        if (!evaluator)
            throw std::runtime_error("no layout evaluator for this scenario");
        auto result = core::runSweep(
            scenario, spec, *evaluator, stop, [&](double fraction, auto batch) { poster.add(fraction, batch); });
        poster.flush();
        poster.finish(std::move(result));
    } catch (const std::exception& exception) {
        poster.fail(QString::fromUtf8(exception.what()));
    } catch (...) {
        poster.fail(QStringLiteral("unknown error in the sweep"));
    }
}

} // namespace

SweepRunner::SweepRunner(EvaluatorFactory factory, QObject* parent)
    : QObject(parent)
    , m_factory(std::move(factory))
{
    qRegisterMetaType<LayoutBatch>();
}

SweepRunner::~SweepRunner()
{
    cancel();
    // Workers post to this object and read the factory: none may outlive it.
    for (QFuture<void>& worker : m_workers)
        worker.waitForFinished();
}

void SweepRunner::start(const core::Scenario& scenario, const core::SweepSpec& spec, quint64 revision)
{
    cancel();
    m_workers.removeIf([](const QFuture<void>& worker) { return worker.isFinished(); });
    m_revision = revision;
    m_current = std::make_shared<SweepRun>();
    m_workers.append(QtConcurrent::run(
        [this, run = m_current, factory = m_factory, scenario, spec, stop = m_current->stop.get_token()] {
            SweepPoster poster(this, run);
            runInWorker(poster, factory, scenario, spec, stop);
        }));
    Q_EMIT started(revision);
}

void SweepRunner::cancel()
{
    if (!m_current)
        return;
    m_current->stop.request_stop();
    m_current.reset();
}

void SweepRunner::deliverBatch(const SweepRun* run, const LayoutBatch& batch, int permille)
{
    if (run != m_current.get())
        return; // a cancelled or superseded sweep
    Q_EMIT progress(permille, m_revision);
    if (!batch.isEmpty())
        Q_EMIT resultsAvailable(batch, m_revision);
}

void SweepRunner::deliverResult(const SweepRun* run, const std::shared_ptr<core::SweepResult>& result)
{
    if (run != m_current.get())
        return;
    m_current.reset(); // before emitting: a receiver may start the next sweep
    m_lastResult = std::move(*result);
    Q_EMIT finished(m_revision);
}

void SweepRunner::deliverFailure(const SweepRun* run, const QString& message)
{
    if (run != m_current.get())
        return;
    m_current.reset();
    Q_EMIT failed(message, m_revision);
}

} // namespace clusterplanner::ui
