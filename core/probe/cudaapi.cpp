// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/probe/cudaapi.h"

#include <map>

namespace clusterplanner::core::probe {

namespace cuda {

std::string resultName(Result code)
{
    static const std::map<Result, const char*> names = {{1, "INVALID_VALUE"}, {2, "OUT_OF_MEMORY"},
        {3, "NOT_INITIALIZED"}, {34, "STUB_LIBRARY"}, {35, "INSUFFICIENT_DRIVER"}, {100, "NO_DEVICE"},
        {101, "INVALID_DEVICE"}, {218, "INVALID_PTX"}, {222, "UNSUPPORTED_PTX_VERSION"}, {500, "NOT_FOUND"}};
    auto it = names.find(code);
    return std::string(it == names.end() ? "CUDA error" : it->second) + " (" + std::to_string(code) + ")";
}

} // namespace cuda

namespace {

void resolveBenchmark(CudaApi& api)
{
    const auto& l = api.library;
    l.resolve(api.primaryCtxRetain, {"cuDevicePrimaryCtxRetain"});
    l.resolve(api.primaryCtxRelease, {"cuDevicePrimaryCtxRelease_v2"});
    l.resolve(api.ctxSetCurrent, {"cuCtxSetCurrent"});
    l.resolve(api.ctxSynchronize, {"cuCtxSynchronize"});
    l.resolve(api.memAlloc, {"cuMemAlloc_v2"});
    l.resolve(api.memFree, {"cuMemFree_v2"});
    l.resolve(api.memAllocHost, {"cuMemAllocHost_v2"});
    l.resolve(api.memFreeHost, {"cuMemFreeHost"});
    l.resolve(api.memcpyDtoD, {"cuMemcpyDtoD_v2"});
    l.resolve(api.memcpyHtoD, {"cuMemcpyHtoD_v2"});
    l.resolve(api.memcpyPeer, {"cuMemcpyPeer"});
    l.resolve(api.eventCreate, {"cuEventCreate"});
    l.resolve(api.eventRecord, {"cuEventRecord"});
    l.resolve(api.eventSynchronize, {"cuEventSynchronize"});
    l.resolve(api.eventElapsed, {"cuEventElapsedTime_v2", "cuEventElapsedTime"});
    l.resolve(api.eventDestroy, {"cuEventDestroy_v2"});
    l.resolve(api.moduleLoadData, {"cuModuleLoadData"});
    l.resolve(api.moduleUnload, {"cuModuleUnload"});
    l.resolve(api.moduleFunction, {"cuModuleGetFunction"});
    l.resolve(api.launchKernel, {"cuLaunchKernel"});
}

} // namespace

CudaApi::CudaApi(const std::string& path)
    : library(path)
{
    if (!library.isLoaded())
        return;
    // Plain cuDeviceTotalMem / cuMemAlloc are the legacy 32-bit ABI: only the _v2 names are asked for.
    library.resolve(init, {"cuInit"});
    library.resolve(driverVersion, {"cuDriverGetVersion"});
    library.resolve(deviceCount, {"cuDeviceGetCount"});
    library.resolve(deviceGet, {"cuDeviceGet"});
    library.resolve(deviceName, {"cuDeviceGetName"});
    library.resolve(deviceTotalMem, {"cuDeviceTotalMem_v2"});
    library.resolve(deviceAttribute, {"cuDeviceGetAttribute"});
    library.resolve(devicePciBusId, {"cuDeviceGetPCIBusId"});
    resolveBenchmark(*this);
}

} // namespace clusterplanner::core::probe
