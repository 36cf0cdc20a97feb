// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/sched/scenariocluster.h"

#include "core/model/gpucatalog.h"

namespace clusterplanner::core::sched {

ClusterModel simulationCluster(const Scenario& scenario)
{
    return homogeneousCluster(scenario.cluster, GpuCatalog::builtin());
}

ClusterModel simulationCluster(const Scenario& scenario, int gpus)
{
    Scenario resized = scenario;
    resized.cluster.gpuCount = gpus;
    return simulationCluster(resized);
}

} // namespace clusterplanner::core::sched
