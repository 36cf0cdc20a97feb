// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cluster/clusterspec.h"

namespace clusterplanner::core::cluster {

const NodeGroup* ClusterSpec::findGroup(const std::string& groupName) const
{
    for (const auto& group : groups)
        if (group.name == groupName)
            return &group;
    return nullptr;
}

long long ClusterSpec::nodeCount() const
{
    long long nodes = 0;
    for (const auto& group : groups)
        nodes += group.nodeCount;
    return nodes;
}

long long ClusterSpec::gpuCount() const
{
    long long gpus = 0;
    for (const auto& group : groups)
        gpus += group.gpuCount();
    return gpus;
}

} // namespace clusterplanner::core::cluster
