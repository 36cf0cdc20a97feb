// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/evaluation/evaluationerror.h"

#include "core/cluster/trainingview.h"
#include "core/io/scenariojson.h"
#include "core/model/scenariofields.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace clusterplanner::core {

namespace {

/// The engine's view of the run (Scenario::cluster) against the table's bounds, named as the form names them: a
/// version-2 file carries the topology instead, so the round trip below would see these only as topology fields.
std::optional<EvaluationError> checkClusterView(const ClusterConfig& c)
{
    auto show = [](double value) {
        char text[32];
        std::snprintf(text, sizeof text, "%.15g", value);
        return std::string(text);
    };
    auto outside = [&](const char* path, double value) -> std::optional<EvaluationError> {
        const ScenarioField& f = scenarioField(path);
        if (!(value >= f.min))
            return EvaluationError {path, "must be at least " + show(f.min) + " (got " + show(value) + ")"};
        if (!(value <= f.max))
            return EvaluationError {path, "must be at most " + show(f.max) + " (got " + show(value) + ")"};
        return std::nullopt;
    };
    if (c.gpuId.empty()) // the topology's reader would name the node group; the engine names the view
        return EvaluationError {"cluster.gpu", "unknown GPU type \"\""};
    if (c.gpuId.size() > scenarioField("cluster.gpu").max)
        return EvaluationError {"cluster.gpu", "is longer than 64 bytes"};
    if (auto e = outside("cluster.gpu_count", c.gpuCount))
        return e;
    if (auto e = outside("cluster.gpus_per_node", c.gpusPerNode))
        return e;
    if (auto e = outside("cluster.nic_gbps", c.nicGbps))
        return e;
    if (auto e = outside("cluster.oversubscription", c.oversubscription))
        return e;
    return std::nullopt;
}

} // namespace

std::optional<EvaluationError> checkScenarioFields(const Scenario& scenario)
{
    if (auto error = checkClusterView(scenario.cluster))
        return error;
    // A round trip through the reader: whatever it rejects could not be opened again either.
    try {
        scenarioFromJson(scenarioToJson(scenario));
        return std::nullopt;
    } catch (const ScenarioFormatError& error) {
        const std::string what = error.what();
        const auto colon = what.find(": ");
        if (colon == std::string::npos)
            return EvaluationError {{}, what};
        return EvaluationError {what.substr(0, colon), what.substr(colon + 2)};
    } catch (const std::exception& error) { // e.g. a name that is not valid UTF-8 for the JSON writer
        return EvaluationError {{}, error.what()};
    }
}

EvaluationError unknownGpuError(const Scenario& scenario)
{
    return {cluster::trainingGpuField(scenario), GpuCatalog::builtin().unknownIdText(scenario.cluster.gpuId)};
}

std::optional<EvaluationError> precisionError(const Scenario& scenario, const GpuSpec& gpu)
{
    if (scenario.training.precision != Precision::Fp8 || gpu.hasFp8TensorCores())
        return std::nullopt;
    // Planning it at the 16-bit rate would give figures for a run that cannot start.
    const std::string instead = gpu.bf16Tflops ? "mixed BF16" : "mixed FP16";
    return EvaluationError {"training.precision",
        "fp8 needs FP8 tensor cores, which the " + gpu.name
            + " does not have (NVIDIA Hopper, Ada and Blackwell, AMD MI300 and Intel Gaudi 3 do; the FP8 libraries "
              "refuse other GPUs); choose "
            + instead + ", or a GPU with FP8"};
}

std::optional<EvaluationError> scenarioInputError(const Scenario& scenario, const GpuSpec* gpu)
{
    if (auto error = checkScenarioFields(scenario))
        return error;
    if (!gpu)
        return unknownGpuError(scenario);
    return precisionError(scenario, *gpu);
}

} // namespace clusterplanner::core
