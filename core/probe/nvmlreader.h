// SPDX-License-Identifier: GPL-3.0-or-later
// Reads one GPU's identity, memory, clocks, power, PCIe, modes and NVLink ends through NVML.
#pragma once

#include "core/probe/nvmlapi.h"
#include "core/probe/probetypes.h"

#include <string>
#include <vector>

namespace clusterplanner::core::probe {

/// The far end of one active NVLink.
struct NvLinkEnd
{
    std::string remoteBusId; ///< normalised (see normaliseBusId)
    bool remoteIsSwitch = false;
    std::optional<int> version;
};

/// Fills gpu from NVML; every field it cannot read lands in gpu.unavailable, GPU_IS_LOST sets gpu.lost.
void readNvmlGpu(const NvmlApi& api, nvml::Device device, GpuProbe& gpu);
/// The GPU's active NVLinks (links 0..17, stopping at the first INVALID_ARGUMENT / NOT_SUPPORTED).
std::vector<NvLinkEnd> readNvLinks(const NvmlApi& api, nvml::Device device, GpuProbe& gpu);
/// "0000:18:00.0" and "00000000:18:00.0" alike become "0:18:00.0" (lower case, domain without leading zeros),
/// so CUDA's and NVML's spellings of one bus id compare equal.
std::string normaliseBusId(const std::string& busId);

} // namespace clusterplanner::core::probe
