// SPDX-License-Identifier: GPL-3.0-or-later
// The derived figures of a purchase as labelled rows, for the topology panel's figure list and the purchase
// comparison table. Only names, units and formatting: every value is a field of core's PurchaseFigures.
#pragma once

#include "core/evaluation/purchasefigures.h"

#include <QString>

#include <vector>

namespace clusterplanner::ui {

enum class FigureFormat { Count, Number, Usd, Percent };

struct FigureRow
{
    QString section; ///< "Size", "Compute", "Network", "Power", "Cost", "Training run"
    QString key; ///< stable id, e.g. "cluster.gpus", "run.time_to_train_days"; rows of two scenarios match by key
    QString label;
    double value = 0;
    QString unit; ///< shown after the value ("PFLOP/s", "days"); empty for counts and dollars
    FigureFormat format = FigureFormat::Number;
    bool lowerIsBetter = false; ///< for colouring differences: cost, time, power
    bool known = true; ///< false: the core has no value (a run that does not fit, an unknown cloud price)
    QString whyUnknown;
};

/// Every figure of `figures`, in display order, grouped by section.
std::vector<FigureRow> purchaseRows(const core::evaluation::PurchaseFigures& figures);
/// The row with `key`, or nullptr.
const FigureRow* findRow(const std::vector<FigureRow>& rows, const QString& key);

/// "16,384", "1,979 PFLOP/s", "$412 M", "38.2 %", or "–" for an unknown value.
QString formatFigure(const FigureRow& row);
/// "+12.3 %" of `row` against `reference`; empty when either is unknown or the reference is 0.
QString formatDifference(const FigureRow& row, const FigureRow& reference);
/// Dollars in words people use: "$1.23 B", "$412 M", "$950 k", "$0.85".
QString formatUsd(double usd);

} // namespace clusterplanner::ui
