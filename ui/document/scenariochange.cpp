// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/document/scenariochange.h"

namespace clusterplanner::ui {

ScenarioChanges scenarioChanges(const core::Scenario& before, const core::Scenario& after)
{
    ScenarioChanges changes;
    changes.setFlag(ScenarioChange::Name, before.name != after.name);
    changes.setFlag(ScenarioChange::Model, before.model != after.model);
    changes.setFlag(ScenarioChange::Cluster,
        before.cluster != after.cluster || before.topology != after.topology
            || before.trainingGroup != after.trainingGroup);
    changes.setFlag(ScenarioChange::Layout, before.training.layout != after.training.layout);
    core::TrainingConfig trainingBefore = before.training;
    trainingBefore.layout = after.training.layout; // the layout has its own flag
    changes.setFlag(ScenarioChange::Training, trainingBefore != after.training);
    changes.setFlag(ScenarioChange::Economics, before.economics != after.economics);
    changes.setFlag(ScenarioChange::Notes, before.notes != after.notes);
    changes.setFlag(
        ScenarioChange::Topology, before.topology != after.topology || before.trainingGroup != after.trainingGroup);
    changes.setFlag(ScenarioChange::Workload, before.workload != after.workload);
    return changes;
}

} // namespace clusterplanner::ui
