// SPDX-License-Identifier: GPL-3.0-or-later
// Tests of the M/M/c (Erlang C) solver against the docs/methods-queueing.md §6 table (60-digit mpmath values).
#include "core/queue/erlang.h"

#include <QTest>

#include <cmath>
#include <limits>
#include <stdexcept>

using namespace clusterplanner::core::queue;

namespace {

bool closeRelative(double actual, double expected, double tolerance)
{
    return std::abs(actual - expected) <= tolerance * std::abs(expected);
}

template <typename F>
QString invalidArgumentMessage(F&& call)
{
    try {
        call();
    } catch (const std::invalid_argument& error) {
        return QString::fromUtf8(error.what());
    }
    return {};
}

} // namespace

class TestErlang : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void referenceTable_data()
    {
        QTest::addColumn<qlonglong>("servers");
        QTest::addColumn<double>("lambda");
        QTest::addColumn<double>("mu");
        QTest::addColumn<double>("pWait");
        QTest::addColumn<double>("wq");
        QTest::addColumn<double>("lqPrinted");
        QTest::addColumn<double>("wPrinted");
        // docs/methods-queueing.md §6, every row; exact rationals where the table gives them.
        QTest::newRow("c1") << 1LL << 0.5 << 1.0 << 0.5 << 1.0 << 0.5 << 2.0;
        QTest::newRow("c2 l1") << 2LL << 1.0 << 1.0 << 1.0 / 3 << 1.0 / 3 << 0.333333333333 << 1.33333333333;
        QTest::newRow("c2 l1.5") << 2LL << 1.5 << 1.0 << 9.0 / 14 << 1.28571428571429 << 1.92857142857 << 2.28571428571;
        QTest::newRow("c3") << 3LL << 2.0 << 1.0 << 4.0 / 9 << 4.0 / 9 << 0.888888888889 << 1.44444444444;
        QTest::newRow("c5") << 5LL << 4.0 << 1.0 << 128.0 / 231 << 128.0 / 231 << 2.21645021645 << 1.55411255411;
        QTest::newRow("c8 mu1") << 8LL << 6.0 << 1.0 << 5832.0 / 16337 << 0.17849054293934 << 1.07094325764
                                << 1.17849054294;
        QTest::newRow("c8 mu0.5") << 8LL << 3.0 << 0.5 << 5832.0 / 16337 << 0.35698108587868 << 1.07094325764
                                  << 2.35698108588;
        QTest::newRow("c10 l8") << 10LL << 8.0 << 1.0 << 0.409180150796444 << 0.204590075398222 << 1.63672060319
                                << 1.2045900754;
        QTest::newRow("c10 l9") << 10LL << 9.0 << 1.0 << 0.668731524107697 << 0.668731524107697 << 6.01858371697
                                << 1.66873152411;
        QTest::newRow("c20") << 20LL << 15.0 << 1.0 << 0.160429387416924 << 0.0320858774833847 << 0.481288162251
                             << 1.03208587748;
        QTest::newRow("c50") << 50LL << 45.0 << 1.0 << 0.363864467206988 << 0.0727728934413977 << 3.27478020486
                             << 1.07277289344;
        QTest::newRow("c64") << 64LL << 60.0 << 1.0 << 0.506866270975763 << 0.126716567743941 << 7.60299406464
                             << 1.12671656774;
        QTest::newRow("c100 l90") << 100LL << 90.0 << 1.0 << 0.216940480906366 << 0.0216940480906366 << 1.95246432816
                                  << 1.02169404809;
        QTest::newRow("c100 l95") << 100LL << 95.0 << 1.0 << 0.506456853913021 << 0.101291370782604 << 9.62268022435
                                  << 1.10129137078;
        QTest::newRow("c100 l99") << 100LL << 99.0 << 1.0 << 0.882768462610084 << 0.882768462610084 << 87.3940777984
                                  << 1.88276846261;
        QTest::newRow("c512") << 512LL << 1500.0 << 3.0 << 0.482825063015191 << 0.0134118073059775 << 20.117710959
                              << 0.346745140639;
        QTest::newRow("c1000 l900") << 1000LL << 900.0 << 1.0 << 5.92669966378781e-4 << 5.92669966378781e-6
                                    << 0.00533402969741 << 1.0000059267;
        QTest::newRow("c1000 l950") << 1000LL << 950.0 << 1.0 << 0.0682534153771414 << 0.00136506830754283
                                    << 1.29681489217 << 1.00136506831;
        QTest::newRow("c1000 l990") << 1000LL << 990.0 << 1.0 << 0.659080421880854 << 0.0659080421880854
                                    << 65.2489617662 << 1.06590804219;
        QTest::newRow("c10000 l9500") << 10000LL << 9500.0 << 1.0 << 1.92854723186814e-7 << 3.85709446373629e-10
                                      << 3.66423974055e-6 << 1.00000000039;
        QTest::newRow("c10000 l9900") << 10000LL << 9900.0 << 1.0 << 0.222776928864148 << 0.00222776928864148
                                      << 22.0549159576 << 1.00222776929;
        QTest::newRow("c10000 l9990") << 10000LL << 9990.0 << 1.0 << 0.88054171137399 << 0.088054171137399
                                      << 879.661169663 << 1.08805417114;
    }

    void referenceTable()
    {
        QFETCH(qlonglong, servers);
        QFETCH(double, lambda);
        QFETCH(double, mu);
        QFETCH(double, pWait);
        QFETCH(double, wq);
        QFETCH(double, lqPrinted);
        QFETCH(double, wPrinted);
        const MmcResult r = solveMmc(lambda, mu, servers);
        QVERIFY(r.stable);
        QVERIFY2(closeRelative(r.pWait, pWait, 1e-12), qPrintable(QString::number(r.pWait, 'g', 17)));
        QVERIFY2(closeRelative(r.wq, wq, 1e-12), qPrintable(QString::number(r.wq, 'g', 17)));
        // Lq and W from the table's full-precision Wq (Little's law), to 1e-12 ...
        QVERIFY(closeRelative(r.lq, lambda * wq, 1e-12));
        QVERIFY(closeRelative(r.w, wq + 1 / mu, 1e-12));
        QVERIFY(closeRelative(r.l, lambda * (wq + 1 / mu), 1e-12));
        // ... and against the printed columns, which carry 12 significant digits.
        QVERIFY(closeRelative(r.lq, lqPrinted, 5e-11));
        QVERIFY(closeRelative(r.w, wPrinted, 5e-11));
        QVERIFY(closeRelative(r.utilization, lambda / mu / static_cast<double>(servers), 1e-15));
    }

    void extremes_data()
    {
        QTest::addColumn<qlonglong>("servers");
        QTest::addColumn<double>("load");
        QTest::addColumn<double>("pWait");
        QTest::newRow("1000, 500") << 1000LL << 500.0 << 3.30483025550268e-86;
        QTest::newRow("10000, 8000") << 10000LL << 8000.0 << 6.14766476190217e-103;
        QTest::newRow("100000, 99000") << 100000LL << 99000.0 << 8.21908237410795e-4;
        QTest::newRow("100000, 99900") << 100000LL << 99900.0 << 0.657993511795303;
    }

    void extremes()
    {
        QFETCH(qlonglong, servers);
        QFETCH(double, load);
        QFETCH(double, pWait);
        const double c = erlangC(load, servers);
        QVERIFY2(closeRelative(c, pWait, 1e-12), qPrintable(QString::number(c, 'g', 17)));
    }

    void underflowIsZeroNotNan()
    {
        // (10000, 5000): the true value 1.187e-841 is below the smallest double.
        const double c = erlangC(5000, 10000);
        QVERIFY(c >= 0);
        QVERIFY(c < 1e-300);
    }

    void tailProbability()
    {
        const MmcResult r = solveMmc(8, 1, 10);
        QVERIFY(closeRelative(probabilityWaitExceeds(r, 0.5), 0.150528965213442, 1e-12));
        QCOMPARE(probabilityWaitExceeds(r, 0), r.pWait);
    }

    void singleServerGivesRho_data()
    {
        QTest::addColumn<double>("rho");
        for (double rho : {0.01, 0.3, 0.5, 0.9, 0.999})
            QTest::newRow(qPrintable(QString::number(rho))) << rho;
    }

    void singleServerGivesRho()
    {
        QFETCH(double, rho);
        QVERIFY(closeRelative(erlangC(rho, 1), rho, 1e-14));
        QVERIFY(closeRelative(erlangC(2 * rho, 2), 2 * rho * rho / (1 + rho), 1e-14));
    }

    void unstableIsFlagged()
    {
        for (double lambda : {10.0, 12.5}) {
            const MmcResult r = solveMmc(lambda, 1, 10);
            QVERIFY(!r.stable);
            QCOMPARE(r.pWait, 1.0);
            QVERIFY(std::isinf(r.wq) && r.wq > 0);
            QVERIFY(std::isinf(r.l));
            QCOMPARE(probabilityWaitExceeds(r, 3), 1.0);
        }
    }

    void staffingForWaitProbability()
    {
        // docs/methods-queueing.md §6: a = 90, C ≤ 0.2 → 101 servers (C = 0.1807); 100 gives 0.2169.
        QCOMPARE(serversForWaitProbability(90, 1, 0.2), 101LL);
        QVERIFY(std::abs(erlangC(90, 101) - 0.1807) < 5e-5);
        // The same from a start far away: the result must be the smallest c meeting the target.
        for (double target : {0.9, 0.5, 0.05, 1e-3, 1e-9}) {
            const long long c = serversForWaitProbability(900, 1, target);
            QVERIFY(erlangC(900, c) <= target);
            QVERIFY(c == 901 || erlangC(900, c - 1) > target);
        }
    }

    void staffingForMeanWait()
    {
        // Table rows: c = 100, λ = 90 has Wq = 0.0217; c = 99 must be above 0.025 for 100 to be the answer.
        const long long c = serversForMeanWait(90, 1, 0.025);
        QVERIFY(solveMmc(90, 1, c).wq <= 0.025);
        QVERIFY(solveMmc(90, 1, c - 1).wq > 0.025);
        QCOMPARE(c, 100LL);
        QCOMPARE(serversForMeanWait(0.5, 1, 10.0), 1LL);
    }

    void allenCunneenScalesWait()
    {
        const MmcResult base = solveMmc(8, 1, 10);
        const MmcResult same = allenCunneen(base, 1, 1);
        QCOMPARE(same.wq, base.wq);
        const MmcResult heavy = allenCunneen(base, 1, 4); // e.g. hyper-exponential job times
        QVERIFY(closeRelative(heavy.wq, base.wq * 2.5, 1e-15));
        QVERIFY(closeRelative(heavy.lq, 8 * base.wq * 2.5, 1e-15));
        QCOMPARE(heavy.pWait, base.pWait);
        QVERIFY(std::isinf(allenCunneen(solveMmc(20, 1, 10), 0, 0).wq));
    }

    void badInputIsNamed()
    {
        QCOMPARE(invalidArgumentMessage([] { solveMmc(0, 1, 1); }),
            QStringLiteral("M/M/c: arrival rate must be a finite number > 0 (got 0)"));
        QCOMPARE(invalidArgumentMessage([] { solveMmc(1, -2, 1); }),
            QStringLiteral("M/M/c: service rate must be a finite number > 0 (got -2)"));
        QCOMPARE(invalidArgumentMessage([] { solveMmc(1, 1, 0); }),
            QStringLiteral("M/M/c: servers must be at least 1 (got 0)"));
        QVERIFY(invalidArgumentMessage([] {
            solveMmc(std::numeric_limits<double>::quiet_NaN(), 1, 1);
        }).contains(QStringLiteral("arrival rate")));
        QVERIFY(
            invalidArgumentMessage([] { serversForWaitProbability(1, 1, 1.0); }).contains(QStringLiteral("target")));
        QVERIFY(invalidArgumentMessage([] {
            probabilityWaitExceeds(solveMmc(1, 2, 1), -1);
        }).contains(QStringLiteral("wait time")));
    }
};

QTEST_GUILESS_MAIN(TestErlang)
#include "tst_erlang.moc"
