// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/panels/topologyedits.h"

#include "core/io/inputlimits.h"

#include <algorithm>

namespace clusterplanner::ui {

namespace {

bool validGroup(const core::Scenario& scenario, int index)
{
    return index >= 0 && index < int(scenario.topology.groups.size());
}

} // namespace

std::string uniqueGroupName(const core::cluster::ClusterSpec& spec, const std::string& base)
{
    const std::string stem = base.empty() ? std::string("group") : base;
    std::string name = stem;
    for (int suffix = 2; spec.findGroup(name); ++suffix)
        name = stem + "-" + std::to_string(suffix);
    return name;
}

int addNodeGroup(core::Scenario& scenario)
{
    auto& groups = scenario.topology.groups;
    core::cluster::NodeGroup group = groups.empty() ? core::cluster::NodeGroup {} : groups.back();
    if (!groups.empty())
        group.nodeCount = 1;
    group.name = uniqueGroupName(scenario.topology, group.name);
    groups.push_back(group);
    if (groups.size() == 1)
        scenario.trainingGroup = group.name;
    return int(groups.size()) - 1;
}

int duplicateNodeGroup(core::Scenario& scenario, int index)
{
    if (!validGroup(scenario, index))
        return -1;
    auto& groups = scenario.topology.groups;
    core::cluster::NodeGroup copy = groups[index];
    copy.name = uniqueGroupName(scenario.topology, copy.name);
    groups.insert(groups.begin() + index + 1, copy);
    return index + 1;
}

bool removeNodeGroup(core::Scenario& scenario, int index)
{
    if (!validGroup(scenario, index))
        return false;
    auto& groups = scenario.topology.groups;
    const bool wasTraining = groups[index].name == scenario.trainingGroup;
    groups.erase(groups.begin() + index);
    if (wasTraining)
        scenario.trainingGroup = groups.empty() ? std::string() : groups.front().name;
    return true;
}

bool renameNodeGroup(core::Scenario& scenario, int index, const std::string& name)
{
    if (!validGroup(scenario, index) || name.empty())
        return false;
    auto& group = scenario.topology.groups[index];
    if (const auto* other = scenario.topology.findGroup(name); other && other != &group)
        return false;
    if (scenario.trainingGroup == group.name)
        scenario.trainingGroup = name;
    group.name = name;
    return true;
}

int addFabricTier(core::Scenario& scenario)
{
    auto& tiers = scenario.topology.fabric.tiers;
    if (tiers.size() >= core::limits::kMaxFabricTiers)
        return -1;
    core::cluster::FabricTier tier = tiers.empty() ? core::cluster::FabricTier {} : tiers.back();
    const auto named = [&tiers](const std::string& name) {
        return std::any_of(tiers.begin(), tiers.end(), [&name](const auto& t) { return t.name == name; });
    };
    if (tiers.empty())
        tier.name = "leaf";
    else if (!named("spine"))
        tier.name = "spine";
    else if (!named("core"))
        tier.name = "core";
    else
        tier.name = "tier " + std::to_string(tiers.size() + 1);
    tiers.push_back(tier);
    return int(tiers.size()) - 1;
}

bool removeFabricTier(core::Scenario& scenario, int index)
{
    auto& tiers = scenario.topology.fabric.tiers;
    if (index < 0 || index >= int(tiers.size()) || tiers.size() <= 1)
        return false;
    tiers.erase(tiers.begin() + index);
    return true;
}

} // namespace clusterplanner::ui
