// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/sched/scenariocluster.h"

#include "core/model/gpucatalog.h"
#include "core/sched/clusterfile.h"

namespace clusterplanner::core::sched {

ClusterModel simulationCluster(const Scenario& scenario)
{
    // Every node group of the topology: the shared cluster is all of it, not only the training run's group.
    if (!scenario.topology.groups.empty())
        return simulatorCluster(scenario.topology);
    return homogeneousCluster(scenario.cluster, GpuCatalog::builtin());
}

ClusterModel simulationCluster(const Scenario& scenario, int gpus)
{
    // A capacity sweep grows the training group's node shape, as one homogeneous cluster of `gpus` GPUs.
    ClusterConfig resized = scenario.cluster;
    resized.gpuCount = gpus;
    return homogeneousCluster(resized, GpuCatalog::builtin());
}

} // namespace clusterplanner::core::sched
