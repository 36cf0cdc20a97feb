// SPDX-License-Identifier: GPL-3.0-or-later
// Runs core::runSweep off the GUI thread, streams batches of results, drops results of superseded runs.
#pragma once

#include "core/sweep/sweep.h"

#include <QFuture>
#include <QList>
#include <QObject>
#include <QVector>

#include <functional>
#include <memory>

namespace clusterplanner::ui {

using LayoutBatch = QVector<core::LayoutResult>;
/// Builds the evaluator for a scenario (in the worker thread: building may precompute per-model tables).
using EvaluatorFactory = std::function<std::unique_ptr<core::LayoutEvaluator>(const core::Scenario&)>;

struct SweepRun;

/// Owns the sweeps it starts: a batch is handed on once through resultsAvailable and not stored (the reduced
/// result, top N and Pareto front, is what stays); the destructor stops and waits for every worker it started.
class SweepRunner : public QObject
{
    Q_OBJECT
public:
    explicit SweepRunner(EvaluatorFactory factory, QObject* parent = nullptr);
    ~SweepRunner() override;

    /// Cancels any running sweep and starts a new one on a copy of the scenario. `revision` identifies the
    /// document state it belongs to; every signal carries it so receivers can ignore stale results.
    void start(const core::Scenario& scenario, const core::SweepSpec& spec, quint64 revision);
    /// Stops the running sweep; nothing of it is emitted any more. Its worker ends within one chunk of layouts.
    void cancel();
    bool isRunning() const { return m_current != nullptr; }
    quint64 revision() const { return m_revision; }
    /// The last complete result (empty until a sweep finished).
    const core::SweepResult& lastResult() const { return m_lastResult; }

Q_SIGNALS:
    void started(quint64 revision);
    void progress(int permille, quint64 revision);
    void resultsAvailable(const clusterplanner::ui::LayoutBatch& batch, quint64 revision);
    void finished(quint64 revision);
    /// The evaluator could not be built, or it or the sweep threw: the run ends without `finished`.
    void failed(const QString& message, quint64 revision);

private:
    friend class SweepPoster;
    void deliverBatch(const SweepRun* run, const LayoutBatch& batch, int permille);
    void deliverResult(const SweepRun* run, const std::shared_ptr<core::SweepResult>& result);
    void deliverFailure(const SweepRun* run, const QString& message);

    EvaluatorFactory m_factory;
    std::shared_ptr<SweepRun> m_current; ///< null when no sweep runs
    QList<QFuture<void>> m_workers; ///< every worker that may still run, cancelled ones included
    core::SweepResult m_lastResult;
    quint64 m_revision = 0;
};

} // namespace clusterplanner::ui

Q_DECLARE_METATYPE(clusterplanner::ui::LayoutBatch)
