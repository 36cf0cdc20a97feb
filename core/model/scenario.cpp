// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/scenario.h"

#include "core/cluster/trainingview.h"
#include "core/model/gpucatalog.h"
#include "core/model/modelpresets.h"

namespace clusterplanner::core {

Scenario defaultScenario()
{
    Scenario scenario;
    scenario.name = "Llama 3 70B on 256 H100";
    scenario.model = modelPreset("Llama 3 70B");
    scenario.cluster.gpuId = "H100-SXM-80GB";
    scenario.cluster.gpuCount = 256;
    scenario.cluster.gpusPerNode = 8;
    scenario.training.globalBatch = 512;
    scenario.training.microBatch = 1;
    scenario.training.layout = ParallelLayout {8, 8, 4, 1, 1, 5, true};
    scenario.training.schedule = PipelineSchedule::Interleaved;
    scenario.economics.trainingTokens = 2.0e12;
    cluster::adoptClusterView(scenario, GpuCatalog::builtin());
    cluster::syncTrainingView(scenario);
    scenario.notes = "Default scenario: a Llama 3 70B pre-training run on 32 HGX H100 nodes.";
    return scenario;
}

} // namespace clusterplanner::core
