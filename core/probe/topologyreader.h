// SPDX-License-Identifier: GPL-3.0-or-later
// The GPU-to-GPU topology: NVLink per peer (direct or through NVSwitch), P2P status and common PCIe ancestor.
#pragma once

#include "core/probe/nvmlreader.h"

#include <vector>

namespace clusterplanner::core::probe {

/// Fills gpus[i].peers for every other GPU; devices[i] and links[i] belong to gpus[i]. Lost GPUs are skipped.
void readTopology(const NvmlApi& api, const std::vector<nvml::Device>& devices,
    const std::vector<std::vector<NvLinkEnd>>& links, std::vector<GpuProbe>& gpus);

/// nvmlGpuTopologyLevel_t (0, 10, 20 ... 50) as an enum; Unknown for anything else.
CommonAncestor ancestorFromLevel(int level);

} // namespace clusterplanner::core::probe
