// SPDX-License-Identifier: GPL-3.0-or-later
// Every purchase figure as JSON with plainly named keys and units (bisection_gbps, it_power_kw, tco_usd, ...):
// what `clusterplanner cost --json` prints under "cluster" and "training_run" (docs/methods-cluster.md §8).
#pragma once

#include "core/evaluation/purchasefigures.h"

#include <nlohmann/json_fwd.hpp>

namespace clusterplanner::core::evaluation {

nlohmann::json clusterFiguresJson(const cluster::ClusterFigures& figures);
nlohmann::json trainingRunJson(const TrainingRunFigures& run);

} // namespace clusterplanner::core::evaluation
