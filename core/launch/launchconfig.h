// SPDX-License-Identifier: GPL-3.0-or-later
// Launch configurations for a scenario's layout: the file a training framework reads and the torchrun line.
#pragma once

#include "core/model/scenario.h"

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace clusterplanner::core::launch {

/// The frameworks a launch configuration can be written for (docs/launch-configs.md gives each mapping).
enum class LaunchFramework { Megatron, NeMo, TorchTitan, DeepSpeed };

/// A layout the framework cannot run, or a scenario whose layout does not add up; what() says which and why.
class LaunchConfigError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

struct LaunchFile
{
    std::string text; ///< the configuration itself (Megatron: the whole command line)
    std::string launchLine; ///< the torchrun line that starts it
    std::string fileName; ///< suggested file name, e.g. "megatron-args.sh"
    std::vector<std::string> notes; ///< settings that do not map one to one, one sentence each
};

std::string_view toString(LaunchFramework framework);
/// "megatron", "nemo", "torchtitan" or "deepspeed".
std::optional<LaunchFramework> launchFrameworkFromString(std::string_view text);
/// The names accepted above, comma-separated, for messages.
std::string launchFrameworkNames();

/// Writes the configuration of the scenario's training set-up (training.layout, batch, precision, recompute,
/// schedule) for the framework. Throws LaunchConfigError when the layout does not cover the cluster, the batch
/// does not divide, or the framework cannot run the schedule, recompute mode or precision.
LaunchFile makeLaunchConfig(const Scenario& scenario, LaunchFramework framework);

/// torchrun with --nnodes and --nproc-per-node for the layout on the cluster, then `program`.
std::string torchrunLine(const Scenario& scenario, const std::string& program);

} // namespace clusterplanner::core::launch
