// SPDX-License-Identifier: GPL-3.0-or-later
// The part of the CUDA driver API the probe and the micro-benchmarks call, declared here (no cuda.h).
#pragma once

#include "core/probe/sharedlibrary.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace clusterplanner::core::probe {

namespace cuda {

using Result = int; ///< CUresult, 0 = success
using Device = int; ///< CUdevice
using Context = struct Context_st*;
using Module = struct Module_st*;
using Function = struct Function_st*;
using Event = struct Event_st*;
using Stream = struct Stream_st*;
using DevicePtr = std::uint64_t; ///< CUdeviceptr (64-bit with the _v2 ABI)

inline constexpr Result kSuccess = 0;
inline constexpr Result kStubLibrary = 34;
inline constexpr Result kNoDevice = 100;

/// CUdevice_attribute values the probe asks for.
inline constexpr int kAttrClockRateKHz = 13;
inline constexpr int kAttrSmCount = 16;
inline constexpr int kAttrEccEnabled = 32;
inline constexpr int kAttrMemoryClockKHz = 36;
inline constexpr int kAttrMemoryBusWidthBits = 37;
inline constexpr int kAttrComputeMajor = 75;
inline constexpr int kAttrComputeMinor = 76;

/// "STUB_LIBRARY (34)": the name of a result code where the probe knows it.
std::string resultName(Result code);

} // namespace cuda

/// libcuda.so.1, loaded at run time. A pointer is null when the library lacks that symbol.
struct CudaApi
{
    explicit CudaApi(const std::string& path);

    SharedLibrary library;
    cuda::Result (*init)(unsigned) = nullptr;
    cuda::Result (*driverVersion)(int*) = nullptr;
    cuda::Result (*deviceCount)(int*) = nullptr;
    cuda::Result (*deviceGet)(cuda::Device*, int) = nullptr;
    cuda::Result (*deviceName)(char*, int, cuda::Device) = nullptr;
    cuda::Result (*deviceTotalMem)(std::size_t*, cuda::Device) = nullptr; ///< cuDeviceTotalMem_v2
    cuda::Result (*deviceAttribute)(int*, int, cuda::Device) = nullptr;
    cuda::Result (*devicePciBusId)(char*, int, cuda::Device) = nullptr;

    // Micro-benchmarks (methods-probe.md §10.3).
    cuda::Result (*primaryCtxRetain)(cuda::Context*, cuda::Device) = nullptr;
    cuda::Result (*primaryCtxRelease)(cuda::Device) = nullptr; ///< cuDevicePrimaryCtxRelease_v2
    cuda::Result (*ctxSetCurrent)(cuda::Context) = nullptr;
    cuda::Result (*ctxSynchronize)() = nullptr;
    cuda::Result (*memAlloc)(cuda::DevicePtr*, std::size_t) = nullptr; ///< cuMemAlloc_v2
    cuda::Result (*memFree)(cuda::DevicePtr) = nullptr; ///< cuMemFree_v2
    cuda::Result (*memAllocHost)(void**, std::size_t) = nullptr; ///< cuMemAllocHost_v2 (pinned)
    cuda::Result (*memFreeHost)(void*) = nullptr;
    cuda::Result (*memcpyDtoD)(cuda::DevicePtr, cuda::DevicePtr, std::size_t) = nullptr; ///< _v2
    cuda::Result (*memcpyHtoD)(cuda::DevicePtr, const void*, std::size_t) = nullptr; ///< _v2
    cuda::Result (*memcpyPeer)(cuda::DevicePtr, cuda::Context, cuda::DevicePtr, cuda::Context, std::size_t) = nullptr;
    cuda::Result (*eventCreate)(cuda::Event*, unsigned) = nullptr;
    cuda::Result (*eventRecord)(cuda::Event, cuda::Stream) = nullptr;
    cuda::Result (*eventSynchronize)(cuda::Event) = nullptr;
    cuda::Result (*eventElapsed)(float*, cuda::Event, cuda::Event) = nullptr; ///< _v2 (12.8+), else v1
    cuda::Result (*eventDestroy)(cuda::Event) = nullptr; ///< cuEventDestroy_v2
    cuda::Result (*moduleLoadData)(cuda::Module*, const void*) = nullptr;
    cuda::Result (*moduleUnload)(cuda::Module) = nullptr;
    cuda::Result (*moduleFunction)(cuda::Function*, cuda::Module, const char*) = nullptr;
    cuda::Result (*launchKernel)(cuda::Function, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
        cuda::Stream, void**, void**)
        = nullptr;
};

} // namespace clusterplanner::core::probe
