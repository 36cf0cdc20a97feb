// SPDX-License-Identifier: GPL-3.0-or-later
// Everything an infra lead compares between purchases: the cluster's derived figures plus the scenario's training
// run on its training group, through the engine (time to train, energy, $ per million tokens).
#pragma once

#include "core/cluster/clusterfigures.h"
#include "core/evaluation/expected.h"

namespace clusterplanner::core {
struct Scenario;
}

namespace clusterplanner::core::evaluation {

struct TrainingRunFigures
{
    bool fits = false; ///< the scenario's layout fits and is valid on the training group, in a precision it has
    std::string whyNot; ///< set when !fits
    double tokensPerS = 0;
    double mfu = 0;
    double timeToTrainDays = 0; ///< economics.trainingTokens / tokens/s
    double energyMwh = 0; ///< facility energy of the run (PUE included) on the GPUs it uses
    double ownedUsdPerMillionTokens = 0; ///< amortised capex + opex of the GPUs the run uses
    double cloudUsdPerMillionTokens = 0; ///< economics.gpuHourUsd × GPU-hours
};

struct PurchaseFigures
{
    cluster::ClusterFigures cluster;
    TrainingRunFigures run;
};

/// The one function the topology panel, the purchase panel and `cost` call. An error where the
/// cluster cannot be read (a field out of range, a GPU the catalog lacks); a training run the engine refuses (FP8 on
/// a GPU without it) keeps the cluster's figures, with the refusal as the run's whyNot.
Expected<PurchaseFigures> purchaseFigures(const Scenario& scenario);

} // namespace clusterplanner::core::evaluation
