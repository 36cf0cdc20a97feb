// SPDX-License-Identifier: GPL-3.0-or-later
// Probes the NVIDIA GPUs of this machine through NVML and the CUDA driver API, loaded at run time.
#pragma once

#include "core/probe/probetypes.h"

#include <string>

namespace clusterplanner::core::probe {

/// Which libraries to load. Tests point these at fake libraries built in the test tree.
struct ProbeOptions
{
    std::string nvmlLibrary = "libnvidia-ml.so.1";
    std::string cudaLibrary = "libcuda.so.1";
    /// The defaults, overridden by CLUSTERPLANNER_NVML_LIBRARY and CLUSTERPLANNER_CUDA_LIBRARY when set.
    static ProbeOptions fromEnvironment();
};

/// Reads every GPU and the topology; never throws for a missing library, symbol or unsupported query.
/// available is false, with a one-line reason, when no GPU could be read at all.
ProbeResult probeMachine(const ProbeOptions& options);

} // namespace clusterplanner::core::probe
