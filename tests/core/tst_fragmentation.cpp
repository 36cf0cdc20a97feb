// SPDX-License-Identifier: GPL-3.0-or-later
// Tests of imbalance, fragmentation, fairness and percentiles (docs/methods-test-values.md §11 items 23, 25, 26, 27).
#include "core/queue/fragmentation.h"

#include <QTest>

#include <cmath>
#include <stdexcept>

using namespace clusterplanner::core::queue;

class TestFragmentation : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void jain_data()
    {
        QTest::addColumn<std::vector<double>>("shares");
        QTest::addColumn<double>("expected");
        QTest::newRow("equal") << std::vector<double> {1, 1, 1, 1} << 1.0;
        QTest::newRow("one user") << std::vector<double> {1, 0, 0, 0} << 0.25;
        QTest::newRow("1..4") << std::vector<double> {1, 2, 3, 4} << 100.0 / 120; // 0.8333
        QTest::newRow("all zero") << std::vector<double> {0, 0} << 1.0;
    }

    void jain()
    {
        QFETCH(std::vector<double>, shares);
        QFETCH(double, expected);
        QCOMPARE(jainFairness(shares), expected);
    }

    void imbalanceUsesPopulationStd()
    {
        // docs/methods-test-values.md §11 item 25: stds 0.306186, 0, 0.279508 → mean 0.19523.
        UtilizationMatrix u;
        u.rows = {{1, .5, .25, .25}, {.5, .5, .5, .5}, {.75, .25, .5, 0}};
        const double expected = (std::sqrt(0.09375) + 0 + std::sqrt(0.078125)) / 3;
        QVERIFY(std::abs(imbalance(u) - expected) < 1e-15);
        QVERIFY(std::abs(imbalance(u) - 0.19523) < 5e-6);
        QCOMPARE(imbalance(UtilizationMatrix {}), 0.0);
    }

    void matrixFromUsedAndTotal()
    {
        UtilizationMatrix u;
        u.addNode({8, 320, 28, 0}, {8, 640, 112, 400});
        u.addNode({2, 640, 56, 0}, {8, 640, 112, 0});
        QCOMPARE(u.rows.at(0), (UtilizationRow {1, .5, .25, 0}));
        QCOMPARE(u.rows.at(1).at(3), 0.0); // no bandwidth on the node: counted as unused
        QCOMPARE(u.meanOf(Resource::Gpu), 0.625);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, u.addNode({9, 0, 0, 0}, {8, 1, 1, 1}));
    }

    void gpuFragmentation()
    {
        // docs/methods-test-values.md §11 item 26: free (3, 1, 0, 2), smallest request 2 → only node 1's GPU is
        // stranded: 1/6.
        QCOMPARE(gpuFragmentationIndex({3, 1, 0, 2}, {2, 4}), 1.0 / 6);
        QCOMPARE(gpuFragmentationIndex({3, 1, 0, 2}, {1}), 0.0);
        QCOMPARE(gpuFragmentationIndex({3, 1, 0, 2}, {8}), 1.0);
        QCOMPARE(gpuFragmentationIndex({3, 1}, {}), 0.0);
        QCOMPARE(gpuFragmentationIndex({0, 0}, {1}), 0.0);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, gpuFragmentationIndex({-1}, {1}));
    }

    void memoryFragmentationFromBlocks()
    {
        QCOMPARE(memoryFragmentation({4, 2, 2}), 0.5); // docs/methods-test-values.md §11 item 27
        QCOMPARE(memoryFragmentation({8}), 0.0);
        QCOMPARE(memoryFragmentation({}), 0.0);
    }

    void timeFragmentationCountsGaps()
    {
        // docs/methods-test-values.md §11 item 27: gaps 2 + 5 = 7 over 30.
        QCOMPARE(timeFragmentation({{0, 10}, {12, 20}, {25, 30}}, 30), 7.0 / 30);
        QCOMPARE(timeFragmentation({{25, 30}, {0, 10}, {12, 20}}, 30), 7.0 / 30); // order does not matter
        QCOMPARE(timeFragmentation({{0, 10}, {5, 20}, {22, 30}}, 30), 2.0 / 30); // overlap is not a gap
        QCOMPARE(timeFragmentation({{0, 30}, {5, 10}, {12, 20}}, 30), 0.0); // nested tasks
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, timeFragmentation({{5, 1}}, 30));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, timeFragmentation({}, 0));
    }

    void percentiles()
    {
        // Type 7: position (n − 1)·p; for 1..10, p90 sits at 8.1 → 9.1; p50 at 4.5 → 5.5.
        const std::vector<double> values {10, 1, 9, 2, 8, 3, 7, 4, 6, 5};
        QCOMPARE(percentile(values, 50), 5.5);
        QVERIFY(std::abs(percentile(values, 90) - 9.1) < 1e-12);
        QVERIFY(std::abs(percentile(values, 99) - 9.91) < 1e-12);
        QCOMPARE(percentile(values, 0), 1.0);
        QCOMPARE(percentile(values, 100), 10.0);
        QCOMPARE(percentile({42}, 99), 42.0);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, percentile({}, 50));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, percentile({1}, 101));
    }
};

QTEST_GUILESS_MAIN(TestFragmentation)
#include "tst_fragmentation.moc"
