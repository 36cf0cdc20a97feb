// SPDX-License-Identifier: GPL-3.0-or-later
// The charts that can be exported by name (headless `chart`, "Export all charts", the report), and where each lives.
#pragma once

#include "core/model/scenario.h"

#include <QString>
#include <QStringList>

#include <vector>

class QWidget;

namespace clusterplanner::ui {

class ChartWidget;

struct ChartKind
{
    const char* id; ///< command-line name, e.g. "memory"
    const char* panel; ///< the panel (panelregistry.h) that draws it
    const char* title; ///< title printed above the exported chart
    ChartWidget* (*find)(QWidget* panel); ///< the chart inside that panel, or nullptr
    bool needsSweep; ///< drawn from the layout sweep, so only complete once it has finished
};

/// Every exportable chart, in report order.
const std::vector<ChartKind>& chartKinds();
/// The kind with this id, or nullptr.
const ChartKind* chartKind(const QString& id);
QStringList chartKindIds();

/// "<scenario> · DP 16 × TP 8 × PP 8 · micro-batch 1, 1F1B · 2026-11-23": the caption of an exported chart.
QString chartCaption(const core::Scenario& scenario);
/// "DP 16 × TP 8 × PP 8" (+ CP, EP, virtual stages when not 1).
QString layoutText(const core::ParallelLayout& layout);

} // namespace clusterplanner::ui
