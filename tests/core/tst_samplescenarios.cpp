// SPDX-License-Identifier: GPL-3.0-or-later
// The sample scenarios in data/scenarios: readable, consistent, and true to the published set-ups they describe.
#include "core/cluster/clusterfigures.h"
#include "core/model/gpucatalog.h"
#include "core/sweep/layoutevaluator.h"
#include "core/sweep/layoutspace.h"
#include "tests/core/storetesthelpers.h"

#include <QTest>

#include <map>
#include <regex>

using namespace clusterplanner::core;
using namespace storetest;

namespace {

std::map<std::string, LibraryFile> samples()
{
    std::map<std::string, LibraryFile> files;
    for (const auto& path : scenarioFilesIn(kSampleDir))
        files[std::filesystem::path(path).filename().string()] = loadLibraryFile(path);
    return files;
}

/// Dense GPT parameters, docs/methods-model.md §2: 12·L·h² + 13·L·h + (V + s)·h + 2h (tied embeddings).
double gptParameters(const ModelConfig& m)
{
    const double L = m.layers, h = m.hidden;
    return 12 * L * h * h + 13 * L * h + (double(m.vocab) + m.seqLen) * h + 2 * h;
}

/// Llama-style parameters, docs/methods-model.md §2, with MoE MLPs (router h·E) where the model has experts.
double llamaParameters(const ModelConfig& m)
{
    const double h = m.hidden, hkv = double(m.kvHeads) * (m.hidden / m.heads);
    const double mlp
        = m.moe ? m.moe->experts * 3 * h * m.moe->expertFfnHidden + h * m.moe->experts : 3 * h * m.ffnHidden;
    return m.layers * (2 * h * h + 2 * h * hkv + mlp + 2 * h) + double(m.vocab) * h * (m.tiedEmbeddings ? 1 : 2) + h;
}

/// The engine's figures for the layout the sample selects, as the application's key figures show them.
LayoutResult evaluateSample(const Scenario& s)
{
    return TrainingLayoutEvaluator(s).evaluate(candidateOf(s));
}

} // namespace

