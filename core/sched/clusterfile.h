// SPDX-License-Identifier: GPL-3.0-or-later
// What `clusterplanner simulate --cluster FILE` reads: the one cluster schema (core/cluster/clusterjson.h) in a
// cluster file of version 2, a scenario file (its `cluster` section) or the bare section; version-1 cluster files
// (the simulator's old node_types format) still open. All become the simulator's per-node model in one function.
#pragma once

#include "core/cluster/clusterspec.h"
#include "core/sched/clustermodeljson.h"

#include <string>

namespace clusterplanner::core::sched {

/// The simulator's model of a ClusterSpec: one node type and one node group per spec group (same name), NVLink
/// domains of scaleUpDomainGpus inside a node (a domain spanning nodes, as in GB200 NVL72, is one domain per node
/// here: the simulator places within nodes), node overhead from the group or data/costs.json, racks of the first
/// group's nodesPerRack, the fabric's rail-optimisation and end-to-end oversubscription. Throws ClusterFormatError
/// for a cluster beyond the simulator's limits (core/io/inputlimits.h).
ClusterModel simulatorCluster(const cluster::ClusterSpec& spec);

/// Reads any of the accepted shapes (see above). Throws ClusterFormatError naming the field.
ClusterModel readSimulatorClusterFile(const std::string& text);

} // namespace clusterplanner::core::sched
