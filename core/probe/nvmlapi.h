// SPDX-License-Identifier: GPL-3.0-or-later
// The part of NVML the probe calls, declared here from NVIDIA's API reference (no nvml.h; methods-probe.md §10).
#pragma once

#include "core/probe/sharedlibrary.h"

#include <cstdint>
#include <string>

namespace clusterplanner::core::probe {

namespace nvml {

using Device = struct Device_st*; ///< nvmlDevice_t, opaque
using Return = int; ///< nvmlReturn_t, 0 = success

inline constexpr Return kSuccess = 0;
inline constexpr Return kInvalidArgument = 2;
inline constexpr Return kNotSupported = 3;
inline constexpr Return kGpuIsLost = 15;
inline constexpr Return kFunctionNotFound = 13; ///< what the probe reports for a symbol the library lacks

inline constexpr int kMaxNvLinks = 18; ///< NVML_NVLINK_MAX_LINKS
inline constexpr int kClockSm = 1; ///< nvmlClockType_t
inline constexpr int kClockMemory = 2;
inline constexpr int kDeviceTypeSwitch = 2; ///< nvmlIntNvLinkDeviceType_t
inline constexpr int kP2PCapsRead = 0; ///< nvmlGpuP2PCapsIndex_t
inline constexpr int kP2PCapsNvlink = 2;

/// nvmlPciInfo_t (68 bytes): the v3 layout with the 32-character busId.
struct PciInfo
{
    char busIdLegacy[16];
    unsigned domain;
    unsigned bus;
    unsigned device;
    unsigned pciDeviceId;
    unsigned pciSubSystemId;
    char busId[32];
};

/// nvmlMemory_t, the v1 layout: reserved memory is folded into used.
struct MemoryV1
{
    std::uint64_t totalBytes;
    std::uint64_t freeBytes;
    std::uint64_t usedBytes;
};

/// nvmlMemory_v2_t: version word = sizeof | (2 << 24), else ARGUMENT_VERSION_MISMATCH.
struct MemoryV2
{
    unsigned version;
    std::uint64_t totalBytes;
    std::uint64_t reservedBytes;
    std::uint64_t freeBytes;
    std::uint64_t usedBytes;
};
inline constexpr unsigned kMemoryV2Version = unsigned(sizeof(MemoryV2)) | (2u << 24);

struct Utilization
{
    unsigned gpuPercent;
    unsigned memoryPercent;
};

/// "NOT_SUPPORTED (3)": the name of a return code where the probe knows it.
std::string returnName(Return code);

} // namespace nvml

/// libnvidia-ml.so.1, loaded at run time. A pointer is null when the library lacks that symbol (older driver).
struct NvmlApi
{
    explicit NvmlApi(const std::string& path);

    SharedLibrary library;
    nvml::Return (*init)() = nullptr; ///< nvmlInit_v2
    nvml::Return (*shutdown)() = nullptr;
    nvml::Return (*deviceCount)(unsigned*) = nullptr; ///< nvmlDeviceGetCount_v2
    nvml::Return (*handleByIndex)(unsigned, nvml::Device*) = nullptr; ///< nvmlDeviceGetHandleByIndex_v2
    nvml::Return (*driverVersion)(char*, unsigned) = nullptr;
    nvml::Return (*cudaDriverVersion)(int*) = nullptr; ///< nvmlSystemGetCudaDriverVersion_v2, else v1
    nvml::Return (*name)(nvml::Device, char*, unsigned) = nullptr;
    nvml::Return (*uuid)(nvml::Device, char*, unsigned) = nullptr;
    nvml::Return (*pciInfo)(nvml::Device, nvml::PciInfo*) = nullptr; ///< nvmlDeviceGetPciInfo_v3
    nvml::Return (*computeCapability)(nvml::Device, int*, int*) = nullptr;
    nvml::Return (*memoryInfoV2)(nvml::Device, nvml::MemoryV2*) = nullptr;
    nvml::Return (*memoryInfoV1)(nvml::Device, nvml::MemoryV1*) = nullptr;
    nvml::Return (*clock)(nvml::Device, int, unsigned*) = nullptr; ///< nvmlDeviceGetClockInfo
    nvml::Return (*maxClock)(nvml::Device, int, unsigned*) = nullptr;
    nvml::Return (*powerDefaultLimit)(nvml::Device, unsigned*) = nullptr; ///< mW
    nvml::Return (*powerEnforcedLimit)(nvml::Device, unsigned*) = nullptr; ///< mW
    nvml::Return (*powerUsage)(nvml::Device, unsigned*) = nullptr; ///< mW
    nvml::Return (*pcieGenMax)(nvml::Device, unsigned*) = nullptr;
    nvml::Return (*pcieWidthMax)(nvml::Device, unsigned*) = nullptr;
    nvml::Return (*pcieGen)(nvml::Device, unsigned*) = nullptr;
    nvml::Return (*pcieWidth)(nvml::Device, unsigned*) = nullptr;
    nvml::Return (*migMode)(nvml::Device, unsigned*, unsigned*) = nullptr;
    nvml::Return (*eccMode)(nvml::Device, int*, int*) = nullptr;
    nvml::Return (*temperature)(nvml::Device, int, unsigned*) = nullptr;
    nvml::Return (*utilization)(nvml::Device, nvml::Utilization*) = nullptr;
    nvml::Return (*nvlinkState)(nvml::Device, unsigned, int*) = nullptr;
    nvml::Return (*nvlinkVersion)(nvml::Device, unsigned, unsigned*) = nullptr;
    nvml::Return (*nvlinkRemotePci)(nvml::Device, unsigned, nvml::PciInfo*) = nullptr; ///< _v2
    nvml::Return (*nvlinkRemoteType)(nvml::Device, unsigned, int*) = nullptr;
    nvml::Return (*commonAncestor)(nvml::Device, nvml::Device, int*) = nullptr;
    nvml::Return (*p2pStatus)(nvml::Device, nvml::Device, int, int*) = nullptr;
};

} // namespace clusterplanner::core::probe
