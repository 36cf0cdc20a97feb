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

template <typename Function>
void resolve(const SharedLibrary& library, Function& function, std::initializer_list<const char*> names)
{
    for (const char* name : names)
        if ((function = library.function<Function>(name)))
            return;
}

void resolveBenchmark(CudaApi& api)
{
    const auto& l = api.library;
    resolve(l, api.primaryCtxRetain, {"cuDevicePrimaryCtxRetain"});
    resolve(l, api.primaryCtxRelease, {"cuDevicePrimaryCtxRelease_v2"});
    resolve(l, api.ctxSetCurrent, {"cuCtxSetCurrent"});
    resolve(l, api.ctxSynchronize, {"cuCtxSynchronize"});
    resolve(l, api.memAlloc, {"cuMemAlloc_v2"});
    resolve(l, api.memFree, {"cuMemFree_v2"});
    resolve(l, api.memAllocHost, {"cuMemAllocHost_v2"});
    resolve(l, api.memFreeHost, {"cuMemFreeHost"});
    resolve(l, api.memcpyDtoD, {"cuMemcpyDtoD_v2"});
    resolve(l, api.memcpyHtoD, {"cuMemcpyHtoD_v2"});
    resolve(l, api.memcpyPeer, {"cuMemcpyPeer"});
    resolve(l, api.eventCreate, {"cuEventCreate"});
    resolve(l, api.eventRecord, {"cuEventRecord"});
    resolve(l, api.eventSynchronize, {"cuEventSynchronize"});
    resolve(l, api.eventElapsed, {"cuEventElapsedTime_v2", "cuEventElapsedTime"});
    resolve(l, api.eventDestroy, {"cuEventDestroy_v2"});
    resolve(l, api.moduleLoadData, {"cuModuleLoadData"});
    resolve(l, api.moduleUnload, {"cuModuleUnload"});
    resolve(l, api.moduleFunction, {"cuModuleGetFunction"});
    resolve(l, api.launchKernel, {"cuLaunchKernel"});
}

} // namespace

CudaApi::CudaApi(const std::string& path)
    : library(path)
{
    if (!library.isLoaded())
        return;
    // Plain cuDeviceTotalMem / cuMemAlloc are the legacy 32-bit ABI: only the _v2 names are asked for.
    resolve(library, init, {"cuInit"});
    resolve(library, driverVersion, {"cuDriverGetVersion"});
    resolve(library, deviceCount, {"cuDeviceGetCount"});
    resolve(library, deviceGet, {"cuDeviceGet"});
    resolve(library, deviceName, {"cuDeviceGetName"});
    resolve(library, deviceTotalMem, {"cuDeviceTotalMem_v2"});
    resolve(library, deviceAttribute, {"cuDeviceGetAttribute"});
    resolve(library, devicePciBusId, {"cuDeviceGetPCIBusId"});
    resolveBenchmark(*this);
}

} // namespace clusterplanner::core::probe
