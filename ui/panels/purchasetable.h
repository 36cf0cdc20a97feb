// SPDX-License-Identifier: GPL-3.0-or-later
// The purchase comparison's tables: figures side by side with differences against the first scenario, and the
// sensitivity strip. Values come from core (purchaseFigures, purchaseSensitivity); this only lays them out.
#pragma once

#include "core/evaluation/purchasesensitivity.h"

#include <QString>

#include <optional>
#include <vector>

class QTableWidget;

namespace clusterplanner::ui {

/// One scenario of the comparison and what the core said about it.
struct PurchaseEntry
{
    QString label; ///< short column title ("H100 SXM 80GB")
    QString source; ///< where it came from ("library #3", a file path, "variant of …"), for the tooltip
    core::Scenario scenario;
    std::optional<core::evaluation::PurchaseFigures> figures;
    QString error; ///< why figures is unset
    std::vector<core::evaluation::SensitivityCase> sensitivity;
};

/// Evaluates `scenario` (figures and sensitivity) into an entry.
PurchaseEntry makePurchaseEntry(const core::Scenario& scenario, const QString& source);
/// The column title for a scenario name: the part after "…: " when there is one, elided to a readable length.
QString shortScenarioLabel(const QString& name);

/// Rows: the figures of purchaseRows() under section headings; columns: the entries. Cells after the first column
/// read "value (±x %)" against the first and are tinted green where better, red where worse. Row keys are kept in
/// the vertical header items' Qt::UserRole.
void fillComparisonTable(QTableWidget& table, const std::vector<PurchaseEntry>& entries);
/// Rows: the entries; columns: the sensitivity cases; cells: how TCO and owned $ per M tokens move (%).
void fillSensitivityTable(QTableWidget& table, const std::vector<PurchaseEntry>& entries);

} // namespace clusterplanner::ui
