// SPDX-License-Identifier: GPL-3.0-or-later
// Which parts of a scenario an edit changed, so that views recompute only what depends on them.
#pragma once

#include "core/model/scenario.h"

#include <QFlags>

namespace clusterplanner::ui {

/// One flag per part of core::Scenario. Training excludes its layout, which has a flag of its own.
enum class ScenarioChange : unsigned {
    Name = 1u << 0,
    Model = 1u << 1,
    Cluster = 1u << 2, ///< the engine's view of the run, the topology or the training group
    Training = 1u << 3, ///< batch, precision, optimizer, recompute, ZeRO, attention, schedule, framework
    Layout = 1u << 4, ///< training.layout: the parallel degrees and rank order
    Economics = 1u << 5,
    Notes = 1u << 6,
    Topology = 1u << 7, ///< topology (node groups, fabric, facility) and the training group
    Workload = 1u << 8, ///< the shared-cluster workload (trace or synthetic), read by the simulation panels
};
Q_DECLARE_FLAGS(ScenarioChanges, ScenarioChange)
Q_DECLARE_OPERATORS_FOR_FLAGS(ScenarioChanges)

/// What the engine's figures depend on: everything but the name and the notes.
constexpr ScenarioChanges kEngineInputs = ScenarioChange::Model | ScenarioChange::Cluster | ScenarioChange::Training
    | ScenarioChange::Layout | ScenarioChange::Economics | ScenarioChange::Topology;
/// Every flag: a new or loaded document.
constexpr ScenarioChanges kAllScenarioChanges
    = kEngineInputs | ScenarioChange::Name | ScenarioChange::Notes | ScenarioChange::Workload;

/// The parts that differ between before and after.
ScenarioChanges scenarioChanges(const core::Scenario& before, const core::Scenario& after);

} // namespace clusterplanner::ui
