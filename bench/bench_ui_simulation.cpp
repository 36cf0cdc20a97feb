// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmark: the shared-cluster panels on 100,000 synthetic jobs and 10,000 H100 (data/scenarios/
// synthetic-10k-gpus.cplan.json): time from loading the scenario until the utilisation heatmap and the job Gantt
// chart are drawn (target ≤ 3 s), the longest GUI-thread stall meanwhile (target ≤ 50 ms), and the cost of a
// redraw (zoom). Runs off-screen; an optional argument names another scenario. Repeats 3 times.
#include "ui/document/scenariodocument.h"
#include "ui/panels/jobspanel.h"
#include "ui/panels/utilizationpanel.h"
#include "ui/sim/jobganttview.h"
#include "ui/sim/simulationsession.h"
#include "ui/sim/utilizationview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTimer>

#include <iostream>

using namespace clusterplanner::ui;

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", qgetenv("QT_QPA_PLATFORM").isEmpty() ? "offscreen" : qgetenv("QT_QPA_PLATFORM"));
    QApplication app(argc, argv);
    const QString path = argc > 1 ? QString::fromLocal8Bit(argv[1])
                                  : QStringLiteral(CLUSTERPLANNER_DATA_DIR "/scenarios/synthetic-10k-gpus.cplan.json");
    for (int repeat = 0; repeat < 3; ++repeat) {
        ScenarioDocument document;
        auto* session = SimulationSession::of(&document);
        session->waitUntilIdle(60000);
        // Handlers run in connection order: one before the panels' and one after them time the panels' redraw.
        QElapsedTimer handlers;
        qint64 handlersMs = 0;
        QObject::connect(session, &SimulationSession::dataChanged, [&] { handlers.start(); });
        UtilizationPanel heatmap(&document);
        JobsPanel jobs(&document);
        heatmap.resize(1600, 700);
        jobs.resize(1600, 700);
        heatmap.show();
        jobs.show();
        QCoreApplication::processEvents();

        QElapsedTimer clock;
        qint64 last = 0, longestStallMs = 0, drawMs = 0;
        QTimer heartbeat;
        heartbeat.setInterval(2);
        QObject::connect(&heartbeat, &QTimer::timeout, [&] {
            const qint64 now = clock.elapsed();
            longestStallMs = std::max(longestStallMs, now - last);
            last = now;
        });
        bool done = false;
        QObject::connect(session, &SimulationSession::dataChanged, [&] {
            handlersMs = handlers.elapsed();
            done = true;
        });
        clock.start();
        heartbeat.start();
        QElapsedTimer loading;
        loading.start();
        const QString error = document.load(path);
        const qint64 loadMs = loading.elapsed();
        if (!error.isEmpty()) {
            std::cerr << error.toStdString() << "\n";
            return 1;
        }
        while (!done && !session->error().size())
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
        if (!session->error().isEmpty()) {
            std::cerr << session->error().toStdString() << "\n";
            return 1;
        }
        // Large runs are binned and drawn in pool threads after the data arrives.
        while (heatmap.view()->isRendering() || jobs.gantt()->isRendering())
            QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        QElapsedTimer paint;
        paint.start();
        heatmap.repaint();
        jobs.repaint();
        drawMs = paint.elapsed();
        const qint64 totalMs = clock.elapsed();
        for (int i = 0; i < 5; ++i) // a few more beats after the draw
            QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        QElapsedTimer zoom;
        zoom.start();
        const auto [from, to] = heatmap.view()->timeWindow();
        heatmap.view()->setTimeWindow(from, from + (to - from) / 4);
        while (heatmap.view()->isRendering())
            QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        heatmap.view()->repaint();
        const qint64 zoomMs = zoom.elapsed();
        const auto& m = session->data()->outcome->metrics;
        std::cout << "jobs " << m.jobs << "  gpus " << session->data()->cluster.gpuCount() << "  simulate_and_draw_ms "
                  << totalMs << "  final_paint_ms " << drawMs << "  longest_gui_stall_ms " << longestStallMs
                  << "  load_ms " << loadMs << "  panel_update_ms " << handlersMs << "  zoom_redraw_ms " << zoomMs
                  << "  heatmap_rows " << heatmap.view()->shownMatrix().rows << "  gantt_jobs "
                  << jobs.gantt()->shownJobs().size() << std::endl;
    }
    return 0;
}
