// SPDX-License-Identifier: GPL-3.0-or-later
// Every scenario field at its minimum, its maximum and one past each (the file reader's bounds), through the
// evaluation facade and the sweep: no crash, no exception, no hang, and a reason whenever the result is not valid
// (docs/methods-model.md §3).
#include "core/evaluation/scenarioevaluation.h"
#include "core/model/enumnames.h"
#include "core/sweep/layoutevaluator.h"
#include "core/sweep/sweep.h"

#include <QTest>

#include <cmath>
#include <functional>
#include <limits>

using namespace clusterplanner::core;

namespace {

/// One numeric field: its path in the file, how to set it, and the reader's bounds.
struct Field
{
    const char* path;
    std::function<void(Scenario&, double)> set;
    double min;
    double max;
    bool integer = true;
};

template <typename T>
std::function<void(Scenario&, double)> setter(T Scenario::*part, int T::*member)
{
    return [=](Scenario& s, double v) { s.*part.*member = int(v); };
}

std::vector<Field> fields()
{
    auto layout = [](int ParallelLayout::*m) { return [=](Scenario& s, double v) { s.training.layout.*m = int(v); }; };
    auto moe = [](int MoeConfig::*m) { return [=](Scenario& s, double v) { (*s.model.moe).*m = int(v); }; };
    return {{"model.layers", setter(&Scenario::model, &ModelConfig::layers), 1, 100'000},
        {"model.hidden", setter(&Scenario::model, &ModelConfig::hidden), 1, 1'000'000},
        {"model.heads", setter(&Scenario::model, &ModelConfig::heads), 1, 100'000},
        {"model.kv_heads", setter(&Scenario::model, &ModelConfig::kvHeads), 1, 32},
        {"model.head_dim", setter(&Scenario::model, &ModelConfig::headDim), 0, 31'250}, // heads · head_dim ≤ 10^6
        {"model.ffn_hidden", setter(&Scenario::model, &ModelConfig::ffnHidden), 1, 8'000'000},
        {"model.vocab", setter(&Scenario::model, &ModelConfig::vocab), 1, 100'000'000},
        {"model.seq_len", setter(&Scenario::model, &ModelConfig::seqLen), 1, 100'000'000},
        {"model.moe.experts", moe(&MoeConfig::experts), 1, 100'000}, {"model.moe.top_k", moe(&MoeConfig::topK), 1, 8},
        {"model.moe.expert_ffn_hidden", moe(&MoeConfig::expertFfnHidden), 1, 1'000'000},
        {"model.moe.shared_experts", moe(&MoeConfig::sharedExperts), 0, 1024},
        {"model.moe.moe_layers", moe(&MoeConfig::moeLayers), 0, 100'000},
        {"model.moe.capacity_factor", [](Scenario& s, double v) { s.model.moe->capacityFactor = v; }, 0.1, 64, false},
        {"cluster.gpu_count", setter(&Scenario::cluster, &ClusterConfig::gpuCount), 1, 10'000'000},
        {"cluster.gpus_per_node", setter(&Scenario::cluster, &ClusterConfig::gpusPerNode), 1, 1024},
        {"cluster.nic_gbps", [](Scenario& s, double v) { s.cluster.nicGbps = v; }, 0.1, 100'000, false},
        {"cluster.oversubscription", [](Scenario& s, double v) { s.cluster.oversubscription = v; }, 1, 64, false},
        {"training.global_batch", setter(&Scenario::training, &TrainingConfig::globalBatch), 1, 100'000'000},
        {"training.micro_batch", setter(&Scenario::training, &TrainingConfig::microBatch), 1, 512},
        {"training.zero_stage", setter(&Scenario::training, &TrainingConfig::zeroStage), 0, 3},
        {"training.layout.dp", layout(&ParallelLayout::dp), 1, 10'000'000},
        {"training.layout.tp", layout(&ParallelLayout::tp), 1, 4096},
        {"training.layout.pp", layout(&ParallelLayout::pp), 1, 4096},
        {"training.layout.cp", layout(&ParallelLayout::cp), 1, 4096},
        {"training.layout.ep", layout(&ParallelLayout::ep), 1, 100'000},
        {"training.layout.virtual_stages", layout(&ParallelLayout::virtualStages), 1, 1024},
        {"economics.training_tokens", [](Scenario& s, double v) { s.economics.trainingTokens = v; }, 0, 1e18, false},
        {"economics.gpu_hour_usd", [](Scenario& s, double v) { s.economics.gpuHourUsd = v; }, 0, 10'000, false},
        {"economics.electricity_usd_per_kwh", [](Scenario& s, double v) { s.economics.electricityUsdPerKwh = v; }, 0,
            100, false},
        {"economics.pue", [](Scenario& s, double v) { s.economics.pue = v; }, 1, 5, false}};
}

/// Llama 3 8B on 64 H100 with four pipeline stages (the pipeline model takes part), with experts for the MoE
/// fields and the interleaved schedule for virtual stages.
Scenario baseFor(const Field& field)
{
    Scenario s;
    s.training.layout = ParallelLayout {2, 8, 4, 1, 1, 1, true};
    const std::string path = field.path;
    if (path.rfind("model.moe.", 0) == 0)
        s.model.moe = MoeConfig {};
    if (path == "training.layout.virtual_stages")
        s.training.schedule = PipelineSchedule::Interleaved;
    return s;
}

double pastValue(const Field& f, bool below)
{
    if (f.integer)
        return below ? f.min - 1 : f.max + 1;
    return std::nextafter(below ? f.min : f.max, below ? -INFINITY : INFINITY);
}

/// A result is acceptable when it is valid or says why not.
void verifyExplained(const ScenarioEvaluation& e, const std::string& what)
{
    QVERIFY2(e.valid() || !e.firstReason().empty(), what.c_str());
    if (e.valid()) {
        QVERIFY2(std::isfinite(e.time.stepTimeS) && e.time.stepTimeS > 0, what.c_str());
        QVERIFY2(e.memory.estimate.peakReservedBytes >= 0, what.c_str());
    }
}

/// Through the sweep with every dimension fixed to the scenario's: one candidate at most, quickly. The evaluator
/// refuses a scenario the facade reports as an error, with the same field named.
void verifySweep(const Scenario& s, const std::string& what)
{
    const auto& t = s.training;
    SweepSpec spec;
    spec.threads = 1;
    spec.constraints = {t.layout.tp, t.layout.pp, t.layout.cp, t.layout.ep, t.layout.dp, t.microBatch,
        t.layout.virtualStages, t.zeroStage, t.recompute, t.schedule, t.layout.rankOrder, t.layout.sequenceParallel};
    const std::optional<EvaluationError> error = evaluateScenario(s).error;
    try {
        const TrainingLayoutEvaluator evaluator(s);
        QVERIFY2(!error, (what + ": the evaluator took a scenario the facade refuses").c_str());
        const SweepResult result = runSweep(s, spec, evaluator);
        QVERIFY2(result.summary.evaluated <= 1, what.c_str());
        for (const LayoutResult& r : result.all)
            QVERIFY2(r.valid || r.problems != 0, what.c_str()); // an invalid layout names its broken rule
    } catch (const std::invalid_argument& refused) {
        QVERIFY2(error, (what + ": " + refused.what()).c_str());
        QCOMPARE(std::string(refused.what()), error->text());
    }
}

} // namespace

class TestExtremeValues : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void fieldsAtTheirBounds_data()
    {
        QTest::addColumn<int>("index");
        const auto all = fields();
        for (std::size_t i = 0; i < all.size(); ++i)
            QTest::newRow(all[i].path) << int(i);
    }

    void fieldsAtTheirBounds()
    {
        QFETCH(int, index);
        const Field field = fields()[std::size_t(index)];
        for (double value : {field.min, field.max}) {
            Scenario s = baseFor(field);
            field.set(s, value);
            const std::string what = std::string(field.path) + " = " + std::to_string(value);
            verifyExplained(evaluateScenario(s), what);
            verifySweep(s, what);
        }
    }

    void fieldsOnePastTheirBounds()
    {
        QFETCH(int, index);
        const Field field = fields()[std::size_t(index)];
        for (bool below : {true, false}) {
            Scenario s = baseFor(field);
            field.set(s, pastValue(field, below));
            const ScenarioEvaluation e = evaluateScenario(s);
            const std::string what = std::string(field.path) + " = " + std::to_string(pastValue(field, below));
            QVERIFY2(e.error, what.c_str());
            QCOMPARE(e.error->field, std::string(field.path));
            QVERIFY2(!e.error->message.empty(), what.c_str());
            verifySweep(s, what); // the sweep is not the file reader: it must not crash, a verdict is enough
        }
    }

    void fieldsOnePastTheirBounds_data() { fieldsAtTheirBounds_data(); }

    void everyEnumValue()
    {
        for (auto schedule : allValues<PipelineSchedule>())
            for (auto precision : allValues<Precision>())
                for (auto recompute : allValues<Recompute>())
                    for (auto framework : allValues<Framework>()) {
                        Scenario s;
                        s.training.layout = ParallelLayout {2, 8, 4, 1, 1, 2, true};
                        s.training.schedule = schedule;
                        s.training.precision = precision;
                        s.training.recompute = recompute;
                        s.training.framework = framework;
                        verifyExplained(evaluateScenario(s),
                            std::string(toString(schedule)) + "/" + std::string(toString(precision)) + "/"
                                + std::string(toString(framework)));
                    }
    }

    void unknownGpuThroughTheSweepSaysWhich()
    {
        Scenario s;
        s.cluster.gpuId = "";
        QVERIFY(evaluateScenario(s).error);
        try {
            const TrainingLayoutEvaluator evaluator(s);
            QFAIL("an evaluator for an unknown GPU");
        } catch (const std::invalid_argument& error) {
            QVERIFY(std::string(error.what()).find("cluster.gpu") != std::string::npos);
        }
    }
};

QTEST_GUILESS_MAIN(TestExtremeValues)
#include "tst_extremevalues.moc"
