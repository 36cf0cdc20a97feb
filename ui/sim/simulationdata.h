// SPDX-License-Identifier: GPL-3.0-or-later
// What one simulation of the scenario's workload produced, shared read-only by the simulation panels.
#pragma once

#include "core/model/scenario.h"
#include "core/sched/clustermodel.h"
#include "core/sched/simulationrun.h"
#include "core/sched/workloadsummary.h"

#include <memory>

namespace clusterplanner::ui {

struct SimulationData
{
    core::Scenario scenario; ///< the scenario it was computed for
    core::sched::WorkloadSpec workloadSpec; ///< the scenario's, or the default synthetic one
    core::sched::ClusterModel cluster;
    std::shared_ptr<const core::sched::Workload> workload;
    core::sched::WorkloadSummary summary;
    std::shared_ptr<const core::sched::SimulationOutcome> outcome; ///< timeline recorded
    std::shared_ptr<const core::sched::NodeRunIndex> runs;
};

} // namespace clusterplanner::ui
