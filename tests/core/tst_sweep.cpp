// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/modelpresets.h"
#include "core/sweep/layoutevaluator.h"
#include "core/sweep/sweep.h"

#include <QTest>

#include <algorithm>
#include <numeric>
#include <random>
#include <set>
#include <stdexcept>
#include <tuple>

using namespace clusterplanner::core;

namespace {

Scenario gpt3On1024()
{
    Scenario s = defaultScenario();
    s.model = gpt3Padded();
    s.cluster.gpuId = "A100-SXM-80GB";
    s.cluster.gpuCount = 1024;
    s.training.globalBatch = 1536;
    return s;
}

/// A made-up evaluator: throughput and memory are simple functions of the layout, so brute force can check.
class FakeEvaluator : public LayoutEvaluator
{
public:
    LayoutResult evaluate(const LayoutCandidate& c) const override
    {
        LayoutResult r;
        r.candidate = c;
        r.valid = c.layout.tp <= 8;
        r.problems = r.valid ? 0 : 1;
        r.capacityGiB = 80;
        r.peakMemoryGiB = 400.0 / (c.layout.tp * c.layout.pp) + 2.0 * c.microBatch;
        r.fits = r.peakMemoryGiB <= 80;
        r.tokensPerSPerGpu = 1000.0 / (1 + c.layout.pp * 0.1 + c.layout.tp * 0.05) + c.microBatch;
        r.costPerMTokensUsd = 1e6 / r.tokensPerSPerGpu;
        return r;
    }
};

/// Throws on one candidate, to check that a failing worker neither kills the process nor is lost.
class ThrowingEvaluator : public FakeEvaluator
{
public:
    LayoutResult evaluate(const LayoutCandidate& c) const override
    {
        if (c.layout.tp == 4 && c.layout.pp == 2 && c.microBatch == 2)
            throw std::runtime_error("evaluator broke");
        return FakeEvaluator::evaluate(c);
    }
};

Scenario smallSpace()
{
    Scenario s = gpt3On1024();
    s.cluster.gpuCount = 64;
    s.training.globalBatch = 256;
    return s;
}

/// The reference the streaming reducers must match: keep everything, stable-sort by score (equal scores keep
/// enumeration order), take the first n.
std::vector<LayoutResult> bruteForceTop(const std::vector<LayoutResult>& all, SweepObjective objective, int n)
{
    std::vector<LayoutResult> fitting;
    std::copy_if(all.begin(), all.end(), std::back_inserter(fitting), [](const auto& r) { return r.valid && r.fits; });
    std::stable_sort(fitting.begin(), fitting.end(),
        [&](const auto& a, const auto& b) { return sweepScore(a, objective) > sweepScore(b, objective); });
    fitting.resize(std::min<std::size_t>(fitting.size(), std::size_t(n)));
    return fitting;
}

/// Every fitting result that no other beats in headroom and throughput (of exact duplicates, the first), by
/// pairwise comparison: quadratic, written from the definition rather than from the reducer.
std::vector<LayoutResult> bruteForceFront(const std::vector<LayoutResult>& all)
{
    std::vector<LayoutResult> front;
    for (std::size_t i = 0; i < all.size(); ++i) {
        const auto& r = all[i];
        bool beaten = !(r.valid && r.fits);
        for (std::size_t j = 0; j < all.size() && !beaten; ++j) {
            const auto& q = all[j];
            const bool atLeast = q.headroomGiB() >= r.headroomGiB() && q.tokensPerSPerGpu >= r.tokensPerSPerGpu;
            const bool strictly = q.headroomGiB() > r.headroomGiB() || q.tokensPerSPerGpu > r.tokensPerSPerGpu;
            beaten = j != i && q.valid && q.fits && atLeast && (strictly || j < i);
        }
        if (!beaten)
            front.push_back(r);
    }
    std::sort(
        front.begin(), front.end(), [](const auto& a, const auto& b) { return a.headroomGiB() > b.headroomGiB(); });
    return front;
}

bool sameCandidates(const std::vector<LayoutResult>& a, const std::vector<LayoutResult>& b)
{
    return std::equal(a.begin(), a.end(), b.begin(), b.end(),
        [](const auto& x, const auto& y) { return x.candidate == y.candidate; });
}

} // namespace

