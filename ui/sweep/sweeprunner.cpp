// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/sweep/sweeprunner.h"

#include <QElapsedTimer>
#include <QPromise>
#include <QtConcurrent>

namespace clusterplanner::ui {

namespace {

constexpr qint64 kFlushIntervalMs = 40; // ~25 updates/s: smooth, without flooding the GUI thread

/// Collects streamed results in the worker and hands them to the promise a few times per second.
class BatchForwarder
{
public:
    explicit BatchForwarder(QPromise<LayoutBatch>& promise)
        : m_promise(promise)
    {
        m_clock.start();
    }

    void add(double fraction, std::span<const core::LayoutResult> batch, std::stop_source& stop)
    {
        if (m_promise.isCanceled())
            stop.request_stop();
        m_pending.append(LayoutBatch(batch.begin(), batch.end()));
        m_fraction = fraction;
        if (m_clock.elapsed() >= kFlushIntervalMs)
            flush();
    }

    void flush()
    {
        m_promise.setProgressValue(int(m_fraction * 1000));
        if (!m_pending.isEmpty())
            m_promise.addResult(std::move(m_pending));
        m_pending = {};
        m_clock.restart();
    }

private:
    QPromise<LayoutBatch>& m_promise;
    LayoutBatch m_pending;
    double m_fraction = 0;
    QElapsedTimer m_clock;
};

void runInWorker(QPromise<LayoutBatch>& promise, const EvaluatorFactory& factory, const core::Scenario& scenario,
    const core::SweepSpec& spec, const std::shared_ptr<core::SweepResult>& out, const std::shared_ptr<QString>& error)
{
    try {
        promise.setProgressRange(0, 1000);
        const auto evaluator = factory(scenario);
        std::stop_source stop;
        BatchForwarder forwarder(promise);
        *out = core::runSweep(scenario, spec, *evaluator, stop.get_token(),
            [&](double fraction, auto batch) { forwarder.add(fraction, batch, stop); });
        forwarder.flush();
    } catch (const std::exception& exception) {
        *error = QString::fromUtf8(exception.what());
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
    if (m_watcher)
        m_watcher->waitForFinished();
}

void SweepRunner::start(const core::Scenario& scenario, const core::SweepSpec& spec, quint64 revision)
{
    cancel();
    m_revision = revision;
    m_pending = std::make_shared<core::SweepResult>();
    m_error = std::make_shared<QString>();
    // A fresh watcher per run: signals of a cancelled run can never be mistaken for the new one's.
    m_watcher = new QFutureWatcher<LayoutBatch>(this);
    connect(m_watcher, &QFutureWatcherBase::resultsReadyAt, this, &SweepRunner::onResultsReady);
    connect(m_watcher, &QFutureWatcherBase::finished, this, &SweepRunner::onFinished);
    connect(m_watcher, &QFutureWatcherBase::progressValueChanged, this,
        [this](int value) { Q_EMIT progress(value, m_revision); });
    m_watcher->setFuture(QtConcurrent::run(runInWorker, m_factory, scenario, spec, m_pending, m_error));
    Q_EMIT started(revision);
}

void SweepRunner::cancel()
{
    if (!m_watcher)
        return;
    m_watcher->disconnect(this);
    m_watcher->cancel();
    // The old watcher deletes itself once its worker notices the cancel; nothing of it reaches us any more.
    auto* old = m_watcher;
    connect(old, &QFutureWatcherBase::finished, old, &QObject::deleteLater);
    if (old->isFinished())
        old->deleteLater();
    m_watcher = nullptr;
}

bool SweepRunner::isRunning() const
{
    return m_watcher && m_watcher->isRunning();
}

void SweepRunner::onResultsReady(int begin, int end)
{
    for (int i = begin; i < end; ++i)
        Q_EMIT resultsAvailable(m_watcher->resultAt(i), m_revision);
}

void SweepRunner::onFinished()
{
    if (!m_error->isEmpty()) {
        Q_EMIT failed(*m_error, m_revision);
        return;
    }
    m_lastResult = std::move(*m_pending);
    Q_EMIT finished(m_revision);
}

} // namespace clusterplanner::ui
