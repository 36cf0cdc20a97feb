// SPDX-License-Identifier: GPL-3.0-or-later
// Group spans from the rank order and the scale-up domain, on hand-worked examples.
#include "core/perf/topology.h"

#include <QTest>

using namespace clusterplanner::core;
using namespace clusterplanner::core::perf;

namespace {

ParallelLayout layout(int dp, int tp, int pp, int cp, int ep)
{
    ParallelLayout l;
    l.dp = dp;
    l.tp = tp;
    l.pp = pp;
    l.cp = cp;
    l.ep = ep;
    return l;
}

bool same(const GroupSpan& span, int size, int perDomain, int domains)
{
    return span.size == size && span.ranksPerDomain == perDomain && span.domains == domains;
}

} // namespace

class TestTopology : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void gpt3OnA100Nodes()
    {
        // DP16 × TP8 × PP8 on 8-GPU nodes, tp-cp-ep-dp-pp: TP = one node; DP stride 8 → 16 nodes, 1 rank each;
        // PP stride 128 → 8 nodes.
        const auto s = layoutSpans(layout(16, 8, 8, 1, 1), 8);
        QVERIFY(same(s.tp, 8, 8, 1));
        QVERIFY(same(s.dp, 16, 1, 16));
        QVERIFY(same(s.pp, 8, 1, 8));
        QVERIFY(same(s.cp, 1, 1, 1));
        QVERIFY(same(s.dpCp, 16, 1, 16));
    }

    void smallTpSharesNodeWithDp()
    {
        // TP 2, DP 16: ranks 0,2,4,6 of a DP group in node 0 → 4 per node, 4 nodes.
        const auto s = layoutSpans(layout(16, 2, 1, 1, 1), 8);
        QVERIFY(same(s.tp, 2, 2, 1));
        QVERIFY(same(s.dp, 16, 4, 4));
    }

    void contextAndExpertGroups()
    {
        // TP 2, CP 2, EP 4 folded in DP 8, PP 2 on 8-GPU nodes. CP stride 2 → ranks 0,2 (one node).
        // DP = EP × 2 (EP stride 4, the rest stride 16): 8 ranks, 2 per node.
        const auto s = layoutSpans(layout(8, 2, 2, 2, 4), 8);
        QVERIFY(same(s.cp, 2, 2, 1));
        QVERIFY(same(s.dp, 8, 2, 4));
        // DP × CP: 16 ranks (0,2,4,6,…), 4 in each node.
        QVERIFY(same(s.dpCp, 16, 4, 4));
        QVERIFY(same(s.pp, 2, 1, 2));
        // The expert layers' order has no CP (MoE parallel folding): expert TP 2, EP 4 at stride 2 (ranks 0,2,4,6,
        // one node), expert DP 2·8·2 / (2·4) = 4 at stride 8 (ranks 0,8,16,24, one per node).
        QVERIFY(same(s.ep, 4, 4, 1));
        QVERIFY(same(s.expertDpCp, 4, 1, 4));
    }

    void expertDataParallelGroup()
    {
        // EP 8 inside each 8-GPU node, DP 64: the ranks that hold rank 0's experts are 0, 8, …, 56, one per node.
        const auto inNode = layoutSpans(layout(64, 1, 1, 1, 8), 8);
        QVERIFY(same(inNode.dpCp, 64, 8, 8));
        QVERIFY(same(inNode.expertDpCp, 8, 1, 8));
        // EP over all 64 ranks: no other rank holds the same experts.
        QCOMPARE(layoutSpans(layout(64, 1, 1, 1, 64), 8).expertDpCp.size, 1);
        // Without EP the experts are reduced like every other weight.
        const auto noEp = layoutSpans(layout(64, 1, 1, 1, 1), 8);
        QVERIFY(same(noEp.expertDpCp, 64, 8, 8));
        // EP that does not divide DP × CP folds over TP as well (expert TP 1): TP 8 × DP 1 with EP 2 gives EP ranks
        // 0,1 and expert DP 8 / 2 = 4 at stride 2, ranks 0,2,4,6 of the one node.
        const auto overTp = layoutSpans(layout(1, 8, 1, 1, 2), 8);
        QVERIFY(same(overTp.ep, 2, 2, 1));
        QVERIFY(same(overTp.expertDpCp, 4, 4, 1));
        // TP 4 × DP 16 with EP 32: expert DP 64 / 32 = 2 at stride 32, one rank in each of two nodes.
        QVERIFY(same(layoutSpans(layout(16, 4, 1, 1, 32), 8).expertDpCp, 2, 1, 2));
        // EP that divides DP × CP but not DP keeps expert TP = TP: TP 2, CP 8, DP 4, EP 8 (NeMo's Mixtral 8x22B: 64
        // ranks per stage, 256 B200 in all) gives expert DP 64 / 16 = 4 at stride 16, one rank per node.
        QVERIFY(same(layoutSpans(layout(4, 2, 1, 8, 8), 8).expertDpCp, 4, 1, 4));
        // The same layout with expert TP 1 stated (NeMo's recipe): EP at stride 1, expert DP 64 / 8 = 8 at stride 8.
        ParallelLayout stated = layout(4, 2, 1, 8, 8);
        stated.expertTp = 1;
        const auto own = layoutSpans(stated, 8);
        QVERIFY(same(own.expertTp, 1, 1, 1));
        QVERIFY(same(own.ep, 8, 8, 1));
        QVERIFY(same(own.expertDpCp, 8, 1, 8));
        QVERIFY(same(layoutSpans(layout(4, 2, 1, 8, 8), 8).expertTp, 2, 2, 1)); // the default: expert TP = TP
        // Without EP, an expert TP other than TP still gives the experts their own data-parallel group: TP 2 × DP 8
        // with expert TP 1 holds whole experts on 16 ranks, not TP halves on DP 8.
        ParallelLayout noEpOwnTp = layout(8, 2, 1, 1, 1);
        noEpOwnTp.expertTp = 1;
        QVERIFY(same(layoutSpans(noEpOwnTp, 8).expertDpCp, 16, 8, 2));
        QVERIFY(same(layoutSpans(layout(8, 2, 1, 1, 1), 8).expertDpCp, 8, 4, 2)); // = DP × CP
    }

    void otherRankOrder()
    {
        // dp-tp-…: DP fastest → DP 8 inside one node, TP 4 at stride 8 across 4 nodes.
        const auto order = RankOrder::parse("dp-tp-cp-ep-pp");
        const auto s = layoutSpans(layout(8, 4, 1, 1, 1), 8, order);
        QVERIFY(same(s.dp, 8, 8, 1));
        QVERIFY(same(s.tp, 4, 1, 4));
        QCOMPARE(order.toString(), std::string("dp-tp-cp-ep-pp"));
    }

    void expertGroupsInThePipelineBeforeDataOrder()
    {
        // tp-cp-ep-pp-dp, TP 1, CP 2, EP 2 over CP, DP 4, PP 2 on 8-GPU nodes. The attention's order: CP ranks 0,1,
        // PP stride 2, DP stride 4. The experts' order tp(1)-ep(2)-pp(2)-dp(4): EP ranks 0,1, expert DP stride 4
        // (ranks 0,4,8,12), the attention's DP ranks again, 2 in each node.
        const auto s = layoutSpans(layout(4, 1, 2, 2, 2), 8, RankOrder::parse("tp-cp-ep-pp-dp"));
        QVERIFY(same(s.cp, 2, 2, 1));
        QVERIFY(same(s.pp, 2, 2, 1));
        QVERIFY(same(s.dp, 4, 2, 2));
        QVERIFY(same(s.ep, 2, 2, 1));
        QVERIFY(same(s.expertDpCp, 4, 2, 2));
    }

    void largeDomain()
    {
        // NVL72-style domain of 72: TP 8 × DP 9 fit in one domain.
        const auto s = layoutSpans(layout(9, 8, 1, 1, 1), 72);
        QVERIFY(same(s.dp, 9, 9, 1));
    }

    void badRankOrderNamesThePart()
    {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, RankOrder::parse("tp-cp-ep-dp"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, RankOrder::parse("tp-tp-ep-dp-pp"));
        try {
            RankOrder::parse("tp-cp-xx-dp-pp");
            QFAIL("no exception");
        } catch (const std::invalid_argument& error) {
            QVERIFY(QString(error.what()).contains("\"xx\""));
        }
    }
};

QTEST_GUILESS_MAIN(TestTopology)
#include "tst_topology.moc"
