// SPDX-License-Identifier: GPL-3.0-or-later
// Runs core::probe::runBenchmarks off the GUI thread with progress and cancel (the SweepRunner pattern).
#pragma once

#include "core/probe/microbench.h"

#include <QFutureWatcher>
#include <QObject>

#include <memory>
#include <stop_token>
#include <vector>

namespace clusterplanner::ui {

using BenchResults = std::vector<core::probe::BenchResult>;

class MachineBenchRunner : public QObject
{
    Q_OBJECT
public:
    explicit MachineBenchRunner(QObject* parent = nullptr);
    ~MachineBenchRunner() override;

    /// Copies what it needs; does nothing while a run is under way.
    void start(const core::probe::ProbeOptions& options, const core::probe::ProbeResult& probed);
    /// Asks the run to stop after the benchmark in progress.
    void cancel();
    bool isRunning() const;

Q_SIGNALS:
    /// 0–1000, and the name of the benchmark now running.
    void progress(int permille, const QString& running);
    void finished(const clusterplanner::ui::BenchResults& results, bool cancelled);

private:
    QFutureWatcher<BenchResults>* m_watcher;
    std::stop_source m_stop;
};

} // namespace clusterplanner::ui
Q_DECLARE_METATYPE(clusterplanner::ui::BenchResults)
