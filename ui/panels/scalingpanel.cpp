// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/scalingpanel.h"

#include "core/perf/analytics.h"
#include "core/perf/steptime.h"
#include "ui/charts/chartstyle.h"
#include "ui/charts/linechart.h"
#include "ui/document/scenariodocument.h"

#include <QVBoxLayout>

namespace clusterplanner::ui {

namespace {

constexpr int kMaxPoints = 16;

std::optional<ScalingPoint> evaluateAt(core::Scenario scenario, int dp, const core::GpuSpec& gpu)
{
    auto& layout = scenario.training.layout;
    layout.dp = dp;
    scenario.cluster.gpuCount = layout.gpuCount();
    if (scenario.training.globalBatch % (dp * scenario.training.microBatch) != 0)
        return std::nullopt;
    const auto result
        = core::perf::estimateStepTime(scenario, gpu, core::perf::EfficiencyTable::builtin().forGpu(gpu.id));
    if (!result.valid)
        return std::nullopt;
    return ScalingPoint {scenario.cluster.gpuCount, result.stepTimeS, result.tokensPerS, 0};
}

} // namespace

QVector<ScalingPoint> strongScaling(const core::Scenario& scenario, double* amdahlParallelFraction)
{
    QVector<ScalingPoint> points;
    const core::GpuSpec* gpu = core::GpuCatalog::builtin().find(scenario.cluster.gpuId);
    if (!gpu)
        return points;
    for (int dp = 1; points.size() < kMaxPoints && dp <= scenario.training.globalBatch; dp *= 2)
        if (auto point = evaluateAt(scenario, dp, *gpu))
            points.push_back(*point);
    if (points.size() < 2)
        return points;
    std::vector<int> gpus;
    std::vector<double> times;
    for (const auto& p : points) {
        gpus.push_back(p.gpus);
        times.push_back(p.stepTimeS);
    }
    const auto efficiency = core::perf::scalingEfficiency(gpus, times);
    std::vector<double> speedups;
    for (std::size_t i = 0; i < efficiency.size(); ++i) {
        points[int(i)].efficiency = efficiency[i];
        speedups.push_back(times.front() / times[i]);
    }
    if (amdahlParallelFraction) {
        // Fit on speed-ups relative to the first point, counted in multiples of its GPU count.
        std::vector<int> multiples;
        for (int g : gpus)
            multiples.push_back(g / gpus.front());
        *amdahlParallelFraction = core::perf::fitAmdahlParallelFraction(multiples, speedups);
    }
    return points;
}

ScalingPanel::ScalingPanel(ScenarioDocument* document, QWidget* parent)
    : ChartPanel(document, new LineChart, parent)
    , m_chart(chartAs<LineChart>())
{
    setObjectName(QStringLiteral("scalingPanel"));
    m_chart->setObjectName(QStringLiteral("scaling"));
    m_chart->setAxisTitles(
        tr("GPUs (data parallelism grows, global batch fixed)"), tr("million tokens/s"), tr("scaling efficiency %"));
    m_chart->setLogX(true);
    m_chart->setLogY(true); // log-log: linear scaling is a straight line

    refresh();
}

void ScalingPanel::refresh()
{
    double parallelFraction = 0;
    const auto points = strongScaling(document()->scenario(), &parallelFraction);
    if (points.size() < 2) {
        m_chart->setSeries({});
        setSummary(tr("Not enough valid GPU counts to draw a scaling curve for this layout."));
        return;
    }
    LineSeries throughput {tr("tokens/s (model)"), categoryColor(0), {}, {}, false, false};
    LineSeries ideal {tr("linear scaling"), categoryColor(7), {}, {}, true, false};
    LineSeries amdahl {tr("Amdahl fit"), categoryColor(5), {}, {}, true, false};
    LineSeries efficiency {tr("efficiency %"), categoryColor(2), {}, {}, false, true};
    const auto& first = points.front();
    for (const auto& p : points) {
        const double multiple = double(p.gpus) / first.gpus;
        throughput.x << p.gpus;
        throughput.y << p.tokensPerS / 1e6;
        ideal.x << p.gpus;
        ideal.y << first.tokensPerS * multiple / 1e6;
        amdahl.x << p.gpus;
        amdahl.y << first.tokensPerS * core::perf::amdahlSpeedup(parallelFraction, multiple) / 1e6;
        efficiency.x << p.gpus;
        efficiency.y << 100 * p.efficiency;
    }
    m_chart->setSeries({throughput, ideal, amdahl, efficiency});
    setSummary(tr("Strong scaling from %1 to %2 GPUs: efficiency falls to %3 %. Amdahl fit: parallel "
                  "fraction %4 (speed-up limit %5×).")
                   .arg(first.gpus)
                   .arg(points.back().gpus)
                   .arg(100 * points.back().efficiency, 0, 'f', 1)
                   .arg(parallelFraction, 0, 'f', 4)
                   .arg(parallelFraction < 1 ? 1 / (1 - parallelFraction) : qInf(), 0, 'f', 0));
}

} // namespace clusterplanner::ui
