// SPDX-License-Identifier: GPL-3.0-or-later
// The engine's error value: which input is wrong and why, returned instead of thrown (docs/methods-model.md, Errors).
#pragma once

#include "core/model/gpucatalog.h"
#include "core/model/scenario.h"

#include <optional>
#include <string>

namespace clusterplanner::core {

/// A scenario the engine cannot evaluate. field is the dotted path of the input at fault as the file format names
/// it (e.g. "cluster.gpu", "training.global_batch"), or empty when no single field is to blame.
struct EvaluationError
{
    std::string field;
    std::string message; ///< what is wrong, with the numbers involved

    /// "field: message", or the message alone.
    std::string text() const { return field.empty() ? message : field + ": " + message; }
};

/// The reader's verdict on a scenario (core/io/scenariojson.h is the one definition of a valid field): nullopt
/// when every field is in range, else the first field at fault. Never throws.
std::optional<EvaluationError> checkScenarioFields(const Scenario& scenario);

/// The scenario's GPU is not in the catalog: named at the key its file states it (cluster::trainingGpuField).
EvaluationError unknownGpuError(const Scenario& scenario);

/// A precision the scenario's GPU cannot train in: FP8 on a GPU without FP8 tensor cores (A100, V100, MI250X, TPU
/// v4), which Transformer Engine and torchao refuse (compute capability 8.9 or later). nullopt when it can.
std::optional<EvaluationError> precisionError(const Scenario& scenario, const GpuSpec& gpu);

/// Everything in a scenario's input that ends its evaluation, the first found: a field out of range, a GPU the
/// catalog lacks (gpu null), a precision that GPU cannot train in. nullopt when the scenario can be evaluated.
std::optional<EvaluationError> scenarioInputError(const Scenario& scenario, const GpuSpec* gpu);

} // namespace clusterplanner::core
