// SPDX-License-Identifier: GPL-3.0-or-later
// Shared fixtures of the scheduling-simulator tests: uniform toy clusters and a one-call simulation.
#pragma once

#include "core/model/gpucatalog.h"
#include "core/sched/simulator.h"

#include <string>

namespace schedtest {

using namespace clusterplanner::core;
using namespace clusterplanner::core::sched;

/// A node type with 16 CPU cores, 128 GiB host memory and one NIC per GPU.
inline NodeType nodeType(const std::string& name, const std::string& gpu, int gpus)
{
    NodeType type;
    type.name = name;
    type.gpuId = gpu;
    type.gpuCount = gpus;
    type.cpuCores = 16 * gpus;
    type.memoryGiB = 128.0 * gpus;
    type.nicCount = gpus;
    return type;
}

/// `nodes` identical H100 nodes of `gpusPerNode` GPUs each.
inline ClusterModel uniformCluster(int nodes, int gpusPerNode)
{
    ClusterModel model;
    model.nodeTypes = {nodeType("n", "H100-SXM-80GB", gpusPerNode)};
    model.groups = {{"n", nodes}};
    return model;
}

inline SimulationResult simulate(const ClusterModel& model, const Workload& workload, SimulationOptions options)
{
    Simulator simulator(model, GpuCatalog::builtin(), options);
    return simulator.run(workload);
}

} // namespace schedtest
