// SPDX-License-Identifier: GPL-3.0-or-later
// CUDA's view of the GPUs: SM count, memory as cuDeviceTotalMem_v2 sees it, bus width, driver version.
#pragma once

#include "core/probe/cudaapi.h"
#include "core/probe/probetypes.h"

namespace clusterplanner::core::probe {

/// Merges CUDA's answers into result.gpus (matched by PCI bus id, else by ordinal); adds a GPU per CUDA device
/// when NVML found none. A stub libcuda (CUDA_ERROR_STUB_LIBRARY) or a failed cuInit lands in result.unavailable.
void readCuda(const CudaApi& api, ProbeResult& result);

} // namespace clusterplanner::core::probe
