// SPDX-License-Identifier: GPL-3.0-or-later
// α–β collective costs, NCCL bus factors and latencies, the two-tier fabric (docs/methods-time.md §4.2, §11 items
// 16-17).
#include "core/perf/collectives.h"

#include <QTest>

#include <cmath>
#include <string>

using namespace clusterplanner::core;
using namespace clusterplanner::core::perf;

class TestCollectives : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void ringAllReduceBandwidthTerm()
    {
        // §11 item 16: 2 GB over 8 ranks at 450 GB/s: 2·7/8·2e9/450e9 = 7.777… ms.
        QVERIFY(std::abs(ringAllReduceS(2e9, 8, 450) - 7.7778e-3) < 1e-7);
        // GPT-3 TP message 2048·1·12288·2 B = 50,331,648 B → 195.7 µs.
        QVERIFY(std::abs(ringAllReduceS(50'331'648, 8, 450) - 195.7e-6) < 0.05e-6);
        // Latency term: 2(n−1) steps of α.
        QCOMPARE(ringAllReduceS(0, 8, 450, 1e-6), 14e-6);
        QCOMPARE(ringAllReduceS(1e9, 1, 450), 0.0);
    }

    void otherCollectives()
    {
        QCOMPARE(ringReduceScatterS(8e9, 4, 100, 0), 0.75 * 8e9 / 100e9);
        QCOMPARE(ringAllGatherS(8e9, 4, 100, 1e-5), 3e-5 + 0.75 * 8e9 / 100e9);
        // Tree: 2·log₂n·α + 2·S/B; n = 16 → 8 α.
        QCOMPARE(treeAllReduceS(1e9, 16, 100, 1e-6), 8e-6 + 2e9 / 100e9);
        QCOMPARE(allToAllS(1e9, 8, 50, 0), 7.0 / 8 * 1e9 / 50e9);
        QCOMPARE(p2pS(1e9, 50, 2e-6), 2e-6 + 1e9 / 50e9);
        QCOMPARE(broadcastS(1e9, 4, 50, 1e-6), 3e-6 + 1e9 / 50e9);
    }

    void busFactors()
    {
        QCOMPARE(busFactor(Collective::AllReduce, 8), 1.75);
        QCOMPARE(busFactor(Collective::AllReduce, 8, true), 7.0 / 9);
        QCOMPARE(busFactor(Collective::ReduceScatter, 8), 0.875);
        QCOMPARE(busFactor(Collective::AllGather, 4), 0.75);
        QCOMPARE(busFactor(Collective::AllToAll, 2), 0.5);
        QCOMPARE(busFactor(Collective::Broadcast, 16), 1.0);
        QCOMPARE(busFactor(Collective::AllReduce, 1), 0.0);
    }

    void ncclLatencies()
    {
        // §11 item 17: 16 ranks, 2 nodes, Simple ring all-reduce: 8.4 + 28·3.4 + 2·14.0 = 131.6 µs.
        QVERIFY(std::abs(ncclRingLatencyUs(Collective::AllReduce, NcclProtocol::Simple, 16, 2) - 131.6) < 1e-9);
        // All-gather: n−1 steps, nodes−1 of them across the network: 6.6 + 14·0.6 + 1·2.7 (LL).
        QVERIFY(std::abs(ncclRingLatencyUs(Collective::AllGather, NcclProtocol::LL, 16, 2) - 17.7) < 1e-9);
        // Tree all-reduce, 8 ranks per node, 4 nodes, LL128: 14 + 2·(7·1.25 + 2·8.5) = 65.5 µs.
        QVERIFY(std::abs(ncclTreeAllReduceLatencyUs(NcclProtocol::LL128, 8, 4) - 65.5) < 1e-9);
        QCOMPARE(ncclHwLatencyUs(NcclAlgorithm::Ring, NcclProtocol::LL128, LinkKind::Pcie), 2.5);
        QCOMPARE(ncclBaseLatencyUs(NcclAlgorithm::Tree, NcclProtocol::LL), 6.8);
    }

    void fabricFromCatalog()
    {
        const GpuSpec* h100 = GpuCatalog::builtin().find("H100-SXM-80GB");
        QVERIFY(h100);
        ClusterConfig cluster;
        cluster.nicGbps = 400;
        cluster.oversubscription = 2;
        const Fabric f = makeFabric(*h100, cluster, LinkEfficiency {1.0, 1.0, 1.0});
        QCOMPARE(f.scaleUpGBs, 450.0); // 900 GB/s bidirectional / 2
        QCOMPARE(f.scaleOutGBs, 25.0); // 400 Gb/s / 8 / oversubscription 2
        QCOMPARE(f.domainGpus, 8);
    }

    void groupCollectiveLevels()
    {
        Fabric f;
        f.domainGpus = 8;
        f.scaleUpGBs = 450;
        f.scaleOutGBs = 50;
        const double s = 1e9;
        const double inNode = groupCollectiveS(Collective::AllReduce, s, GroupSpan {8, 8, 1}, f);
        // Large message: bandwidth term dominates; within a few µs of latency of the ideal.
        QVERIFY(inNode > ringAllReduceS(s, 8, 450) && inNode < ringAllReduceS(s, 8, 450) + 100e-6);
        // Hierarchical 16 = 8 × 2: NVLink RS + network AR of S/8 between 2 nodes + NVLink AG.
        const double hier = groupCollectiveS(Collective::AllReduce, s, GroupSpan {16, 8, 2}, f);
        const double ideal = 2 * ringReduceScatterS(s, 8, 450) + ringAllReduceS(s / 8, 2, 50);
        QVERIFY(hier > ideal && hier < ideal + 300e-6);
        // One rank per node: the whole ring on the network.
        const double flat = groupCollectiveS(Collective::AllReduce, s, GroupSpan {4, 1, 4}, f);
        QVERIFY(flat > ringAllReduceS(s, 4, 50));
        QCOMPARE(groupCollectiveS(Collective::AllReduce, s, GroupSpan {1, 1, 1}, f), 0.0);
    }

    void deduplicatedDispatchSendsOneCopyPerRemoteNode()
    {
        // Top-8 over two nodes: a plain all-to-all sends 8 · 1/2 = 4 copies off the node, DeepEP one whenever any
        // of the 8 experts is remote (1 − 2^−8): share 0.996 / 4. Over eight targets: 7·(1 − (7/8)^8) against 7.
        QVERIFY(std::abs(deduplicatedShare(8, 2) - (1 - std::pow(0.5, 8)) / 4) < 1e-12);
        QVERIFY(std::abs(deduplicatedShare(8, 8) - (1 - std::pow(7.0 / 8, 8))) < 1e-12);
        QCOMPARE(deduplicatedShare(1, 8), 1.0); // one copy per token: nothing to deduplicate
        QCOMPARE(deduplicatedShare(8, 1), 1.0);
        // Many targets: the k experts almost always sit on k different ones, so almost nothing is saved.
        QVERIFY(deduplicatedShare(8, 1024) > 0.99 && deduplicatedShare(8, 1024) < 1.0);
        Fabric f;
        f.scaleUpGBs = 450;
        f.scaleOutGBs = 50;
        const double bytes = 256e6;
        const GroupSpan twoNodes {16, 8, 2}, oneNode {8, 8, 1};
        const double plain = expertAllToAllS(bytes, ExpertRoute {8, false}, twoNodes, f);
        const double deduplicated = expertAllToAllS(bytes, ExpertRoute {8, true}, twoNodes, f);
        QCOMPARE(plain, groupCollectiveS(Collective::AllToAll, bytes, twoNodes, f));
        // Network-bound: half the bytes leave the node at 50 GB/s (2.56 ms); deduplicated a quarter of that (0.64
        // ms), above the NVLink forwarding (7/8 of the per-rank copies, 0.81 of the bytes, at 450 GB/s: 0.40 ms);
        // both plus ~70 µs latency.
        QVERIFY(plain > 2.6e-3 && plain < 2.7e-3);
        QVERIFY(deduplicated > 0.68e-3 && deduplicated < 0.74e-3);
        // On a fast network the forwarding over NVLink binds instead.
        Fabric fastNetwork = f;
        fastNetwork.scaleOutGBs = 400;
        const double forwarded = expertAllToAllS(bytes, ExpertRoute {8, true}, twoNodes, fastNetwork);
        QVERIFY(forwarded > 0.40e-3 && forwarded < 0.48e-3);
        // Inside one node DeepEP sends one copy per destination rank: 8·(1 − (7/8)^8) / 8 = 0.656 of the bytes (the
        // same ~30 µs of latency on both sides lifts the ratio a little).
        const double inNode = expertAllToAllS(bytes, ExpertRoute {8, false}, oneNode, f);
        const double inNodeDeduplicated = expertAllToAllS(bytes, ExpertRoute {8, true}, oneNode, f);
        QVERIFY(inNodeDeduplicated / inNode > deduplicatedShare(8, 8));
        QVERIFY(inNodeDeduplicated / inNode < deduplicatedShare(8, 8) + 0.04);
    }

    /// DeepSeek-V3's node-limited routing (arXiv 2412.19437 §2.1.2): 256 experts in 8 groups, a token's 8 among at
    /// most 4 groups; over EP 64 on 8 nodes each group is one node's experts, so a token reaches at most 4 nodes.
    void groupLimitedRoutingReachesFewerNodes()
    {
        const ExpertRoute free {8, true}, limited {8, true, 8, 4};
        QCOMPARE(reachableTargets(free, 8), 8);
        QCOMPARE(reachableTargets(limited, 8), 4);
        QCOMPARE(reachableTargets(limited, 2), 2); // fewer nodes than allowed groups: every node
        QCOMPARE(reachableTargets(limited, 16), 8); // a group spans two nodes
        QCOMPARE(reachableTargets(ExpertRoute {8, true, 8, 8}, 8), 8); // every group allowed: unlimited
        QCOMPARE(reachableTargets(ExpertRoute {8, true, 8, 0}, 8), 8);
        Fabric f;
        f.scaleUpGBs = 450;
        f.scaleOutGBs = 50;
        const double bytes = 256e6;
        const GroupSpan eightNodes {64, 8, 8};
        // Network-bound: distinct remote nodes per token 5.25·7/8 against 4·(1 − (3/4)^8)·7/8 = 3.60·7/8.
        const double freeS = expertAllToAllS(bytes, free, eightNodes, f);
        const double limitedS = expertAllToAllS(bytes, limited, eightNodes, f);
        const double expected = (4 * (1 - std::pow(0.75, 8))) / (8 * (1 - std::pow(7.0 / 8, 8)));
        QVERIFY(std::abs(limitedS / freeS - expected) < 0.03);
        // A plain all-to-all sends every copy wherever it goes: the limit saves nothing.
        QCOMPARE(expertAllToAllS(bytes, ExpertRoute {8, false, 8, 4}, eightNodes, f),
            expertAllToAllS(bytes, ExpertRoute {8, false}, eightNodes, f));
        // Inside one node DeepEP sends one copy per destination rank, and EP 8 holds one group per rank: a token
        // reaches at most 4 of the 8 ranks, 3.60 distinct copies instead of 5.25 (latency lifts the ratio a little).
        const GroupSpan oneNode {8, 8, 1};
        const double inNodeRatio
            = expertAllToAllS(bytes, limited, oneNode, f) / expertAllToAllS(bytes, free, oneNode, f);
        QVERIFY2(inNodeRatio > expected && inNodeRatio < expected + 0.04, std::to_string(inNodeRatio).c_str());
        // More groups than nodes (EP 16 on 2 nodes, two ranks per group): both nodes are reached, but over NVLink
        // only the 8 ranks of the token's 4 groups, not all 16.
        QCOMPARE(reachableTargets(limited, 16), 8);
        Fabric fastNetwork = f;
        fastNetwork.scaleOutGBs = 400; // NVLink-bound
        const GroupSpan twoNodes {16, 8, 2};
        const double forwardedRatio = expertAllToAllS(bytes, limited, twoNodes, fastNetwork)
            / expertAllToAllS(bytes, free, twoNodes, fastNetwork);
        const double nvlinkExpected = deduplicatedShare(8, 8) / deduplicatedShare(8, 16);
        QVERIFY2(std::abs(forwardedRatio - nvlinkExpected) < 0.05, std::to_string(forwardedRatio).c_str());
    }

    void slowerLinkIsNeverFaster()
    {
        Fabric fast, slow;
        fast.scaleUpGBs = slow.scaleUpGBs = 300;
        fast.scaleOutGBs = 50;
        slow.scaleOutGBs = 12.5;
        for (double bytes : {1e3, 1e6, 1e9})
            for (auto c : {Collective::AllReduce, Collective::AllGather, Collective::AllToAll, Collective::SendRecv})
                QVERIFY(groupCollectiveS(c, bytes, GroupSpan {32, 8, 4}, slow)
                    >= groupCollectiveS(c, bytes, GroupSpan {32, 8, 4}, fast));
    }
};

QTEST_GUILESS_MAIN(TestCollectives)
#include "tst_collectives.moc"
