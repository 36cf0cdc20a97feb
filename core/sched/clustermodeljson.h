// SPDX-License-Identifier: GPL-3.0-or-later
// The cluster file format: {"format": "clusterplanner-cluster", "version": 1, "cluster": {...}}.
#pragma once

#include "core/sched/clustermodel.h"

#include <nlohmann/json_fwd.hpp>

#include <stdexcept>
#include <string>

namespace clusterplanner::core::sched {

inline constexpr const char* kClusterFormatName = "clusterplanner-cluster";
inline constexpr int kClusterFormatVersion = 1;

/// A cluster file that cannot be read. what() names the field, e.g. "cluster.node_types[0].gpus: must be at least 1".
class ClusterFormatError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

nlohmann::json clusterModelToJson(const ClusterModel& model);
/// Every field is required and checked for type and range; node groups must name a declared node type and NVLink
/// domains must cover each GPU of the node exactly once. Throws ClusterFormatError.
ClusterModel clusterModelFromJson(const nlohmann::json& object);

std::string writeClusterFile(const ClusterModel& model);
/// Throws ClusterFormatError for bad JSON, a wrong header, a newer version or a bad field.
ClusterModel readClusterFile(const std::string& text);

} // namespace clusterplanner::core::sched
