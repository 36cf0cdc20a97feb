// SPDX-License-Identifier: GPL-3.0-or-later
// One run of the policy comparison: the figures the table and the CDF charts show, computed in the worker.
#pragma once

#include "core/sched/simulationrun.h"

#include <memory>

namespace clusterplanner::ui {

struct PolicyRun
{
    core::sched::SimulationOptions options;
    core::sched::SimulationMetrics metrics;
    core::sched::CdfPoints jct;
    core::sched::CdfPoints wait;
};

/// Simulates one policy and placement on the shared workload (no timeline: the comparison needs none).
std::shared_ptr<const PolicyRun> runPolicy(const core::sched::ClusterModel& cluster,
    const core::sched::Workload& workload, core::sched::Policy policy, core::sched::PlacementStrategy placement,
    std::stop_token stop, const std::function<void(double)>& progress);

} // namespace clusterplanner::ui
