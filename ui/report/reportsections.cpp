// SPDX-License-Identifier: GPL-3.0-or-later
// The sections of the scenario report: each turns the scenario and its results into a heading, text and a chart.
#include "core/evaluation/scenarioevaluation.h"
#include "core/memory/activationoffload.h"
#include "core/model/frameworkrules.h"
#include "core/model/modelmath.h"
#include "core/perf/steptime.h"
#include "core/validation/confidence.h"
#include "ui/document/scenariodocument.h"
#include "ui/library/keyfigures.h"
#include "ui/panels/chartpanel.h"
#include "ui/panels/enumlabels.h"
#include "ui/panels/gridexplorerpanel.h"
#include "ui/report/chartkinds.h"
#include "ui/report/chartset.h"
#include "ui/report/reportcontent.h"
#include "ui/report/reporttr.h"
#include "ui/sweep/sweeprunner.h"

#include <QCoreApplication>
#include <QLocale>

namespace clusterplanner::ui {

namespace {

QString number(double value, int decimals = 0)
{
    return QLocale(QLocale::English).toString(value, 'f', decimals);
}

QString billions(double count)
{
    return reportTr("%1 B").arg(count / 1e9, 0, 'f', 2);
}

QString panelSummary(ChartSet& charts, const char* panel)
{
    const auto* chartPanel = qobject_cast<ChartPanel*>(charts.panel(panel));
    return chartPanel ? chartPanel->summaryText() : QString();
}

std::vector<std::pair<QString, QString>> modelFacts(const core::ModelConfig& m)
{
    const core::ParameterCounts counts = core::countParameters(m);
    std::vector<std::pair<QString, QString>> facts = {{reportTr("Model"), QString::fromStdString(m.name)},
        {reportTr("Parameters (total / active)"),
            billions(counts.total) + QStringLiteral(" / ") + billions(counts.active)},
        {reportTr("Layers × hidden"), QStringLiteral("%1 × %2").arg(m.layers).arg(m.hidden)},
        {reportTr("Heads / KV heads / FFN"),
            QStringLiteral("%1 / %2 / %3").arg(m.heads).arg(m.kvHeads).arg(m.ffnHidden)},
        {reportTr("Vocabulary, sequence"), QStringLiteral("%1, %2").arg(m.vocab).arg(m.seqLen)}};
    if (m.headDim > 0) // heads not hidden / heads wide change every attention figure: say so
        facts.push_back({reportTr("Head dimension"), QString::number(m.headDim)});
    if (m.mla.enabled()) // so do latent attention's widths
        facts.push_back({reportTr("Latent attention (KV / query latent, heads)"),
            QStringLiteral("%1 / %2, %3 + %4 rotary, values %5")
                .arg(m.mla.kvLoraRank)
                .arg(m.mla.qLoraRank)
                .arg(m.mla.qkNopeHeadDim)
                .arg(m.mla.qkRopeHeadDim)
                .arg(m.mla.vHeadDim)});
    if (m.parallelBlock) // halves the TP collectives: a reader comparing with a sequential model needs to know
        facts.push_back({reportTr("Block"), reportTr("parallel attention and MLP (one norm)")});
    if (m.moe)
        facts.push_back({reportTr("Experts (top-k, shared)"),
            QStringLiteral("%1 (top-%2, %3 shared)").arg(m.moe->experts).arg(m.moe->topK).arg(m.moe->sharedExperts)});
    if (m.moe && m.moe->limitsGroups())
        facts.push_back({reportTr("Group-limited routing"),
            reportTr("each token's experts within %1 of %2 groups")
                .arg(m.moe->groupsPerToken)
                .arg(m.moe->expertGroups)});
    return facts;
}

/// The precision as estimated: the one in effect (pure BF16 falls back to mixed where the framework keeps FP32
/// master weights, docs/methods-memory.md §3.13) and, under FP8, the scaling recipe in effect. The master copy's
/// width is the optimizer's line: 16-bit optimizer states keep no FP32 master weights (§3.15).
QString precisionText(const core::TrainingConfig& t, const core::FrameworkCapabilities& caps)
{
    const core::Precision inEffect = core::precisionInEffect(t, caps);
    QString text = enumLabel(inEffect).section(QStringLiteral(" ("), 0, 0);
    if (inEffect == core::Precision::Fp8)
        text += QStringLiteral(", ") + enumLabel(core::fp8RecipeInEffect(t, caps));
    if (inEffect != t.precision)
        text += reportTr(" (%1 asked for; %2 does not offer it)").arg(enumLabel(t.precision), enumLabel(t.framework));
    return text;
}

/// The optimizer and the width of what it keeps as estimated: for Adam the moments and master weights in effect
/// (docs/methods-memory.md §3.15), for SGD the master weights of mixed precision.
QString optimizerText(const core::TrainingConfig& t, const core::FrameworkCapabilities& caps)
{
    const QString optimizer = enumLabel(t.optimizer);
    const bool adam = t.optimizer == core::Optimizer::Adam || t.optimizer == core::Optimizer::AdamW;
    switch (core::precisionInEffect(t, caps)) {
    case core::Precision::Fp32:
        return optimizer + (adam ? reportTr(", FP32 weights and moments") : reportTr(", FP32 weights"));
    case core::Precision::Bf16:
        return optimizer
            + (adam ? reportTr(", BF16 weights and moments (no FP32 master copy)")
                    : reportTr(", BF16 weights (no FP32 master copy)"));
    default:
        return optimizer + QStringLiteral(", ")
            + (adam ? enumLabel(core::optimizerStatesInEffect(t, caps)) : reportTr("FP32 master weights"));
    }
}

/// What the ZeRO stage shards over the data-parallel ranks, in words; stage 1 is Megatron's distributed optimizer
/// where the framework has one.
QString shardingText(const core::TrainingConfig& t, const core::FrameworkCapabilities& caps)
{
    switch (t.zeroStage) {
    case 0:
        return reportTr("none (ZeRO 0): every data-parallel rank holds the whole optimizer state");
    case 1:
        return caps.distributedOptimizer && t.distributedOptimizer
            ? reportTr("optimizer states over the data-parallel ranks (distributed optimizer)")
            : reportTr("optimizer states over the data-parallel ranks (ZeRO 1)");
    case 2:
        return reportTr("optimizer states and gradients over the data-parallel ranks (ZeRO 2)");
    default:
        return reportTr("optimizer states, gradients and parameters over the data-parallel ranks (ZeRO 3 / FSDP)");
    }
}

/// The framework, with the settings that change its kernels where it has them: torch.compile where fusion comes
/// from the compiler (docs/methods-time.md §4.12) and async TP where it applies (§4.13).
QString frameworkText(const core::TrainingConfig& t, const core::FrameworkCapabilities& caps)
{
    QString text = enumLabel(t.framework);
    if (caps.compileFuses)
        text += t.compile ? reportTr(", torch.compile on") : reportTr(", eager (torch.compile off)");
    if (core::asyncTpApplies(t, caps))
        text += reportTr(", async tensor parallelism");
    return text;
}

/// The loss kernel as the estimate applies it (docs/methods-memory.md §3.12, §3.21): compiled or fused over the 16-bit
/// logits, the framework's own fused loss, or PyTorch's, which keeps fp32 copies of the logits.
QString lossText(const core::TrainingConfig& t, const core::FrameworkCapabilities& caps)
{
    if (core::fusedKernelsApply(t, caps) && !caps.compileFuses) // Megatron's: the switches below are not read
        return reportTr("fused in the framework (its own cross-entropy kernel)");
    if (t.layout.tp > 1 && caps.dtensorLossParallel) // what the memory model holds (methods-memory.md §3.10)
        return reportTr("DTensor loss parallelism: fp32 ops over the vocabulary-sharded logits");
    if (core::compiledLossApplies(t, caps) && core::fusedLossApplies(t, caps))
        return reportTr("compiled with the model: the 16-bit logits and their gradient");
    if (core::fusedLossApplies(t, caps))
        return reportTr("fused cross-entropy kernel: the 16-bit logits and their gradient");
    return reportTr("PyTorch cross-entropy: fp32 copies of the logits and their gradients");
}

/// The MoE dispatcher and what hides its all-to-alls as the estimate applies them (a setting the framework does not
/// offer, or one its rules rule out, is not what was estimated; docs/methods-time.md §4.25, §4.39).
QString moeCommunicationText(const core::Scenario& s)
{
    const core::TrainingConfig& t = s.training;
    const core::FrameworkCapabilities& caps = core::frameworkCapabilities(t.framework);
    const QString dispatcher = core::moeDispatcherInEffect(t, caps) == core::MoeDispatcher::DeepEp
        ? reportTr("DeepEP (one copy per node)")
        : reportTr("all-to-all (top-k copies)");
    if (core::moeOverlapApplies(t, caps))
        return dispatcher + reportTr(", overlapped with paired micro-batches");
    switch (core::sharedExpertOverlapInEffect(t, caps, s.model)) {
    case core::SharedExpertOverlap::SideStream:
        return dispatcher + reportTr(", partly hidden behind the shared experts");
    case core::SharedExpertOverlap::CombineOnly:
        return dispatcher + reportTr(", the forward combine partly hidden behind the shared experts");
    case core::SharedExpertOverlap::None:
        break;
    }
    return dispatcher + reportTr(", not overlapped");
}

/// Activation offload as the estimate applies it: the layers it resolves to, or why none go to the host.
QString activationOffloadText(const core::Scenario& s)
{
    const int layers = core::activationOffloadLayersInEffect(s, s.training);
    const bool automatic = s.training.activationOffloadLayers == core::kActivationOffloadAuto;
    if (layers > 0)
        return reportTr("%1 of %2 layers' activations in host memory%3")
            .arg(layers)
            .arg(s.model.layers)
            .arg(automatic ? reportTr(" (auto: the fewest that fit)") : QString());
    return reportTr("none (asked for, but the framework, pipeline parallelism or recompute rules it out, or the "
                    "layout fits without)");
}

std::vector<std::pair<QString, QString>> setupFacts(const core::Scenario& s)
{
    const core::TrainingConfig& t = s.training;
    const core::FrameworkCapabilities& caps = core::frameworkCapabilities(t.framework);
    std::vector<std::pair<QString, QString>> facts = {{reportTr("Cluster"),
                                                          reportTr("%1 × %2, %3 per node (%4 nodes)")
                                                              .arg(s.cluster.gpuCount)
                                                              .arg(QString::fromStdString(s.cluster.gpuId))
                                                              .arg(s.cluster.gpusPerNode)
                                                              .arg(s.cluster.nodeCount())},
        {reportTr("Scale-out network"),
            reportTr("%1 Gbit/s per GPU, oversubscription %2")
                .arg(s.cluster.nicGbps, 0, 'f', 0)
                .arg(s.cluster.oversubscription, 0, 'f', 1)},
        {reportTr("Layout"), layoutText(t.layout)},
        {reportTr("Batch"), reportTr("global %1 sequences, micro-batch %2").arg(t.globalBatch).arg(t.microBatch)},
        {reportTr("Precision"), precisionText(t, caps)}, {reportTr("Optimizer"), optimizerText(t, caps)},
        {reportTr("Recompute"), enumLabel(t.recompute)}, {reportTr("Attention kernel"), enumLabel(t.attention)},
        {reportTr("Loss"), lossText(t, caps)}, {reportTr("Sharding"), shardingText(t, caps)},
        {reportTr("Pipeline schedule"), enumLabel(t.schedule)}, {reportTr("Framework"), frameworkText(t, caps)},
        {reportTr("Training tokens"), number(s.economics.trainingTokens / 1e9, 0) + reportTr(" B")}};
    if (s.model.moe)
        facts.insert(facts.end() - 1, {reportTr("Expert communication"), moeCommunicationText(s)});
    if (t.activationOffloadLayers != 0)
        facts.insert(facts.end() - 1, {reportTr("Activation offload"), activationOffloadText(s)});
    return facts;
}

QStringList layoutRow(int rank, const core::LayoutResult& r)
{
    const core::LayoutCandidate& c = r.candidate;
    // The recompute mode without its explanation (the scenario page details the one in use).
    const QString recompute = enumLabel(c.recompute).section(QStringLiteral(" ("), 0, 0);
    return {QString::number(rank), layoutText(c.layout),
        QStringLiteral("%1, %2, ZeRO %3").arg(c.microBatch).arg(recompute).arg(c.zeroStage), number(r.tokensPerSPerGpu),
        number(100 * r.mfu, 1), number(r.peakMemoryGiB, 1), number(r.costPerMTokensUsd, 3)};
}

const core::SweepResult* sweepResult(ChartSet& charts)
{
    GridExplorerPanel* grid = charts.grid();
    return grid ? &grid->runner()->lastResult() : nullptr;
}

} // namespace

ReportSection scenarioSection(ChartSet& charts)
{
    const core::Scenario& s = charts.document()->scenario();
    QString html
        = QStringLiteral("<h3>") + reportTr("Model") + QStringLiteral("</h3>") + htmlFacts(modelFacts(s.model));
    html += QStringLiteral("<h3>") + reportTr("Cluster and training") + QStringLiteral("</h3>")
        + htmlFacts(setupFacts(s));
    // The validated error of the nearest family qualifies every figure that follows (core/validation/confidence.h).
    html += QStringLiteral("<h3>") + reportTr("Expected error") + QStringLiteral("</h3><ul>");
    for (const core::ConfidenceBand& band : core::confidenceBands(s))
        html += QStringLiteral("<li>") + QString::fromStdString(band.statement).toHtmlEscaped()
            + QStringLiteral("</li>");
    html += QStringLiteral("</ul>");
    if (!s.notes.empty())
        html += QStringLiteral("<p><i>") + QString::fromStdString(s.notes).toHtmlEscaped() + QStringLiteral("</i></p>");
    return {reportTr("Scenario and cluster"), html, {}};
}

ReportSection explorerSection(ChartSet& charts)
{
    QString html
        = reportTr("<p>Every layout of the cluster (data, tensor, pipeline, context and expert parallel degrees, "
                   "micro-batch, recompute and ZeRO stage) was evaluated with the memory and step-time models. "
                   "Each cell shows the best layout with those two degrees.</p>");
    if (const core::SweepResult* result = sweepResult(charts)) {
        const core::SweepSummary& sum = result->summary;
        html += reportTr("<p><b>%1</b> layouts evaluated, <b>%2</b> valid, <b>%3</b> fit in memory (%4 s).</p>")
                    .arg(number(sum.evaluated), number(sum.valid), number(sum.fitting))
                    .arg(sum.seconds, 0, 'f', 2);
    }
    return {reportTr("Layout explorer"), html, QStringLiteral("grid")};
}

ReportSection topLayoutsSection(ChartSet& charts)
{
    std::vector<QStringList> rows;
    if (const core::SweepResult* result = sweepResult(charts))
        for (std::size_t i = 0; i < result->top.size() && i < 10; ++i)
            rows.push_back(layoutRow(int(i) + 1, result->top[i]));
    const QString html = rows.empty()
        ? reportTr("<p>No layout fits in memory.</p>")
        : htmlTable(
            {reportTr("#"), reportTr("Layout"), reportTr("Micro-batch, recompute"), reportTr("Tokens/s per GPU"),
                reportTr("MFU %"), reportTr("Peak GiB"), reportTr("US$ per M tokens")},
            rows);
    return {reportTr("Top layouts"), html, QStringLiteral("pareto")};
}

ReportSection memorySection(ChartSet& charts)
{
    return {reportTr("Memory breakdown"),
        QStringLiteral("<p>") + panelSummary(charts, "memory") + QStringLiteral("</p>"), QStringLiteral("memory")};
}

ReportSection stepTimeSection(ChartSet& charts)
{
    return {reportTr("Step-time breakdown"),
        QStringLiteral("<p>") + panelSummary(charts, "steptime") + QStringLiteral("</p>"), QStringLiteral("steptime")};
}

ReportSection pipelineSection(ChartSet& charts)
{
    const core::Scenario& s = charts.document()->scenario();
    QString html = reportTr("<p>Schedule %1 over %2 pipeline stages.</p>")
                       .arg(enumLabel(s.training.schedule))
                       .arg(s.training.layout.pp);
    const core::ScenarioEvaluation evaluation = core::evaluateScenario(s);
    if (evaluation.valid() && evaluation.time.valid) {
        html += reportTr("<p>%1 micro-batches per pipeline per step; the bubble is %2 % of the compute time.")
                    .arg(evaluation.time.microBatches)
                    .arg(100 * evaluation.time.bubbleFraction, 0, 'f', 1);
        // The timeline draws a step's first micro-batches only; say so, as the panel does.
        const int shown = evaluation.pipeline.shownMicroBatches;
        if (shown > 0 && shown < evaluation.time.microBatches)
            html += reportTr(" The chart draws the first %1 of them; the step's makespan is %2 s.")
                        .arg(shown)
                        .arg(evaluation.pipeline.summary.makespan, 0, 'f', 3);
        html += QStringLiteral("</p>");
    }
    return {reportTr("Pipeline schedule"), html, QStringLiteral("pipeline")};
}

ReportSection scalingSection(ChartSet& charts)
{
    return {reportTr("Scaling"), QStringLiteral("<p>") + panelSummary(charts, "scaling") + QStringLiteral("</p>"),
        QStringLiteral("scaling")};
}

ReportSection costSection(ChartSet& charts)
{
    const core::Scenario& s = charts.document()->scenario();
    const core::CachedResult result = computeKeyFigures(s);
    const auto& d = result.detail;
    std::vector<std::pair<QString, QString>> facts
        = {{reportTr("Throughput of the job"), number(result.figures.tokensPerS) + reportTr(" tokens/s")},
            {reportTr("Step time"), number(result.figures.stepTimeS, 2) + reportTr(" s")},
            {reportTr("MFU"),
                number(100 * result.figures.mfu, 1)
                    + reportTr(" % (6·N + 12·L·s·h FLOPs per token: attention over the whole score matrix, the "
                               "Megatron-LM and PaLM convention)")},
            {reportTr("Cost per million tokens"),
                QStringLiteral("US$ ") + number(d.value("cost_per_m_tokens_usd", 0.0), 3)},
            {reportTr("Cost of the run"), QStringLiteral("US$ ") + number(result.figures.costUsd)},
            {reportTr("GPU-hour price"), QStringLiteral("US$ ") + number(s.economics.gpuHourUsd, 2)}};
    if (d.contains("training_days")) {
        const double days = d.value("training_days", 0.0);
        facts.push_back({reportTr("Training time"), number(days, 1) + reportTr(" days")});
        facts.push_back({reportTr("GPU-hours"), number(days * 24 * s.training.layout.gpuCount())});
        facts.push_back({reportTr("Facility energy (PUE %1)").arg(s.economics.pue, 0, 'f', 2),
            number(d.value("energy_kwh", 0.0) / 1000, 0) + reportTr(" MWh")});
        facts.push_back({reportTr("Electricity cost"),
            QStringLiteral("US$ ") + number(d.value("energy_kwh", 0.0) * s.economics.electricityUsdPerKwh)});
    }
    return {reportTr("Cost and energy"), htmlFacts(facts), {}};
}

} // namespace clusterplanner::ui
