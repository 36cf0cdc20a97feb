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

void resolveDevice(NvmlApi& api)
{
    const auto& l = api.library;
    l.resolve(api.name, {"nvmlDeviceGetName"});
    l.resolve(api.uuid, {"nvmlDeviceGetUUID"});
    l.resolve(api.pciInfo, {"nvmlDeviceGetPciInfo_v3"});
    l.resolve(api.computeCapability, {"nvmlDeviceGetCudaComputeCapability"});
    l.resolve(api.memoryInfoV2, {"nvmlDeviceGetMemoryInfo_v2"});
    l.resolve(api.memoryInfoV1, {"nvmlDeviceGetMemoryInfo"});
    l.resolve(api.clock, {"nvmlDeviceGetClockInfo"});
    l.resolve(api.maxClock, {"nvmlDeviceGetMaxClockInfo"});
    l.resolve(api.powerDefaultLimit, {"nvmlDeviceGetPowerManagementDefaultLimit"});
    l.resolve(api.powerEnforcedLimit, {"nvmlDeviceGetEnforcedPowerLimit"});
    l.resolve(api.powerUsage, {"nvmlDeviceGetPowerUsage"});
    l.resolve(api.pcieGenMax, {"nvmlDeviceGetMaxPcieLinkGeneration"});
    l.resolve(api.pcieWidthMax, {"nvmlDeviceGetMaxPcieLinkWidth"});
    l.resolve(api.pcieGen, {"nvmlDeviceGetCurrPcieLinkGeneration"});
    l.resolve(api.pcieWidth, {"nvmlDeviceGetCurrPcieLinkWidth"});
    l.resolve(api.migMode, {"nvmlDeviceGetMigMode"});
    l.resolve(api.eccMode, {"nvmlDeviceGetEccMode"});
    l.resolve(api.temperature, {"nvmlDeviceGetTemperature"});
    l.resolve(api.utilization, {"nvmlDeviceGetUtilizationRates"});
}

void resolveTopology(NvmlApi& api)
{
    const auto& l = api.library;
    l.resolve(api.nvlinkState, {"nvmlDeviceGetNvLinkState"});
    l.resolve(api.nvlinkVersion, {"nvmlDeviceGetNvLinkVersion"});
    l.resolve(api.nvlinkRemotePci, {"nvmlDeviceGetNvLinkRemotePciInfo_v2"});
    l.resolve(api.nvlinkRemoteType, {"nvmlDeviceGetNvLinkRemoteDeviceType"});
    l.resolve(api.commonAncestor, {"nvmlDeviceGetTopologyCommonAncestor"});
    l.resolve(api.p2pStatus, {"nvmlDeviceGetP2PStatus"});
}

} // namespace

NvmlApi::NvmlApi(const std::string& path)
    : library(path)
{
    if (!library.isLoaded())
        return;
    // The plain names of these are the pre-v2 ABI (nvmlInit skips GPUs it cannot attach to; methods-probe.md §10).
    library.resolve(init, {"nvmlInit_v2"});
    library.resolve(shutdown, {"nvmlShutdown"});
    library.resolve(deviceCount, {"nvmlDeviceGetCount_v2"});
    library.resolve(handleByIndex, {"nvmlDeviceGetHandleByIndex_v2"});
    library.resolve(driverVersion, {"nvmlSystemGetDriverVersion"});
    library.resolve(cudaDriverVersion, {"nvmlSystemGetCudaDriverVersion_v2", "nvmlSystemGetCudaDriverVersion"});
    resolveDevice(*this);
    resolveTopology(*this);
}

} // namespace clusterplanner::core::probe
