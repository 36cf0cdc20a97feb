// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/scalingpanel.h"

#include "core/evaluation/strongscaling.h"
#include "core/perf/analytics.h"
#include "ui/charts/chartstyle.h"
#include "ui/charts/linechart.h"
#include "ui/document/scenariodocument.h"

#include <QVBoxLayout>

namespace clusterplanner::ui {

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
    const core::StrongScaling scaling = core::strongScaling(document()->scenario());
    const auto& points = scaling.points;
    const double parallelFraction = scaling.amdahlParallelFraction;
    if (points.size() < 2) {
        m_chart->setSeries({});
        if (scaling.error)
            showWithoutChart(tr("This scenario cannot be evaluated:"), QString::fromStdString(scaling.error->text()));
        else
            showWithoutChart(tr("No scaling curve:"),
                tr("fewer than two GPU counts give a valid layout when data parallelism doubles from 1 with this "
                   "layout's TP, PP, CP and EP."));
        return;
    }
    showChart();
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
