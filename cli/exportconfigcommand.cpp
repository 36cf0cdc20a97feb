// SPDX-License-Identifier: GPL-3.0-or-later
// clusterplanner export-config --scenario F --framework NAME [--out FILE]: the launch configuration of the
// scenario's layout for Megatron-LM, Megatron-Bridge (NeMo), torchtitan or DeepSpeed.
#include "cli/arguments.h"
#include "cli/commandlist.h"
#include "core/evaluation/evaluationerror.h"
#include "core/io/scenariojson.h"
#include "core/launch/launchconfig.h"
#include "core/model/gpucatalog.h"

#include <fstream>
#include <ostream>
#include <stdexcept>

namespace clusterplanner::cli {

using namespace clusterplanner::core; // commands are thin wrappers over the engine

namespace {

launch::LaunchFramework frameworkArgument(Arguments& arguments)
{
    const std::string name = arguments.required("--framework");
    if (const auto framework = launch::launchFrameworkFromString(name))
        return *framework;
    throw UsageError("--framework: unknown value \"" + name + "\" (one of " + launch::launchFrameworkNames() + ")");
}

void writeFile(const std::string& path, const std::string& text)
{
    std::ofstream file(path, std::ios::binary);
    if (!(file << text) || !file.flush())
        throw UsageError("--out: cannot write " + path);
}

} // namespace

int runExportConfig(const Args& args, std::ostream& out, std::ostream& err)
{
    Arguments arguments(args);
    const std::string path = arguments.required("--scenario");
    const launch::LaunchFramework framework = frameworkArgument(arguments);
    const auto outPath = arguments.value("--out");
    arguments.finish();
    const Scenario scenario = readScenarioFile(readTextFile(path));
    // The config's notes and refusals follow the estimate, which knows nothing of a GPU outside the catalog.
    const GpuSpec* gpu = GpuCatalog::builtin().find(scenario.cluster.gpuId);
    if (!gpu)
        throw std::runtime_error(path + ": " + unknownGpuError(scenario).text());
    // Nor does a launch config for a precision the GPU cannot run (FP8 without FP8 tensor cores) get written.
    if (const auto error = precisionError(scenario, *gpu))
        throw std::runtime_error(path + ": " + error->text());
    const launch::LaunchFile file = launch::makeLaunchConfig(scenario, framework);
    if (outPath) {
        writeFile(*outPath, file.text);
        out << "launch: " << file.launchLine << "\n";
    } else {
        out << file.text; // stdout stays parseable; the launch line goes beside it
        err << "launch: " << file.launchLine << "\n";
    }
    for (const auto& note : file.notes)
        err << "note: " << note << "\n";
    return 0;
}

} // namespace clusterplanner::cli
