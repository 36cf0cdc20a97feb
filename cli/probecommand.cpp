// SPDX-License-Identifier: GPL-3.0-or-later
// `clusterplanner probe [--json] [--bench]`: the GPUs of this machine (core/probe). Exit 3 when there are none.
#include "cli/arguments.h"
#include "cli/commandlist.h"
#include "core/probe/gpuprobe.h"
#include "core/probe/microbench.h"
#include "core/probe/probejson.h"
#include "core/probe/probetext.h"

#include <nlohmann/json.hpp>

#include <ostream>

namespace clusterplanner::cli {

using namespace clusterplanner::core; // commands are thin wrappers over the engine

namespace {

constexpr int kNoGpuExitCode = 3;

} // namespace

int runProbe(const Args& args, std::ostream& out, std::ostream& err)
{
    Arguments arguments(args);
    const bool asJson = arguments.flag("--json");
    const bool bench = arguments.flag("--bench");
    arguments.finish();
    const auto options = probe::ProbeOptions::fromEnvironment();
    const auto result = probe::probeMachine(options);
    const auto benchmarks
        = bench && result.available ? probe::runBenchmarks(options, result, {}) : std::vector<probe::BenchResult> {};
    if (asJson) {
        auto document = probe::toJson(result);
        if (bench && result.available)
            document["benchmarks"] = probe::toJson(benchmarks);
        out << document.dump(2) << "\n";
    } else if (result.available) {
        out << probe::describe(result, probe::ProbeCatalog {}) << probe::describe(benchmarks);
    } else {
        err << "clusterplanner probe: " << result.reason << "\n";
    }
    return result.available ? 0 : kNoGpuExitCode;
}

} // namespace clusterplanner::cli
