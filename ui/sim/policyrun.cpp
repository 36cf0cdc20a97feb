// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/sim/policyrun.h"

namespace clusterplanner::ui {

std::shared_ptr<const PolicyRun> runPolicy(const core::sched::ClusterModel& cluster,
    const core::sched::Workload& workload, core::sched::Policy policy, core::sched::PlacementStrategy placement,
    std::stop_token stop, const std::function<void(double)>& progress)
{
    core::sched::SimulationOptions options;
    options.policy = policy;
    options.placement = placement;
    options.recordTimeline = false;
    const auto outcome = core::sched::runSimulation(cluster, workload, options, stop, progress);
    auto run = std::make_shared<PolicyRun>();
    run->options = options;
    run->metrics = outcome.metrics;
    run->jct = core::sched::jctCdf(outcome.result);
    run->wait = core::sched::waitCdf(outcome.result);
    return run;
}

} // namespace clusterplanner::ui
