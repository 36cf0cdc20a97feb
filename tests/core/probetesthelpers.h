// SPDX-License-Identifier: GPL-3.0-or-later
// Shared helpers of the probe tests: point the probe at the fake NVML / CUDA libraries and a machine description
// from tests/probe/fakes/ (paths compiled in by tests/probe/fakes/CMakeLists.txt).
#pragma once

#include "core/probe/gpuprobe.h"

#include <cstdlib>
#include <string>

namespace probetest {

inline const std::string kMissingLibrary = "libclusterplanner-absent-library.so.1";

/// Probe options for the fakes describing machine (a file name in tests/probe/fakes/); sets the environment the
/// fakes read and the one `probe` reads, so CLI runs in the same process see the same machine.
inline clusterplanner::core::probe::ProbeOptions fakeMachine(
    const std::string& machine, const std::string& nvml = FAKE_NVML_PATH, const std::string& cuda = FAKE_CUDA_PATH)
{
    const std::string config = std::string(FAKE_CONFIG_DIR) + "/" + machine;
    setenv("CLUSTERPLANNER_FAKE_GPU_CONFIG", config.c_str(), 1);
    setenv("CLUSTERPLANNER_NVML_LIBRARY", nvml.c_str(), 1);
    setenv("CLUSTERPLANNER_CUDA_LIBRARY", cuda.c_str(), 1);
    return clusterplanner::core::probe::ProbeOptions::fromEnvironment();
}

/// A machine without the NVIDIA driver: neither library can be opened.
inline clusterplanner::core::probe::ProbeOptions noDriver()
{
    return fakeMachine("h100x8.json", kMissingLibrary, kMissingLibrary);
}

} // namespace probetest
