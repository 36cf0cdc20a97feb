// SPDX-License-Identifier: GPL-3.0-or-later
// The family a run belongs to for error reporting and confidence bands: framework × GPU generation × dense/MoE
// (docs/validation.md "Per family"; core/validation/confidence.h).
#pragma once

#include "core/model/scenario.h"

#include <string>

namespace clusterplanner::core {

struct CaseFamily
{
    std::string framework; ///< data/frameworks.json id, e.g. "torchtitan"
    std::string gpuFamily; ///< data/efficiency.json family of the GPU, e.g. "Hopper" ("default" when not listed)
    bool moe = false;
    int gpus = 0; ///< scale of the run (not part of the key; bands report the validated range)

    /// "torchtitan · Hopper · dense"
    std::string label() const;
    bool sameKey(const CaseFamily& other) const
    {
        return framework == other.framework && gpuFamily == other.gpuFamily && moe == other.moe;
    }
};

CaseFamily caseFamily(const Scenario& scenario);

} // namespace clusterplanner::core
