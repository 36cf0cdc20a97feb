// SPDX-License-Identifier: GPL-3.0-or-later
// The one cluster schema in JSON: a scenario's `cluster` section and the body of a cluster file
// ({"format": "clusterplanner-cluster", "version": 2, "cluster": {...}}), read by `clusterplanner simulate --cluster`
// (docs/methods-cluster.md §1, docs/scenario-format.md).
#pragma once

#include "core/cluster/clusterspec.h"

#include <nlohmann/json_fwd.hpp>

#include <stdexcept>
#include <string>

namespace clusterplanner::core::cluster {

inline constexpr const char* kClusterFileFormatName = "clusterplanner-cluster";
/// Version 1 was the scheduling simulator's own format (node_types + node_groups); version 2 is this schema.
inline constexpr int kClusterFileFormatVersion = 2;

/// A cluster that cannot be read. what() names the field, e.g. "cluster.node_groups[1].gpus_per_node: must be at
/// least 1 (got 0)".
class ClusterFormatError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

nlohmann::json clusterSpecToJson(const ClusterSpec& spec);

/// `path` prefixes every message ("cluster"). Optional fields (power limit, node price, switch price, PUE ...) may
/// be missing or null; every other field is required and checked for type and range. Sizes are checked against
/// core/io/inputlimits.h before anything is allocated. Group names must be unique and the whole cluster within the
/// simulator's limits. Throws ClusterFormatError. Whether the cluster can be built as drawn (rack power, switch
/// radix, GPU ids) is not a format error: clusterIssues() reports that.
ClusterSpec clusterSpecFromJson(const nlohmann::json& object, const std::string& path = "cluster");

/// A cluster file of the current version.
std::string writeClusterSpecFile(const ClusterSpec& spec);

/// Checks the header and reads the body. A version-1 file (the simulator's old node_types format) is refused with a
/// message that says so; core/sched/clusterfile.h reads both. Throws ClusterFormatError.
ClusterSpec readClusterSpecFile(const std::string& text);

} // namespace clusterplanner::core::cluster
