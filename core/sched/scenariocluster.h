// SPDX-License-Identifier: GPL-3.0-or-later
// The one place that turns a scenario into the simulator's cluster, so that a richer cluster description in the
// scenario changes only this function.
#pragma once

#include "core/model/scenario.h"
#include "core/sched/clustermodel.h"

namespace clusterplanner::core::sched {

/// The scenario's cluster as the simulator sees it: every node group of scenario.topology (simulatorCluster), or
/// the homogeneous cluster of scenario.cluster when a scenario has no topology. Throws std::invalid_argument for an
/// unknown GPU or a cluster beyond the input limits.
ClusterModel simulationCluster(const Scenario& scenario);

/// The same scenario with `gpus` GPUs (capacity sweeps); the node shape stays.
ClusterModel simulationCluster(const Scenario& scenario, int gpus);

} // namespace clusterplanner::core::sched
