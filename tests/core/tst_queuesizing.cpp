// SPDX-License-Identifier: GPL-3.0-or-later
// Queue sizing of a GPU pool: the Erlang C curve over cluster GPUs and the smallest cluster meeting a mean wait.
#include "core/queue/queuesizing.h"

#include <QTest>

#include <cmath>
#include <stdexcept>

using namespace clusterplanner::core::queue;

class TestQueueSizing : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void matchesTheErlangTable()
    {
        // docs/methods-queueing.md §6 table: c = 10, λ = 8, μ = 1 gives C = 0.409180150796444, Wq = 0.2046.
        // Here: 8 jobs per hour of 1 h on 4-GPU jobs, so 40 GPUs are 10 servers.
        const QueueSizingInput input {8, 4, 3600, 600};
        const QueueCurvePoint p = queueAt(input, 40);
        QCOMPARE(p.servers, 10LL);
        QVERIFY(std::abs(p.pWait - 0.409180150796444) < 1e-12);
        QVERIFY(std::abs(p.meanWaitS - 0.204590075398222 * 3600) < 1e-6);
        QVERIFY(std::isinf(queueAt(input, 32).meanWaitS)); // 8 servers for 8 Erlangs: unstable
    }

    void targetIsTheSmallestClusterMeetingIt()
    {
        const QueueSizingInput input {8, 4, 3600, 600};
        const QueueSizing s = sizeQueue(input);
        QCOMPARE(s.offeredLoadErlangs, 8.0);
        QVERIFY(s.atTarget.wq * 1.0 <= 600);
        QVERIFY(queueAt(input, s.gpusForTarget).meanWaitS <= 600);
        QVERIFY(queueAt(input, s.gpusForTarget - 4).meanWaitS > 600);
        QCOMPARE(s.gpusForTarget, s.serversForTarget * 4);
        // The curve falls: more GPUs never wait longer.
        for (std::size_t i = 1; i < s.curve.size(); ++i)
            QVERIFY(s.curve[i].meanWaitS <= s.curve[i - 1].meanWaitS);
        QVERIFY(s.curve.front().servers == 9);
    }

    void badInputIsNamed()
    {
        try {
            sizeQueue({8, 0, 3600, 600});
            QFAIL("accepted 0 GPUs per job");
        } catch (const std::invalid_argument& error) {
            QVERIFY(std::string(error.what()).find("mean GPUs per job") != std::string::npos);
        }
    }
};

QTEST_APPLESS_MAIN(TestQueueSizing)
#include "tst_queuesizing.moc"
