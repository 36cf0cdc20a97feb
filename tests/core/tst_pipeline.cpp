// SPDX-License-Identifier: GPL-3.0-or-later
// Pipeline schedules against docs/methods-time.md §4.4 (every row) and closed form against the event replay.
#include "core/perf/pipeline.h"

#include <QTest>

#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

using namespace clusterplanner::core;
using namespace clusterplanner::core::perf;

namespace {

PipelineParams params(PipelineSchedule schedule, int p, int m, int v, double f, double b, double w)
{
    return PipelineParams {schedule, p, m, v, f, b, w};
}

} // namespace

class TestPipeline : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void referenceMakespans_data()
    {
        QTest::addColumn<int>("schedule");
        QTest::addColumn<int>("p");
        QTest::addColumn<int>("m");
        QTest::addColumn<int>("v");
        QTest::addColumn<double>("f");
        QTest::addColumn<double>("b");
        QTest::addColumn<double>("w");
        QTest::addColumn<double>("makespan");
        QTest::addColumn<double>("rank0Peak");
        const int gpipe = int(PipelineSchedule::GPipe), ofob = int(PipelineSchedule::OneFOneB),
                  il = int(PipelineSchedule::Interleaved), zb = int(PipelineSchedule::ZbH1);
        // docs/methods-time.md §4.4 table, row by row (peaks: 1F1B rank 0 = min(p, m), interleaved as printed).
        QTest::newRow("4x8 111 gpipe") << gpipe << 4 << 8 << 1 << 1.0 << 1.0 << 1.0 << 33.0 << 8.0;
        QTest::newRow("4x8 111 1f1b") << ofob << 4 << 8 << 1 << 1.0 << 1.0 << 1.0 << 33.0 << 4.0;
        QTest::newRow("4x8 111 v2") << il << 4 << 8 << 2 << 1.0 << 1.0 << 1.0 << 28.5 << 5.5;
        QTest::newRow("4x8 111 v4") << il << 4 << 8 << 4 << 1.0 << 1.0 << 1.0 << 26.25 << 4.75;
        QTest::newRow("4x8 111 zb") << zb << 4 << 8 << 1 << 1.0 << 1.0 << 1.0 << 27.0 << 4.0;
        QTest::newRow("4x8 120 gpipe") << gpipe << 4 << 8 << 1 << 1.0 << 2.0 << 0.0 << 33.0 << 8.0;
        QTest::newRow("4x8 120 1f1b") << ofob << 4 << 8 << 1 << 1.0 << 2.0 << 0.0 << 33.0 << 4.0;
        QTest::newRow("4x8 120 v2") << il << 4 << 8 << 2 << 1.0 << 2.0 << 0.0 << 28.5 << 5.5;
        QTest::newRow("4x8 120 v4") << il << 4 << 8 << 4 << 1.0 << 2.0 << 0.0 << 26.25 << 4.75;
        QTest::newRow("8x32 111 1f1b") << ofob << 8 << 32 << 1 << 1.0 << 1.0 << 1.0 << 117.0 << 8.0;
        QTest::newRow("8x32 111 gpipe") << gpipe << 8 << 32 << 1 << 1.0 << 1.0 << 1.0 << 117.0 << 32.0;
        QTest::newRow("8x32 111 v2") << il << 8 << 32 << 2 << 1.0 << 1.0 << 1.0 << 106.5 << 11.5;
        QTest::newRow("8x32 111 v4") << il << 8 << 32 << 4 << 1.0 << 1.0 << 1.0 << 101.25 << 9.75;
        QTest::newRow("8x32 111 zb") << zb << 8 << 32 << 1 << 1.0 << 1.0 << 1.0 << 103.0 << 8.0;
        QTest::newRow("4x16 111 1f1b") << ofob << 4 << 16 << 1 << 1.0 << 1.0 << 1.0 << 57.0 << 4.0;
        QTest::newRow("4x16 111 v2") << il << 4 << 16 << 2 << 1.0 << 1.0 << 1.0 << 52.5 << 5.5;
        QTest::newRow("4x16 111 v4") << il << 4 << 16 << 4 << 1.0 << 1.0 << 1.0 << 50.25 << 4.75;
        QTest::newRow("4x16 111 zb") << zb << 4 << 16 << 1 << 1.0 << 1.0 << 1.0 << 51.0 << 4.0;
        QTest::newRow("8x16 120 1f1b") << ofob << 8 << 16 << 1 << 1.0 << 2.0 << 0.0 << 69.0 << 8.0;
        QTest::newRow("8x16 120 v2") << il << 8 << 16 << 2 << 1.0 << 2.0 << 0.0 << 58.5 << 11.5;
        QTest::newRow("8x16 120 v4") << il << 8 << 16 << 4 << 1.0 << 2.0 << 0.0 << 53.25 << 9.75;
    }

    void referenceMakespans()
    {
        QFETCH(int, schedule);
        QFETCH(int, p);
        QFETCH(int, m);
        QFETCH(int, v);
        QFETCH(double, f);
        QFETCH(double, b);
        QFETCH(double, w);
        QFETCH(double, makespan);
        QFETCH(double, rank0Peak);
        const auto pp = params(PipelineSchedule(schedule), p, m, v, f, b, w);
        const auto timeline = simulatePipeline(pp);
        QCOMPARE(timeline.summary.makespan, makespan);
        QCOMPARE(timeline.peakInFlight.front(), rank0Peak);
        QCOMPARE(pipelineSummary(pp).makespan, makespan);
    }

    void oneFOneBPeaksPerRank()
    {
        const auto timeline = simulatePipeline(params(PipelineSchedule::OneFOneB, 4, 8, 1, 1, 1, 1));
        QCOMPARE(timeline.peakInFlight, (std::vector<double> {4, 3, 2, 1}));
        // ZB-H1 keeps up to p micro-batches (until W) on every stage (docs/methods-memory.md §3.5).
        const auto zb = simulatePipeline(params(PipelineSchedule::ZbH1, 4, 8, 1, 1, 1, 1));
        QCOMPARE(zb.peakInFlight, (std::vector<double> {4, 4, 4, 4}));
    }

    void bubbleFractionFollowsFormula()
    {
        // (p−1)/m for 1F1B, (p−1)/(v·m) interleaved, (p−1)/(3m) ZB-H1 at equal times (docs/methods-time.md §4.4).
        QCOMPARE(pipelineSummary(params(PipelineSchedule::OneFOneB, 4, 8, 1, 1, 1, 1)).bubbleFraction, 3.0 / 8);
        QCOMPARE(pipelineSummary(params(PipelineSchedule::Interleaved, 4, 8, 2, 1, 1, 1)).bubbleFraction, 3.0 / 16);
        QCOMPARE(simulatePipeline(params(PipelineSchedule::ZbH1, 8, 32, 1, 1, 1, 1)).summary.bubbleFraction, 7.0 / 96);
        QCOMPARE(pipelineSummary(params(PipelineSchedule::OneFOneB, 4, 8, 1, 1, 1, 1)).bubbleRate, 3.0 / 11);
    }

    void everyOpRespectsDependencies()
    {
        const auto timeline = simulatePipeline(params(PipelineSchedule::Interleaved, 4, 8, 2, 1, 2, 0.5));
        QCOMPARE(int(timeline.ops.size()), 4 * 8 * 2 * 2);
        for (std::size_t i = 1; i < timeline.ops.size(); ++i) {
            const auto& a = timeline.ops[i - 1];
            const auto& b = timeline.ops[i];
            if (a.stage == b.stage)
                QVERIFY(b.start >= a.end - 1e-12); // a rank runs one op at a time
        }
        const auto zb = simulatePipeline(params(PipelineSchedule::ZbH1, 3, 5, 1, 1, 1, 1));
        QCOMPARE(int(zb.ops.size()), 3 * 5 * 3);
    }

    void summaryAgreesWithTimeline()
    {
        const PipelineSchedule schedules[] = {PipelineSchedule::GPipe, PipelineSchedule::OneFOneB,
            PipelineSchedule::Interleaved, PipelineSchedule::ZbH1, PipelineSchedule::DualPipe};
        const double times[][3] = {{1, 1, 1}, {1, 2, 0}, {1, 2, 1}, {2, 1, 1}, {1, 3, 2}, {1, 1, 3}, {0.7, 1.3, 0.4}};
        for (auto schedule : schedules)
            for (int p = 1; p <= 6; ++p)
                for (int m = 1; m <= 14; ++m)
                    for (int v = 1; v <= (schedule == PipelineSchedule::Interleaved ? 3 : 1); ++v)
                        for (const auto& t : times) {
                            const auto pp = params(schedule, p, m, v, t[0], t[1], t[2]);
                            if (schedule == PipelineSchedule::Interleaved && m % p != 0)
                                continue;
                            if (schedule == PipelineSchedule::DualPipe && !isSchedulable(pp))
                                continue; // odd PP, odd m or m < 2·PP
                            const auto full = simulatePipeline(pp);
                            const auto quick = pipelineSummary(pp);
                            QVERIFY2(qAbs(full.summary.makespan - quick.makespan) < 1e-9,
                                qPrintable(
                                    QString("schedule %1 p %2 m %3 v %4").arg(int(schedule)).arg(p).arg(m).arg(v)));
                            QCOMPARE(quick.worstPeakInFlight, full.summary.worstPeakInFlight);
                            for (int s = 0; s < p; ++s)
                                QCOMPARE(peakInFlight(pp, s), full.peakInFlight[s]);
                        }
    }

    void dualPipeRunsBothDirections()
    {
        // DeepSeek-V3's DualPipe (arXiv 2412.19437 §3.2.1): half the micro-batches enter at each end; every rank runs
        // one stage of each direction, m forwards and m backwards in all, and holds p + 1 micro-batches at its peak
        // (the report's Table 2).
        const int p = 8, m = 20;
        const auto timeline = simulatePipeline(params(PipelineSchedule::DualPipe, p, m, 1, 1, 2, 1));
        QCOMPARE(timeline.peakInFlight, std::vector<double>(p, p + 1.0));
        std::vector<int> forwards(p, 0), backwards(p, 0);
        for (const PipelineOp& op : timeline.ops) {
            forwards[op.stage] += op.kind == PipelineOpKind::Forward;
            backwards[op.stage] += op.kind == PipelineOpKind::Backward;
            // The first m/2 micro-batches enter at rank 0 (direction 0), the others at the last rank.
            QCOMPARE(op.chunk, op.microBatch < m / 2 ? 0 : 1);
        }
        QCOMPARE(forwards, std::vector<int>(p, m));
        QCOMPARE(backwards, std::vector<int>(p, m));
        // A micro-batch's forward reaches each rank after the one before it on its path, and its backward walks back.
        const auto finish = [&](int mb, int rank, PipelineOpKind kind) {
            for (const PipelineOp& op : timeline.ops)
                if (op.microBatch == mb && op.stage == rank && op.kind == kind)
                    return std::pair {op.start, op.end};
            return std::pair {-1.0, -1.0};
        };
        for (int r = 0; r + 1 < p; ++r) {
            QVERIFY(finish(0, r, PipelineOpKind::Forward).second <= finish(0, r + 1, PipelineOpKind::Forward).first);
            QVERIFY(finish(m - 1, r + 1, PipelineOpKind::Forward).second
                <= finish(m - 1, r, PipelineOpKind::Forward).first);
            QVERIFY(finish(0, r + 1, PipelineOpKind::Backward).second <= finish(0, r, PipelineOpKind::Backward).first);
        }
        // An overlapped pair starts once both its chunks have their inputs (DualPipe waits for both receives), and
        // the bubble is then the report's (p/2 − 1)(F&B + B_full − 3W), F&B = F + B + W, B_full = B + W, where W ≤ B;
        // below ZB-H1's (p − 1)(F + B − W) at equal times.
        for (const int stages : {4, 8, 16})
            for (const auto& [f, b, w] :
                {std::tuple {1.0, 1.0, 1.0}, std::tuple {1.0, 2.0, 1.0}, std::tuple {2.0, 3.0, 1.0}}) {
                const auto dual = pipelineSummary(params(PipelineSchedule::DualPipe, stages, 4 * stages, 1, f, b, w));
                const double published = (stages / 2 - 1) * ((f + b + w) + (b + w) - 3 * w);
                QVERIFY2(std::abs(dual.bubbleTime - published) < 1e-9,
                    qPrintable(QString("p %1: %2 vs %3").arg(stages).arg(dual.bubbleTime).arg(published)));
                const auto zb = pipelineSummary(params(PipelineSchedule::ZbH1, stages, 4 * stages, 1, f, b, w));
                QVERIFY(dual.bubbleTime < zb.bubbleTime);
            }
    }

    void largePipelineIsQuick()
    {
        const auto pp = params(PipelineSchedule::Interleaved, 64, 4096, 4, 1, 2, 0);
        QCOMPARE(pipelineSummary(pp).makespan, 4096 * 3.0 + 63 * 3.0 / 4);
        QCOMPARE(simulatePipeline(pp).summary.makespan, 4096 * 3.0 + 63 * 3.0 / 4);
    }

    void badCombinationsAreRejected()
    {
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument, validatePipeline(params(PipelineSchedule::Interleaved, 4, 6, 2, 1, 1, 1)));
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument, validatePipeline(params(PipelineSchedule::OneFOneB, 4, 8, 2, 1, 1, 1)));
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument, validatePipeline(params(PipelineSchedule::GPipe, 0, 8, 1, 1, 1, 1)));
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument, validatePipeline(params(PipelineSchedule::GPipe, 2, 8, 1, 0, 1, 1)));
        try {
            validatePipeline(params(PipelineSchedule::Interleaved, 4, 6, 2, 1, 1, 1));
        } catch (const std::invalid_argument& error) {
            QVERIFY(QString(error.what()).contains("divisible"));
        }
        // DualPipe: an even number of ranks, an even number of micro-batches and at least two per rank.
        for (const auto& [stages, microBatches] : {std::pair {3, 12}, std::pair {4, 6}, std::pair {4, 9}}) {
            const auto pp = params(PipelineSchedule::DualPipe, stages, microBatches, 1, 1, 1, 1);
            QVERIFY(!isSchedulable(pp));
            QVERIFY(QString::fromStdString(pipelineProblem(pp)).contains("DualPipe"));
        }
        QVERIFY(isSchedulable(params(PipelineSchedule::DualPipe, 4, 8, 1, 1, 1, 1)));
    }
};

QTEST_GUILESS_MAIN(TestPipeline)
#include "tst_pipeline.moc"