class TestSweep : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void factoringsOfAPowerOfTwo()
    {
        // docs/methods-search.md §5 / §11 item 20: 1,024 GPUs have 286 ordered (t, cp, p, d); 202 with t <= 8.
        Scenario s = gpt3On1024();
        s.model.layers = 1024; // no stage limit
        s.training.globalBatch = 1024;
        SweepConstraints c;
        c.microBatch = 1;
        c.virtualStages = 1;
        c.recompute = Recompute::None;
        c.zeroStage = 0;
        c.schedule = PipelineSchedule::OneFOneB;
        c.rankOrder = RankOrdering::TpCpEpDpPp; // the reference counts factorings, not orders
        c.maxTp = 1024;
        QCOMPARE(enumerateLayouts(s, c).size(), std::size_t(286));
        c.maxTp = 8;
        QCOMPARE(enumerateLayouts(s, c).size(), std::size_t(202));
    }

    void gpt3LayoutCount()
    {
        // §11 item 21: cp 1, t <= 8, L % p == 0, B % d == 0 -> 23 (t, p, d); 192 with b | B/d.
        SweepConstraints c;
        c.cp = 1;
        c.maxTp = 8;
        c.maxMicroBatch = 1 << 20;
        c.virtualStages = 1;
        c.recompute = Recompute::None;
        c.zeroStage = 0;
        c.schedule = PipelineSchedule::OneFOneB;
        c.rankOrder = RankOrdering::TpCpEpDpPp;
        std::set<std::tuple<int, int, int>> triples;
        int withMicroBatch = 0;
        for (const auto& candidate : enumerateLayouts(gpt3On1024(), c)) {
            if (96 % candidate.layout.pp != 0)
                continue;
            triples.insert({candidate.layout.tp, candidate.layout.pp, candidate.layout.dp});
            ++withMicroBatch;
        }
        QCOMPARE(triples.size(), std::size_t(23));
        QCOMPARE(withMicroBatch, 192);
        QVERIFY(!triples.count({1, 1, 1024})); // 1536 % 1024 != 0
    }

    void bothRankOrdersOnlyWhereDpAndPpExist()
    {
        SweepConstraints c;
        c.cp = 1;
        c.microBatch = 1;
        c.virtualStages = 1;
        c.recompute = Recompute::None;
        c.zeroStage = 0;
        c.schedule = PipelineSchedule::OneFOneB;
        int dpBeforePp = 0, ppBeforeDp = 0;
        for (const auto& candidate : enumerateLayouts(gpt3On1024(), c)) {
            const auto& l = candidate.layout;
            (l.rankOrder == RankOrdering::TpCpEpDpPp ? dpBeforePp : ppBeforeDp) += 1;
            if (l.dp == 1 || l.pp == 1)
                QCOMPARE(l.rankOrder, RankOrdering::TpCpEpDpPp); // the order changes nothing there
        }
        QVERIFY(ppBeforeDp > 0 && dpBeforePp > ppBeforeDp);
    }

    void moduleRecomputeIsOfferedForMoeModelsOfFrameworksThatHaveIt()
    {
        // Megatron-Core's module list touches MoE layers and MLA's up-projections: a dense model without MLA never
        // gets it (the rows would repeat "none"), a Megatron MoE model does, and a framework without it (TorchTitan)
        // never.
        SweepConstraints c;
        c.microBatch = 1;
        c.zeroStage = 1;
        auto offered = [&c](const Scenario& s) {
            std::set<Recompute> kinds;
            for (const auto& candidate : enumerateLayouts(s, c))
                kinds.insert(candidate.recompute);
            return kinds.count(Recompute::Modules) > 0;
        };
        Scenario dense = gpt3On1024();
        dense.training.framework = Framework::Megatron;
        QVERIFY(!offered(dense));
        // Multi-head latent attention has a module of its own, its up-projections: a dense MLA model gets the mode.
        Scenario latent = dense;
        latent.model.mla = MlaConfig {512, 1536, 128, 64, 128};
        QVERIFY(offered(latent));
        Scenario moe = dense;
        moe.model = modelPreset("Mixtral 8x7B");
        QVERIFY(offered(moe));
        moe.training.framework = Framework::TorchTitan;
        QVERIFY(!offered(moe));
    }

    void fixedDimensionsAreRespected()
    {
        SweepConstraints c;
        c.tp = 8;
        c.recompute = Recompute::Full;
        const auto candidates = enumerateLayouts(gpt3On1024(), c);
        QVERIFY(!candidates.empty());
        for (const auto& candidate : candidates) {
            QCOMPARE(candidate.layout.tp, 8);
            QCOMPARE(candidate.recompute, Recompute::Full);
            QCOMPARE(candidate.layout.gpuCount(), 1024);
        }
    }

    void topAndParetoMatchBruteForce()
    {
        SweepSpec spec;
        spec.constraints.maxMicroBatch = 4;
        spec.topCount = 5;
        spec.threads = 2;
        const Scenario s = gpt3On1024();
        const auto result = runSweep(s, spec, FakeEvaluator());
        const auto candidates = enumerateLayouts(s, spec.constraints);
        QCOMPARE(result.summary.evaluated, static_cast<long long>(candidates.size()));
        double best = 0;
        long long fitting = 0;
        std::vector<LayoutResult> all;
        for (const auto& candidate : candidates) {
            const auto r = FakeEvaluator().evaluate(candidate);
            all.push_back(r);
            if (r.valid && r.fits) {
                ++fitting;
                best = std::max(best, r.tokensPerSPerGpu);
            }
        }
        QCOMPARE(result.summary.fitting, fitting);
        QCOMPARE(result.top.front().tokensPerSPerGpu, best);
        for (std::size_t i = 1; i < result.top.size(); ++i)
            QVERIFY(result.top[i - 1].tokensPerSPerGpu >= result.top[i].tokensPerSPerGpu);
        // No fitting layout dominates a front member.
        for (const auto& member : result.pareto)
            for (const auto& r : all)
                QVERIFY(!(r.valid && r.fits && r.headroomGiB() > member.headroomGiB()
                    && r.tokensPerSPerGpu > member.tokensPerSPerGpu));
    }

    void streamsEveryResultOnce()
    {
        SweepSpec spec;
        spec.threads = 2;
        std::size_t streamed = 0;
        double lastFraction = 0;
        const auto result = runSweep(gpt3On1024(), spec, FakeEvaluator(), {}, [&](double fraction, auto batch) {
            streamed += batch.size();
            QVERIFY(fraction >= lastFraction);
            lastFraction = fraction;
        });
        QCOMPARE(static_cast<long long>(streamed), result.summary.evaluated);
        QCOMPARE(lastFraction, 1.0);
    }

    void cancellationStopsEarly()
    {
        SweepSpec spec;
        spec.threads = 1;
        spec.keepAll = true;
        std::stop_source stop;
        const auto result = runSweep(
            gpt3On1024(), spec, FakeEvaluator(), stop.get_token(), [&](double, auto) { stop.request_stop(); });
        QVERIFY(result.cancelled);
        QVERIFY(result.summary.evaluated > 0);
        QVERIFY(
            result.summary.evaluated < static_cast<long long>(enumerateLayouts(gpt3On1024(), spec.constraints).size()));
        QCOMPARE(static_cast<long long>(result.all.size()), result.summary.evaluated);
    }

    void streamingMatchesKeepingEverything_data()
    {
        QTest::addColumn<int>("threads");
        QTest::addColumn<int>("objective");
        for (int threads : {1, 2, 3})
            for (int objective : {0, 1, 2})
                QTest::addRow("%d threads, objective %d", threads, objective) << threads << objective;
    }

    void streamingMatchesKeepingEverything()
    {
        // The fake evaluator ignores recompute, ZeRO, schedule and rank order: many exact ties, so the
        // enumeration-order tie-break is exercised, with every thread count giving the same answer.
        QFETCH(int, threads);
        QFETCH(int, objective);
        SweepSpec spec;
        spec.threads = threads;
        spec.objective = SweepObjective(objective);
        spec.topCount = 50;
        spec.keepAll = true;
        const auto result = runSweep(smallSpace(), spec, FakeEvaluator());
        QVERIFY(result.all.size() > 2 * 2048); // more than one chunk per thread
        QVERIFY(sameCandidates(result.top, bruteForceTop(result.all, spec.objective, spec.topCount)));
        QVERIFY(sameCandidates(result.pareto, bruteForceFront(result.all)));
        QVERIFY(result.pareto.size() > 1);
    }

    void realEvaluatorMatchesKeepingEverything()
    {
        // The engine's own figures on a small space: top 20 and the front equal the keep-everything reference.
        const Scenario s = smallSpace();
        const TrainingLayoutEvaluator evaluator(s);
        SweepSpec spec;
        spec.threads = 2;
        spec.keepAll = true;
        const auto result = runSweep(s, spec, evaluator);
        QVERIFY(result.summary.fitting > spec.topCount);
        QVERIFY(sameCandidates(result.top, bruteForceTop(result.all, spec.objective, spec.topCount)));
        QVERIFY(sameCandidates(result.pareto, bruteForceFront(result.all)));
    }

    void reducerIgnoresArrivalOrderAndSplit()
    {
        std::vector<LayoutResult> all;
        for (const auto& c : enumerateLayouts(smallSpace(), {}))
            all.push_back(FakeEvaluator().evaluate(c));
        SweepReducer inOrder(SweepObjective::Balanced, 30);
        for (std::size_t i = 0; i < all.size(); ++i)
            inOrder.add(all[i], i);
        std::vector<std::size_t> order(all.size());
        std::iota(order.begin(), order.end(), std::size_t(0));
        std::shuffle(order.begin(), order.end(), std::mt19937(11));
        std::vector<SweepReducer> parts(3, SweepReducer(SweepObjective::Balanced, 30));
        for (std::size_t k = 0; k < order.size(); ++k)
            parts[k % parts.size()].add(all[order[k]], order[k]);
        parts[2].merge(parts[0]);
        parts[2].merge(parts[1]);
        QCOMPARE(parts[2].counts().evaluated, inOrder.counts().evaluated);
        QCOMPARE(parts[2].counts().fitting, inOrder.counts().fitting);
        // What explains an empty answer merges the same way: the rules broken and the leanest overflow.
        QCOMPARE(parts[2].counts().problemsSeen, inOrder.counts().problemsSeen);
        QCOMPARE(parts[2].counts().leastOverflowGiB, inOrder.counts().leastOverflowGiB);
        LayoutProblems broken = 0;
        double leanest = -1;
        for (const auto& r : all) {
            broken |= r.problems;
            if (r.valid && !r.fits && (leanest < 0 || r.peakMemoryGiB - r.capacityGiB < leanest))
                leanest = r.peakMemoryGiB - r.capacityGiB;
        }
        QCOMPARE(inOrder.counts().problemsSeen, broken);
        QVERIFY(leanest > 0);
        QCOMPARE(inOrder.counts().leastOverflowGiB, leanest);
        QCOMPARE(inOrder.counts().leastOverflowCapacityGiB, 80.0);
        QVERIFY(sameCandidates(parts[2].top(), inOrder.top()));
        QVERIFY(sameCandidates(parts[2].pareto(), inOrder.pareto()));
    }

    void workerFailureReachesTheCaller()
    {
        SweepSpec spec;
        spec.threads = 2;
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, runSweep(gpt3On1024(), spec, ThrowingEvaluator()));
        // The progress callback may fail too (a full GUI queue, say): the same path.
        QVERIFY_THROWS_EXCEPTION(std::logic_error,
            runSweep(gpt3On1024(), spec, FakeEvaluator(), {}, [](double, auto) { throw std::logic_error("full"); }));
    }
};

QTEST_GUILESS_MAIN(TestSweep)
#include "tst_sweep.moc"
