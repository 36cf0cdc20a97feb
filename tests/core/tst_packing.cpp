// SPDX-License-Identifier: GPL-3.0-or-later
// Tests of fractional GPU packing in milli-GPU (docs/methods-test-values.md §11 item 24).
#include "core/queue/packing.h"

#include <QTest>

#include <numeric>
#include <stdexcept>

using namespace clusterplanner::core::queue;

namespace {

// docs/methods-test-values.md §11 item 24, in tenths of a GPU: 5, 7, 5, 2, 4, 2, 5, 1, 6 (sum 3.7).
const std::vector<int> kItems {500, 700, 500, 200, 400, 200, 500, 100, 600};

/// Every item is in a bin, fills add up, and no bin is over capacity.
void checkConsistent(const Packing& p, const std::vector<int>& items, int capacity)
{
    std::vector<int> fill(p.binFillMilli.size(), 0);
    for (std::size_t i = 0; i < items.size(); ++i)
        fill.at(static_cast<std::size_t>(p.binOfItem.at(i))) += items[i];
    QCOMPARE(fill, p.binFillMilli);
    for (int f : fill)
        QVERIFY(f <= capacity);
}

} // namespace

class TestPacking : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void firstFit()
    {
        const Packing p = packShares(kItems, PackingRule::FirstFit);
        QCOMPARE(p.binCount(), 5);
        QCOMPARE(p.binFillMilli, (std::vector<int> {1000, 1000, 600, 500, 600}));
        // Worked by hand: 5→0, 7→1, 5→0, 2→1, 4→2, 2→2, 5→3, 1→1, 6→4.
        QCOMPARE(p.binOfItem, (std::vector<int> {0, 1, 0, 1, 2, 2, 3, 1, 4}));
        checkConsistent(p, kItems, 1000);
    }

    void bestFit()
    {
        const Packing p = packShares(kItems, PackingRule::BestFit);
        QCOMPARE(p.binCount(), 5);
        // The 0.1 goes to the fullest bin with room (0.9), not the first.
        QCOMPARE(p.binOfItem.at(7), 1);
        checkConsistent(p, kItems, 1000);
    }

    void bestFitDiffersFromFirstFit()
    {
        // 0.5, 0.7, then 0.3: FF puts it in bin 0 (0.8), BF in bin 1 (1.0).
        const std::vector<int> items {500, 700, 300};
        QCOMPARE(packShares(items, PackingRule::FirstFit).binFillMilli, (std::vector<int> {800, 700}));
        QCOMPARE(packShares(items, PackingRule::BestFit).binFillMilli, (std::vector<int> {500, 1000}));
    }

    void firstFitDecreasingReachesOptimum()
    {
        const Packing p = packShares(kItems, PackingRule::FirstFitDecreasing);
        QCOMPARE(p.binCount(), 4); // = OPT: ⌈3.7⌉
        QCOMPARE(p.binFillMilli, (std::vector<int> {1000, 1000, 1000, 700}));
        checkConsistent(p, kItems, 1000);
    }

    void seedSharesNeedTwoGpus()
    {
        // Seed S3 claims 0.3 + 0.5 + 0.4 share one GPU; the sum is 1.2 (docs/methods-scheduling.md §7).
        for (auto rule : {PackingRule::FirstFit, PackingRule::BestFit, PackingRule::FirstFitDecreasing})
            QCOMPARE(packShares({300, 500, 400}, rule).binCount(), 2);
    }

    void emptyInputNeedsNoBins() { QCOMPARE(packShares({}, PackingRule::FirstFit).binCount(), 0); }

    void badItemsAreNamed()
    {
        try {
            packShares({500, 1200}, PackingRule::FirstFit);
            QFAIL("accepted 1.2 GPU as one share");
        } catch (const std::invalid_argument& error) {
            QCOMPARE(QString::fromUtf8(error.what()),
                QStringLiteral("packing: item 1 is 1200 milli-GPU; items must be in 1..1000"));
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, packShares({0}, PackingRule::BestFit));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, packShares({1}, PackingRule::BestFit, 0));
    }
};

QTEST_GUILESS_MAIN(TestPacking)
#include "tst_packing.moc"
