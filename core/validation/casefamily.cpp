// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/validation/casefamily.h"

#include "core/model/enumnames.h"
#include "core/perf/efficiencyparams.h"

namespace clusterplanner::core {

std::string CaseFamily::label() const
{
    return framework + " · " + gpuFamily + " · " + (moe ? "MoE" : "dense");
}

CaseFamily caseFamily(const Scenario& scenario)
{
    CaseFamily family;
    family.framework = toString(scenario.training.framework);
    family.gpuFamily = perf::EfficiencyTable::builtin().forGpu(scenario.cluster.gpuId).family;
    family.moe = scenario.model.moe.has_value();
    family.gpus = scenario.cluster.gpuCount;
    return family;
}

} // namespace clusterplanner::core
