// SPDX-License-Identifier: GPL-3.0-or-later
// Runs core::runSweep off the GUI thread, streams batches of results, drops results of superseded runs.
#pragma once

#include "core/sweep/sweep.h"

#include <QFutureWatcher>
#include <QObject>
#include <QVector>

#include <functional>
#include <memory>

namespace clusterplanner::ui {

using LayoutBatch = QVector<core::LayoutResult>;
/// Builds the evaluator for a scenario (in the worker thread: building may precompute per-model tables).
using EvaluatorFactory = std::function<std::unique_ptr<core::LayoutEvaluator>(const core::Scenario&)>;

class SweepRunner : public QObject
{
    Q_OBJECT
public:
    explicit SweepRunner(EvaluatorFactory factory, QObject* parent = nullptr);
    ~SweepRunner() override;

    /// Cancels any running sweep and starts a new one on a copy of the scenario. `revision` identifies the
    /// document state it belongs to; every signal carries it so receivers can ignore stale results.
    void start(const core::Scenario& scenario, const core::SweepSpec& spec, quint64 revision);
    void cancel();
    bool isRunning() const;
    quint64 revision() const { return m_revision; }
    /// The last complete result (empty until a sweep finished).
    const core::SweepResult& lastResult() const { return m_lastResult; }

Q_SIGNALS:
    void started(quint64 revision);
    void progress(int permille, quint64 revision);
    void resultsAvailable(const clusterplanner::ui::LayoutBatch& batch, quint64 revision);
    void finished(quint64 revision);
    void failed(const QString& message, quint64 revision);

private:
    void onResultsReady(int begin, int end);
    void onFinished();

    EvaluatorFactory m_factory;
    QFutureWatcher<LayoutBatch>* m_watcher = nullptr;
    std::shared_ptr<core::SweepResult> m_pending; ///< written by the worker, read once it finished
    std::shared_ptr<QString> m_error;
    core::SweepResult m_lastResult;
    quint64 m_revision = 0;
};

} // namespace clusterplanner::ui

Q_DECLARE_METATYPE(clusterplanner::ui::LayoutBatch)
