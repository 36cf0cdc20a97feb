// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/layoutcheck.h"

#include <QTest>

using namespace clusterplanner::core;

namespace {

TrainingConfig layout(int dp, int tp, int pp, int cp)
{
    TrainingConfig t;
    t.layout = {dp, tp, pp, cp, 1, 1, tp > 1};
    t.microBatch = 1;
    t.globalBatch = dp * 4;
    t.schedule = PipelineSchedule::OneFOneB;
    return t;
}

} // namespace

class TestLayoutCheck : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void validLayoutHasNoProblems() { QCOMPARE(checkLayout(ModelConfig {}, layout(8, 8, 1, 1), 64), 0u); }

    void everyProblemIsListed()
    {
        ModelConfig m; // Llama 3 8B: 32 heads, 8 KV heads, 32 layers, s 8192
        TrainingConfig t = layout(3, 3, 40, 3);
        t.globalBatch = 10;
        const LayoutProblems p = checkLayout(m, t, 64);
        QVERIFY(hasProblem(p, LayoutProblem::GpuCount));
        QVERIFY(hasProblem(p, LayoutProblem::TpHeads));
        QVERIFY(hasProblem(p, LayoutProblem::TpKvHeads));
        QVERIFY(hasProblem(p, LayoutProblem::PpLayers));
        QVERIFY(hasProblem(p, LayoutProblem::CpSequence));
        QVERIFY(hasProblem(p, LayoutProblem::GlobalBatch));
        const auto messages = describeLayoutProblems(p, m, t, 64);
        QCOMPARE(messages.size(), std::size_t(6));
        QCOMPARE(QString::fromStdString(messages[0]),
            QString::fromUtf8("DP × TP × PP × CP = 3 × 3 × 40 × 3 = 1080, but the cluster has 64 GPUs"));
        QCOMPARE(QString::fromStdString(messages[1]), QStringLiteral("TP 3 does not divide the 32 attention heads"));
    }

    void hybridShardMustDivideDataParallel()
    {
        ModelConfig m;
        TrainingConfig t = layout(32, 2, 1, 1); // ZeRO-1 with the distributed optimizer: states are sharded
        for (int fits : {kDpShardAll, 1, 8, 16, 32}) {
            t.layout.dpShard = fits;
            QVERIFY2(checkLayout(m, t, 64) == 0u, qPrintable(QString::number(fits)));
            QVERIFY(hybridShardFits(t.layout, fits));
            QCOMPARE(fittingDpShard(t.layout, fits), fits);
        }
        for (int refused : {6, 64, -2}) {
            t.layout.dpShard = refused;
            QVERIFY(hasProblem(checkLayout(m, t, 64), LayoutProblem::DpShard));
            QCOMPARE(fittingDpShard(t.layout, refused), kDpShardAll);
        }
        t.layout.dpShard = 6;
        QCOMPARE(QString::fromStdString(describeLayoutProblems(checkLayout(m, t, 64), m, t, 64).front()),
            QStringLiteral("hybrid sharding over 6 of DP 32: the shard degree must divide DP"));
        // Without sharded states the setting is not read.
        t.zeroStage = 0;
        t.distributedOptimizer = false;
        QCOMPARE(checkLayout(m, t, 64), 0u);
    }

    void gqaReplicationIsAllowed()
    {
        ModelConfig m;
        m.kvHeads = 4;
        QCOMPARE(checkLayout(m, layout(1, 8, 1, 1), 8), 0u); // 8 = 2 × 4 KV heads: each KV head replicated
        m.kvHeads = 3;
        m.heads = 24;
        QVERIFY(hasProblem(checkLayout(m, layout(1, 8, 1, 1), 8), LayoutProblem::TpKvHeads));
    }

    void interleavedRules()
    {
        ModelConfig m;
        TrainingConfig t = layout(2, 1, 4, 1);
        t.schedule = PipelineSchedule::Interleaved;
        t.layout.virtualStages = 3; // 32 % 12 != 0: uneven chunks of 2 and 3 layers are fine
        t.globalBatch = 2 * 6; // 6 micro-batches, not a multiple of 4
        LayoutProblems p = checkLayout(m, t, 8);
        QVERIFY(!hasProblem(p, LayoutProblem::InterleavedLayers));
        QVERIFY(hasProblem(p, LayoutProblem::InterleavedMicroBatches));
        t.layout.virtualStages = 9; // 36 chunks for 32 layers
        p = checkLayout(m, t, 8);
        QVERIFY(hasProblem(p, LayoutProblem::InterleavedLayers));
        // Megatron-Core gives the embedding and the loss a layer's slot where that makes the split even
        // (docs/methods-memory.md §3.25): Megatron-Bridge's Llama 3.1 405B runs PP 16 × 8 chunks, 126 layers + 2.
        m.layers = 126;
        t.layout = {1, 4, 16, 1, 1, 8, true};
        t.globalBatch = 16;
        t.framework = Framework::NeMo;
        QVERIFY(!hasProblem(checkLayout(m, t, 64), LayoutProblem::InterleavedLayers));
        t.framework = Framework::TorchTitan; // its split has no such slots
        QVERIFY(hasProblem(checkLayout(m, t, 64), LayoutProblem::InterleavedLayers));
    }

    void expertRules()
    {
        ModelConfig m;
        TrainingConfig t = layout(4, 2, 1, 1);
        t.layout.ep = 2;
        QVERIFY(hasProblem(checkLayout(m, t, 8), LayoutProblem::EpDense));
        m.moe = MoeConfig {};
        t.layout.ep = 3;
        const LayoutProblems p = checkLayout(m, t, 8);
        QVERIFY(hasProblem(p, LayoutProblem::EpExperts));
        QVERIFY(hasProblem(p, LayoutProblem::EpGroup));
    }

    /// A stated expert TP lays expert TP × EP × expert DP over the same GPUs as TP × CP × DP: their product must
    /// divide them; the default (0) never fails, and a dense model has no routed experts to split.
    void statedExpertTpMustFitTheRanks()
    {
        ModelConfig m;
        m.moe = MoeConfig {}; // 8 experts
        TrainingConfig t = layout(4, 2, 1, 1); // TP × DP = 8
        t.layout.ep = 8;
        QCOMPARE(checkLayout(m, t, 8), 0u); // default: EP 8 folds over TP, expert TP 1
        t.layout.expertTp = 1;
        QCOMPARE(checkLayout(m, t, 8), 0u);
        t.layout.expertTp = 2; // 2 × 8 = 16 ranks on 8
        const LayoutProblems p = checkLayout(m, t, 8);
        QCOMPARE(p, std::uint32_t(LayoutProblem::ExpertTpGroup));
        const auto messages = describeLayoutProblems(p, m, t, 8);
        QCOMPARE(messages.size(), std::size_t(1));
        QVERIFY2(QString::fromStdString(messages[0])
                     .startsWith(QString::fromUtf8("expert TP 2 × EP 8 = 16 does not divide DP × CP × TP = 8")),
            messages[0].c_str());
        QCOMPARE(
            QString::fromUtf8(layoutProblemSummary(p)), QString::fromUtf8("expert TP × EP must divide DP × CP × TP"));
        t.layout.ep = 4;
        QCOMPARE(checkLayout(m, t, 8), 0u); // 2 × 4 = 8
        m.moe.reset();
        t.layout.ep = 1;
        t.layout.expertTp = 16;
        QCOMPARE(checkLayout(m, t, 8), 0u); // nothing to split
        t.layout.expertTp = -1;
        QVERIFY(hasProblem(checkLayout(m, t, 8), LayoutProblem::NonPositiveDegree));
    }

    void pipelineBeforeDataOrderNeedsEqualExpertDp()
    {
        // tp-cp-ep-pp-dp: Megatron-Core starts only when the experts' DP equals the attention's. DP 8 × PP 2 with
        // EP 8 leaves the experts a DP of 1.
        ModelConfig m;
        m.moe = MoeConfig {};
        TrainingConfig t = layout(8, 1, 2, 1);
        t.layout.ep = 8;
        t.layout.rankOrder = RankOrdering::TpCpEpPpDp;
        const LayoutProblems p = checkLayout(m, t, 16);
        QCOMPARE(p, LayoutProblems(LayoutProblem::EpPipelineOrder));
        const std::vector<std::string> text = describeLayoutProblems(p, m, t, 16);
        QCOMPARE(text.size(), std::size_t(1));
        QVERIFY2(text[0].find("= 1, must equal DP 8") != std::string::npos, text[0].c_str());
        // The default order, or one stage, is fine.
        t.layout.rankOrder = RankOrdering::TpCpEpDpPp;
        QCOMPARE(checkLayout(m, t, 16), LayoutProblems(0));
        t.layout.rankOrder = RankOrdering::TpCpEpPpDp;
        t.layout.pp = 1;
        t.layout.dp = 16;
        t.globalBatch = 64;
        QCOMPARE(checkLayout(m, t, 16), LayoutProblems(0));
        // EP folded over CP alone keeps the experts' DP equal to DP: CP 2 × DP 4 with EP 2.
        t = layout(4, 1, 2, 2);
        t.layout.ep = 2;
        t.layout.rankOrder = RankOrdering::TpCpEpPpDp;
        QCOMPARE(checkLayout(m, t, 16), LayoutProblems(0));
        // Megatron-Core builds the expert groups for a dense model too (EP 1, expert TP = TP): with CP 2 their DP is
        // DP × CP = 8 against the attention's 4, and this order does not start.
        const ModelConfig dense;
        t.layout.ep = 1;
        QCOMPARE(checkLayout(dense, t, 16), LayoutProblems(LayoutProblem::EpPipelineOrder));
        QVERIFY(describeLayoutProblems(checkLayout(dense, t, 16), dense, t, 16)[0].find("= 8, must equal DP 4")
            != std::string::npos);
        t.layout.rankOrder = RankOrdering::TpCpEpDpPp;
        QCOMPARE(checkLayout(dense, t, 16), LayoutProblems(0));
        t = layout(8, 1, 2, 1); // no CP: the two DP sizes agree
        t.layout.rankOrder = RankOrdering::TpCpEpPpDp;
        QCOMPARE(checkLayout(dense, t, 16), LayoutProblems(0));
    }

    void dualPipeNeedsAnEvenPipelineAndTwoMicroBatchesPerStage()
    {
        // DualPipe's two directions meet in the middle (deepseek-ai/DualPipe asserts an even rank count and at least
        // two micro-batches per rank, an even number of them).
        const ModelConfig m;
        TrainingConfig t = layout(2, 1, 4, 1);
        t.globalBatch = 16; // 8 micro-batches per step: 2 × PP
        t.schedule = PipelineSchedule::DualPipe;
        QCOMPARE(checkLayout(m, t, 8), LayoutProblems(0));
        t.globalBatch = 12; // 6 micro-batches
        QCOMPARE(checkLayout(m, t, 8), LayoutProblems(LayoutProblem::DualPipeMicroBatches));
        QVERIFY(
            describeLayoutProblems(checkLayout(m, t, 8), m, t, 8)[0].find("at least 2 × PP = 8") != std::string::npos);
        t = layout(2, 1, 3, 1);
        t.globalBatch = 12;
        t.schedule = PipelineSchedule::DualPipe;
        QCOMPARE(checkLayout(m, t, 6), LayoutProblems(LayoutProblem::DualPipeStages));
        t.layout.pp = 1; // no pipeline: nothing for DualPipe to schedule, nothing to refuse
        t.layout.dp = 6;
        QCOMPARE(checkLayout(m, t, 6), LayoutProblems(0));
    }

    void zeroDegreesAreReportedNotDividedBy()
    {
        const TrainingConfig t = layout(0, 1, 1, 1);
        const LayoutProblems p = checkLayout(ModelConfig {}, t, 8);
        QVERIFY(hasProblem(p, LayoutProblem::NonPositiveDegree));
        QVERIFY(!describeLayoutProblems(p, ModelConfig {}, t, 8).empty());
    }

    void productsBeyondIntDoNotWrap()
    {
        // DP × micro-batch = 2^32 wrapped to 0 in int arithmetic: a division by zero.
        TrainingConfig t = layout(65'536, 1, 1, 1);
        t.microBatch = 65'536;
        t.globalBatch = 65'536;
        QVERIFY(hasProblem(checkLayout(ModelConfig {}, t, 65'536), LayoutProblem::GlobalBatch));
        t.globalBatch = 1 << 30;
        t.microBatch = 1 << 14; // 2^16 · 2^14 = 2^30 divides: a valid batch split
        QVERIFY(!hasProblem(checkLayout(ModelConfig {}, t, 65'536), LayoutProblem::GlobalBatch));
    }

    void summaryNamesTheFirstProblem()
    {
        const TrainingConfig t = layout(3, 8, 1, 1);
        const LayoutProblems p = checkLayout(ModelConfig {}, t, 64);
        QCOMPARE(std::string(layoutProblemSummary(p)), std::string("DP × TP × PP × CP must equal the GPU count"));
        QCOMPARE(std::string(layoutProblemSummary(0)), std::string());
        QCOMPARE(microBatchesPerStep(t), 4);
    }
};

QTEST_GUILESS_MAIN(TestLayoutCheck)
#include "tst_layoutcheck.moc"
