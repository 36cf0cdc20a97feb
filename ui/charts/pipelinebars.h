// SPDX-License-Identifier: GPL-3.0-or-later
// How a pipeline timeline reads on the Gantt chart: one hue family per op kind, everything numbered from 1.
#pragma once

#include "core/perf/pipeline.h"
#include "ui/charts/ganttchart.h"

#include <QStringList>
#include <QVector>

namespace clusterplanner::ui {

/// Row names "stage 1" … "stage p", numbered like micro-batches and chunks (from 1); under DualPipe the ranks with
/// the two stages each runs ("rank 1 · stages 1 + 8").
QStringList pipelineStageRows(int stages, bool dualPipe = false);

/// One bar per op: forward in blues, backward in oranges, weight gradient in greens; the shade steps with the
/// chunk so interleaved chunks stay apart. Labels are "F3" (micro-batch 3) or "F3.2" (chunk 2) when chunks > 1;
/// tooltips name the op kind, stage, micro-batch, chunk and times in ms.
QVector<GanttBar> pipelineBars(const std::vector<core::perf::PipelineOp>& ops, int chunks);

/// Legend entries for the op kinds a schedule runs (W only where the backward is split), and what the lighter shade
/// means: interleaved chunks, or DualPipe's micro-batches that enter at the last rank.
QVector<GanttLegendEntry> pipelineLegend(bool splitBackward, int chunks = 1, bool dualPipe = false);

} // namespace clusterplanner::ui