class TestSampleScenarios : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everySampleIsConsistent()
    {
        const auto files = samples();
        QCOMPARE(files.size(), std::size_t(11));
        for (const auto& [name, file] : files) {
            const auto& s = file.scenario;
            QVERIFY2(GpuCatalog::builtin().find(s.cluster.gpuId), name.c_str());
            // Every sample's cluster can be built as drawn: racks within their power, fabric within its radix.
            const auto issues = cluster::clusterIssues(s.topology, GpuCatalog::builtin());
            QVERIFY2(issues.empty(), (name + ": " + (issues.empty() ? "" : issues[0].reason)).c_str());
            QVERIFY2(s.cluster.gpuCount <= s.topology.findGroup(s.trainingGroup)->gpuCount(), name.c_str());
            QVERIFY2(s.training.layout.gpuCount() == s.cluster.gpuCount, name.c_str());
            QVERIFY2(s.training.globalBatch % s.training.layout.dp == 0, name.c_str());
            QVERIFY2(!s.notes.empty() && !file.tags.empty(), name.c_str());
        }
    }

    void everySelectedLayoutIsValidAndFits()
    {
        for (const auto& [name, file] : samples()) {
            const LayoutResult r = evaluateSample(file.scenario);
            qInfo("%s: valid %d fits %d peak %.1f of %.1f GiB, step %.2f s, MFU %.1f %%, %.0f tokens/s/GPU",
                name.c_str(), r.valid, r.fits, r.peakMemoryGiB, r.capacityGiB, r.stepTimeS, 100 * r.mfu,
                r.tokensPerSPerGpu);
            QVERIFY2(r.valid, name.c_str());
            QVERIFY2(r.fits, name.c_str());
            QVERIFY2(r.peakMemoryGiB > 0 && r.peakMemoryGiB <= r.capacityGiB, name.c_str());
            QVERIFY2(r.mfu > 0.05 && r.mfu < 0.75, name.c_str());
        }
    }

    void notesQuoteTheEnginesFigures()
    {
        // A note that quotes the estimate ("ClusterPlanner's estimate for this layout: 29.6 % MFU, peak 24.7 of
        // 78.1 GiB") must quote what the engine shows today, to the digit.
        const std::regex quoted(R"(estimate for this layout: ([0-9.]+) % MFU, peak ([0-9.]+) of ([0-9.]+) GiB)");
        int quoting = 0;
        for (const auto& [name, file] : samples()) {
            std::smatch match;
            if (!std::regex_search(file.scenario.notes, match, quoted))
                continue;
            const LayoutResult r = evaluateSample(file.scenario);
            QCOMPARE(QString::fromStdString(match[1]), QString::number(100 * r.mfu, 'f', 1));
            QCOMPARE(QString::fromStdString(match[2]), QString::number(r.peakMemoryGiB, 'f', 1));
            QCOMPARE(QString::fromStdString(match[3]), QString::number(r.capacityGiB, 'f', 1));
            ++quoting;
        }
        QVERIFY(quoting >= 1); // the Llama 3 405B sample, beside the paper's figure
    }

    void defaultSampleIsTheDefaultScenario()
    {
        const auto files = samples();
        int defaults = 0;
        for (const auto& [name, file] : files)
            defaults += std::count(file.tags.begin(), file.tags.end(), "default");
        QCOMPARE(defaults, 1);
        QVERIFY(files.at("llama3-70b-256-h100.cplan.json").scenario == defaultScenario());
    }

    void gpt3MatchesTheCaseStudy()
    {
        const auto s = samples().at("gpt3-175b-1024-a100.cplan.json").scenario;
        QCOMPARE(gptParameters(s.model), 174'615'846'912.0); // docs/methods-model.md check 3, V 51200
        QCOMPARE(s.cluster.gpuId, std::string("A100-SXM-80GB"));
        const auto& l = s.training.layout;
        QCOMPARE(std::vector<int>({l.dp, l.tp, l.pp}), std::vector<int>({16, 8, 8}));
        QCOMPARE(s.training.globalBatch, 1536);
        QCOMPARE(s.training.recompute, Recompute::Full);
        QCOMPARE(s.model.mlp, MlpKind::Gelu);
        QCOMPARE(s.model.norm, NormKind::LayerNorm);
    }

    void llama405bUsesThePublishedLayout()
    {
        const auto s = samples().at("llama3-405b-16384-h100.cplan.json").scenario;
        QCOMPARE(llamaParameters(s.model), 405'853'388'800.0); // docs/methods-model.md §2
        const auto& l = s.training.layout;
        QCOMPARE(std::vector<int>({l.tp, l.cp, l.pp, l.dp}), std::vector<int>({8, 1, 16, 128}));
        QCOMPARE(s.training.globalBatch / l.dp, 16); // sequences per DP rank, docs/methods-search.md §5
        QCOMPARE(double(s.training.globalBatch) * s.model.seqLen, 16.0 * 1024 * 1024); // 16M tokens per batch
        QCOMPARE(s.training.schedule, PipelineSchedule::Interleaved); // as Meta ran it
        QVERIFY(l.virtualStages > 1);
    }

    void mixtralIsTheReferenceMoe()
    {
        const auto s = samples().at("mixtral-8x7b-64-h100.cplan.json").scenario;
        QVERIFY(s.model.moe);
        QCOMPARE(llamaParameters(s.model), 46'702'792'704.0); // docs/methods-model.md §2
        QCOMPARE(s.model.moe->topK, 2);
    }

    void purchaseTrioDiffersOnlyInHardware()
    {
        const auto files = samples();
        const auto& h100 = files.at("purchase512-1-h100.cplan.json").scenario;
        for (const char* other : {"purchase512-2-h200.cplan.json", "purchase512-3-mi300x.cplan.json"}) {
            auto s = files.at(other).scenario;
            QCOMPARE(s.cluster.gpuCount, 512);
            // The same cluster shape (nodes, NICs, racks, fabric, facility); GPU, node price and names differ.
            const auto& group = s.topology.groups.at(0);
            const auto& reference = h100.topology.groups.at(0);
            QCOMPARE(group.nodeCount, reference.nodeCount);
            QCOMPARE(group.nicsPerNode * group.nicGbps, reference.nicsPerNode * reference.nicGbps);
            QCOMPARE(group.nodesPerRack, reference.nodesPerRack);
            QVERIFY(s.topology.fabric == h100.topology.fabric);
            QVERIFY(s.topology.facility == h100.topology.facility);
            s.topology = h100.topology;
            s.trainingGroup = h100.trainingGroup;
            s.cluster.gpuId = h100.cluster.gpuId;
            s.economics.gpuHourUsd = h100.economics.gpuHourUsd;
            s.name = h100.name;
            s.notes = h100.notes;
            QVERIFY2(s == h100, other);
        }
    }

    void mixedClusterTrainsOnOneGroup()
    {
        const auto s = samples().at("mixed-h100-h200-64-nodes.cplan.json").scenario;
        QCOMPARE(s.topology.groups.size(), std::size_t(2));
        QCOMPARE(s.topology.gpuCount(), 512LL);
        QCOMPARE(s.trainingGroup, std::string("hgx-h200"));
        QCOMPARE(s.cluster.gpuId, std::string("H200-SXM-141GB")); // the engine sees the training group
        QCOMPARE(s.cluster.gpuCount, 128);
    }

    void largestSampleHas16kGpusOnThreeTiers()
    {
        const auto s = samples().at("llama3-405b-16384-h100.cplan.json").scenario;
        QCOMPARE(s.topology.gpuCount(), 16384LL);
        QCOMPARE(s.topology.fabric.tiers.size(), std::size_t(3)); // 16,384 NIC ports > 2,048 of two 64-port tiers
    }
};

QTEST_GUILESS_MAIN(TestSampleScenarios)
#include "tst_samplescenarios.moc"
