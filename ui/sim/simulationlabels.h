// SPDX-License-Identifier: GPL-3.0-or-later
// Names of the simulator's choices and units as the simulation panels show them.
#pragma once

#include "core/sched/simulation.h"
#include "core/sched/utilizationmatrix.h"

#include <QString>

#include <vector>

namespace clusterplanner::ui {

std::vector<core::sched::Policy> allPolicies();
std::vector<core::sched::PlacementStrategy> allPlacements();
QString policyLabel(core::sched::Policy policy); ///< e.g. "Tiresias (2D-LAS)"
QString placementLabel(core::sched::PlacementStrategy placement);
QString resourceLabel(core::sched::UsageResource resource);
/// Seconds as "45 s", "12 min", "3.4 h" or "2.1 d".
QString durationText(double seconds);

} // namespace clusterplanner::ui
