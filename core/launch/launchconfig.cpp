// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/launch/launchconfig.h"

#include "core/launch/launchplan.h"

#include <algorithm>
#include <array>
#include <utility>

namespace clusterplanner::core::launch {

namespace {

struct FrameworkEntry
{
    LaunchFramework id;
    std::string_view name;
    Framework engineFramework; ///< whose capabilities (data/frameworks.json) decide what it can run
    LaunchFile (*write)(const LaunchPlan&);
};

constexpr std::array<FrameworkEntry, 4> kFrameworks {{
    {LaunchFramework::Megatron, "megatron", Framework::Megatron, &writeMegatronArgs},
    {LaunchFramework::NeMo, "nemo", Framework::NeMo, &writeBridgeYaml},
    {LaunchFramework::TorchTitan, "torchtitan", Framework::TorchTitan, &writeTorchTitanToml},
    {LaunchFramework::DeepSpeed, "deepspeed", Framework::DeepSpeed, &writeDeepSpeedJson},
}};

const FrameworkEntry& entry(LaunchFramework framework)
{
    return kFrameworks[static_cast<std::size_t>(framework)];
}

} // namespace

std::string_view toString(LaunchFramework framework)
{
    return entry(framework).name;
}

std::optional<LaunchFramework> launchFrameworkFromString(std::string_view text)
{
    for (const auto& e : kFrameworks)
        if (e.name == text)
            return e.id;
    return std::nullopt;
}

std::string launchFrameworkNames()
{
    std::string names;
    for (const auto& e : kFrameworks)
        names += (names.empty() ? "" : ", ") + std::string(e.name);
    return names;
}

LaunchFile makeLaunchConfig(const Scenario& scenario, LaunchFramework framework)
{
    const FrameworkEntry& e = entry(framework);
    const LaunchPlan plan = makeLaunchPlan(scenario, e.engineFramework);
    LaunchFile file = e.write(plan);
    // Said once for every writer: a setting asked for that the written config leaves out.
    for (const std::string& note :
        {plan.asyncTpLeftOutNote(), plan.fp8RecipeNote(), plan.optimizerStatesNote(), plan.precisionNote(),
            plan.moeLeftOutNote(), plan.activationOffloadNote(), plan.mtpLeftOutNote(), plan.attentionKernelNote()})
        if (!note.empty())
            file.notes.push_back(note);
    return file;
}

std::string torchrunLine(const Scenario& scenario, const std::string& program)
{
    const int gpus = scenario.training.layout.gpuCount();
    const int perNode = std::max(1, std::min(scenario.cluster.gpusPerNode, gpus));
    const int nodes = (gpus + perNode - 1) / perNode;
    // c10d rendezvous needs one reachable endpoint; the shell variables are filled in by the job script.
    return "torchrun --nnodes=" + std::to_string(nodes) + " --nproc-per-node=" + std::to_string(perNode)
        + " --rdzv-backend=c10d --rdzv-endpoint=${MASTER_ADDR}:${MASTER_PORT:-29500} " + program;
}

} // namespace clusterplanner::core::launch
