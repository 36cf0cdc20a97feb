// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/steptimepanel.h"

#include "core/evaluation/scenarioevaluation.h"
#include "ui/charts/chartstyle.h"
#include "ui/charts/numberformat.h"
#include "ui/charts/stackedbarchart.h"
#include "ui/document/scenariodocument.h"

#include <QLocale>
#include <QVBoxLayout>

namespace clusterplanner::ui {

namespace {

struct Term
{
    const char* name;
    double seconds;
};

std::vector<Term> terms(const core::perf::StepTimeResult& r)
{
    return {{QT_TRANSLATE_NOOP("StepTimePanel", "forward compute"), r.computeForwardS},
        {QT_TRANSLATE_NOOP("StepTimePanel", "backward compute"), r.computeBackwardS},
        {QT_TRANSLATE_NOOP("StepTimePanel", "recompute"), r.recomputeS},
        {QT_TRANSLATE_NOOP("StepTimePanel", "pipeline bubble"), r.bubbleS},
        {QT_TRANSLATE_NOOP("StepTimePanel", "TP/SP comm (exposed)"), r.tpExposedS},
        {QT_TRANSLATE_NOOP("StepTimePanel", "CP comm (exposed)"), r.cpExposedS},
        {QT_TRANSLATE_NOOP("StepTimePanel", "EP all-to-all (exposed)"), r.epExposedS},
        {QT_TRANSLATE_NOOP("StepTimePanel", "DP comm (exposed)"), r.dpExposedS},
        {QT_TRANSLATE_NOOP("StepTimePanel", "PP send/recv (exposed)"), r.ppExposedS},
        {QT_TRANSLATE_NOOP("StepTimePanel", "activation offload (exposed)"), r.offloadExposedS},
        {QT_TRANSLATE_NOOP("StepTimePanel", "optimizer step"), r.optimizerS},
        {QT_TRANSLATE_NOOP("StepTimePanel", "overheads"), r.overheadS + r.overlapSlowdownS}};
}

QString duration(double seconds)
{
    if (seconds >= 2 * 86400)
        return QStringLiteral("%1 days").arg(seconds / 86400, 0, 'f', 1);
    if (seconds >= 2 * 3600)
        return QStringLiteral("%1 h").arg(seconds / 3600, 0, 'f', 1);
    return QStringLiteral("%1 min").arg(seconds / 60, 0, 'f', 1);
}

} // namespace

StepTimePanel::StepTimePanel(ScenarioDocument* document, QWidget* parent)
    : ChartPanel(document, new StackedBarChart, parent)
    , m_chart(chartAs<StackedBarChart>())
{
    setObjectName(QStringLiteral("stepTimePanel"));
    m_chart->setObjectName(QStringLiteral("step-time-breakdown"));
    m_chart->setHorizontal(true);
    refresh();
}

void StepTimePanel::refresh()
{
    const core::Scenario& scenario = document()->scenario();
    const core::ScenarioEvaluation evaluation
        = core::evaluateScenario(scenario, core::EvaluationOptions {false, false, 0});
    if (!evaluation.valid()) {
        // A scenario the engine cannot read (an unknown GPU, FP8 on a GPU without it) has no layout to judge yet.
        showWithoutChart(evaluation.error ? tr("This scenario cannot be evaluated:") : tr("This layout cannot run:"),
            QString::fromStdString(evaluation.firstReason()));
        m_chart->setData({}, {});
        return;
    }
    showChart();
    const core::perf::StepTimeResult& result = evaluation.time;
    QStringList names;
    QVector<double> milliseconds;
    for (const auto& term : terms(result)) {
        names << tr(term.name);
        milliseconds << 1e3 * term.seconds;
    }
    m_chart->setData(names, {{tr("time per step"), categoryColor(0), milliseconds}});
    m_chart->setValueAxisLabel(tr("ms per optimizer step"));
    const QLocale locale;
    setSummary(tr("<b>Step %1 s</b> · %2 tokens/s per GPU · %3 tokens/s total · MFU %4 % · HFU %5 % (6·N + 12·L·s·h "
                  "FLOPs per token)<br>"
                  "%6: %7 · %8 GPU-hours · $%9 at $%10/GPU-h · %11 MWh facility energy")
                   .arg(result.stepTimeS, 0, 'f', 3)
                   .arg(locale.toString(result.tokensPerSPerGpu, 'f', 0))
                   .arg(locale.toString(result.tokensPerS, 'f', 0))
                   .arg(100 * result.mfu, 0, 'f', 1)
                   .arg(100 * result.hfu, 0, 'f', 1)
                   .arg(formatCount(scenario.economics.trainingTokens, tr("tokens")))
                   .arg(duration(result.trainingTimeS))
                   .arg(locale.toString(result.gpuHours, 'f', 0))
                   .arg(locale.toString(result.costUsd, 'f', 0))
                   .arg(scenario.economics.gpuHourUsd, 0, 'f', 2)
                   .arg(result.energyKwh / 1000, 0, 'f', 1));
}

} // namespace clusterplanner::ui
