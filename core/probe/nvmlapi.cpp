// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/probe/nvmlapi.h"

#include <map>

namespace clusterplanner::core::probe {

namespace nvml {

std::string returnName(Return code)
{
    static const std::map<Return, const char*> names
        = {{1, "UNINITIALIZED"}, {2, "INVALID_ARGUMENT"}, {3, "NOT_SUPPORTED"}, {4, "NO_PERMISSION"}, {6, "NOT_FOUND"},
            {9, "DRIVER_NOT_LOADED"}, {12, "LIBRARY_NOT_FOUND"}, {13, "FUNCTION_NOT_FOUND"}, {15, "GPU_IS_LOST"},
            {25, "ARGUMENT_VERSION_MISMATCH"}, {999, "UNKNOWN"}};
    auto it = names.find(code);
    return std::string(it == names.end() ? "NVML error" : it->second) + " (" + std::to_string(code) + ")";
}

} // namespace nvml

namespace {

/// The first of the names the library exports: versioned names first, the older ABI as the fallback.
template <typename Function>
void resolve(const SharedLibrary& library, Function& function, std::initializer_list<const char*> names)
{
    for (const char* name : names)
        if ((function = library.function<Function>(name)))
            return;
}

void resolveDevice(NvmlApi& api)
{
    const auto& l = api.library;
    resolve(l, api.name, {"nvmlDeviceGetName"});
    resolve(l, api.uuid, {"nvmlDeviceGetUUID"});
    resolve(l, api.pciInfo, {"nvmlDeviceGetPciInfo_v3"});
    resolve(l, api.computeCapability, {"nvmlDeviceGetCudaComputeCapability"});
    resolve(l, api.memoryInfoV2, {"nvmlDeviceGetMemoryInfo_v2"});
    resolve(l, api.memoryInfoV1, {"nvmlDeviceGetMemoryInfo"});
    resolve(l, api.clock, {"nvmlDeviceGetClockInfo"});
    resolve(l, api.maxClock, {"nvmlDeviceGetMaxClockInfo"});
    resolve(l, api.powerDefaultLimit, {"nvmlDeviceGetPowerManagementDefaultLimit"});
    resolve(l, api.powerEnforcedLimit, {"nvmlDeviceGetEnforcedPowerLimit"});
    resolve(l, api.powerUsage, {"nvmlDeviceGetPowerUsage"});
    resolve(l, api.pcieGenMax, {"nvmlDeviceGetMaxPcieLinkGeneration"});
    resolve(l, api.pcieWidthMax, {"nvmlDeviceGetMaxPcieLinkWidth"});
    resolve(l, api.pcieGen, {"nvmlDeviceGetCurrPcieLinkGeneration"});
    resolve(l, api.pcieWidth, {"nvmlDeviceGetCurrPcieLinkWidth"});
    resolve(l, api.migMode, {"nvmlDeviceGetMigMode"});
    resolve(l, api.eccMode, {"nvmlDeviceGetEccMode"});
    resolve(l, api.temperature, {"nvmlDeviceGetTemperature"});
    resolve(l, api.utilization, {"nvmlDeviceGetUtilizationRates"});
}

void resolveTopology(NvmlApi& api)
{
    const auto& l = api.library;
    resolve(l, api.nvlinkState, {"nvmlDeviceGetNvLinkState"});
    resolve(l, api.nvlinkVersion, {"nvmlDeviceGetNvLinkVersion"});
    resolve(l, api.nvlinkRemotePci, {"nvmlDeviceGetNvLinkRemotePciInfo_v2"});
    resolve(l, api.nvlinkRemoteType, {"nvmlDeviceGetNvLinkRemoteDeviceType"});
    resolve(l, api.commonAncestor, {"nvmlDeviceGetTopologyCommonAncestor"});
    resolve(l, api.p2pStatus, {"nvmlDeviceGetP2PStatus"});
}

} // namespace

NvmlApi::NvmlApi(const std::string& path)
    : library(path)
{
    if (!library.isLoaded())
        return;
    // The plain names of these are the pre-v2 ABI (nvmlInit skips GPUs it cannot attach to; methods-probe.md §10).
    resolve(library, init, {"nvmlInit_v2"});
    resolve(library, shutdown, {"nvmlShutdown"});
    resolve(library, deviceCount, {"nvmlDeviceGetCount_v2"});
    resolve(library, handleByIndex, {"nvmlDeviceGetHandleByIndex_v2"});
    resolve(library, driverVersion, {"nvmlSystemGetDriverVersion"});
    resolve(library, cudaDriverVersion, {"nvmlSystemGetCudaDriverVersion_v2", "nvmlSystemGetCudaDriverVersion"});
    resolveDevice(*this);
    resolveTopology(*this);
}

} // namespace clusterplanner::core::probe
