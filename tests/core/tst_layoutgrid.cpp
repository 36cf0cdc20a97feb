// SPDX-License-Identifier: GPL-3.0-or-later
// Sweep results on two layout axes: the best fitting layout per cell, counts, problems and the fixed filter.
#include "core/evaluation/layoutgrid.h"
#include "core/model/layoutcheck.h"

#include <QTest>

using namespace clusterplanner::core;

namespace {

LayoutResult result(int tp, int pp, int microBatch, double tokensPerGpu, bool fits = true)
{
    LayoutResult r;
    r.candidate.layout = ParallelLayout {64 / (tp * pp), tp, pp, 1, 1, 1, true};
    r.candidate.microBatch = microBatch;
    r.valid = true;
    r.fits = fits;
    r.tokensPerSPerGpu = tokensPerGpu;
    r.peakMemoryGiB = 10.0 * microBatch;
    r.capacityGiB = 75;
    return r;
}

LayoutResult invalid(int tp, int pp, LayoutProblem problem)
{
    LayoutResult r = result(tp, pp, 1, 0);
    r.valid = false;
    r.problems = static_cast<std::uint32_t>(problem);
    return r;
}

} // namespace

class TestLayoutGrid : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void bestFittingLayoutPerCell()
    {
        LayoutGrid grid;
        grid.configure(LayoutAxis::Tp, LayoutAxis::Pp, GridMetric::TokensPerGpu, std::nullopt);
        const std::vector<LayoutResult> results {result(8, 1, 1, 1000), result(8, 1, 2, 1200),
            result(8, 1, 4, 5000, false), result(4, 2, 1, 900), invalid(2, 2, LayoutProblem::TpHeads),
            invalid(2, 2, LayoutProblem::GlobalBatch)};
        grid.add(results);
        QVERIFY(grid.xValues() == (std::vector<int> {2, 4, 8}));
        QVERIFY(grid.yValues() == (std::vector<int> {1, 2}));
        const GridCell* cell = grid.cell(8, 1);
        QVERIFY(cell && cell->best);
        QCOMPARE(cell->best->candidate.microBatch, 2); // 5000 does not fit
        QCOMPARE(cell->evaluated, 3);
        QCOMPARE(cell->valid, 3);
        QCOMPARE(cell->smallestPeakGiB, 10.0);
        const GridCell* bad = grid.cell(2, 2);
        QVERIFY(bad && !bad->best && bad->valid == 0);
        QCOMPARE(bad->problems,
            static_cast<std::uint32_t>(LayoutProblem::TpHeads)
                | static_cast<std::uint32_t>(LayoutProblem::GlobalBatch));
        QVERIFY(grid.cell(2, 1) == nullptr);
    }

    void lowerIsBetterForStepTime()
    {
        LayoutGrid grid;
        grid.configure(LayoutAxis::Tp, LayoutAxis::MicroBatch, GridMetric::StepTime, std::nullopt);
        LayoutResult slow = result(8, 1, 1, 0), fast = result(8, 1, 1, 0);
        slow.stepTimeS = 2;
        fast.stepTimeS = 1;
        fast.candidate.recompute = Recompute::Full;
        grid.add(std::vector<LayoutResult> {slow, fast});
        QCOMPARE(grid.cell(8, 1)->best->stepTimeS, 1.0);
        QVERIFY(!higherIsBetter(GridMetric::StepTime) && higherIsBetter(GridMetric::Headroom));
        QCOMPARE(metricValue(fast, GridMetric::Headroom), 65.0);
    }

    void fixedDimensionsFilter()
    {
        LayoutGrid grid;
        LayoutCandidate fixed = result(8, 1, 1, 0).candidate;
        grid.configure(LayoutAxis::Tp, LayoutAxis::Pp, GridMetric::TokensPerGpu, fixed);
        LayoutResult otherMicroBatch = result(4, 2, 2, 100);
        grid.add(std::vector<LayoutResult> {result(4, 2, 1, 100), otherMicroBatch});
        QCOMPARE(grid.cell(4, 2)->evaluated, 1); // micro-batch is not an axis: it must match the fixed layout
        grid.configure(LayoutAxis::Tp, LayoutAxis::MicroBatch, GridMetric::TokensPerGpu, fixed);
        QVERIFY(grid.xValues().empty()); // configure clears
    }
};

QTEST_GUILESS_MAIN(TestLayoutGrid)
#include "tst_layoutgrid.moc"
