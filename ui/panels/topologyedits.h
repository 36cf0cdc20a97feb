// SPDX-License-Identifier: GPL-3.0-or-later
// The structural edits of the topology editor (add, duplicate, remove node groups and fabric tiers) as functions on
// a scenario, so that each button is one undoable ScenarioDocument::edit() and tests can check them alone.
#pragma once

#include "core/model/scenario.h"

#include <string>

namespace clusterplanner::ui {

/// `base`, or `base-2`, `base-3`… : the first name no node group of the cluster has.
std::string uniqueGroupName(const core::cluster::ClusterSpec& spec, const std::string& base);

/// Appends a node group: a copy of the last group's hardware with 1 node under a new name (or the default HGX H100
/// group in an empty cluster). The first group of a scenario also becomes its training group. Returns its index.
int addNodeGroup(core::Scenario& scenario);
/// Inserts a copy of group `index` after it, under a new name. Returns the copy's index, or -1 when out of range.
int duplicateNodeGroup(core::Scenario& scenario, int index);
/// Removes group `index`; a removed training group passes to the first remaining group. False when out of range.
bool removeNodeGroup(core::Scenario& scenario, int index);
/// Renames group `index` (the training group follows). False when the name is empty or taken by another group.
bool renameNodeGroup(core::Scenario& scenario, int index, const std::string& name);

/// Appends a tier above the top one, copying its switches ("core" above "spine", else "tier N"). Returns its index,
/// or -1 when the fabric already has the most tiers a scenario file may hold.
int addFabricTier(core::Scenario& scenario);
/// Removes tier `index`; the last tier stays (a cluster has at least its leaf switches). False when refused.
bool removeFabricTier(core::Scenario& scenario, int index);

} // namespace clusterplanner::ui
