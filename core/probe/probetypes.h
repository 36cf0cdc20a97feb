// SPDX-License-Identifier: GPL-3.0-or-later
// What the GPU probe read from NVML and the CUDA driver API: plain values, each optional with the reason it is not.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clusterplanner::core::probe {

/// One field the probe could not read, and why (missing symbol, NOT_SUPPORTED, GPU lost ...).
struct Unavailable
{
    std::string field; ///< JSON key of the field, e.g. "memory_reserved_bytes"
    std::string reason;
};

/// Where two GPUs meet on the PCIe tree (nvmlGpuTopologyLevel_t, methods-probe.md §10).
enum class CommonAncestor { Internal, Single, Multiple, HostBridge, Node, System, Unknown };

/// One GPU's view of another GPU.
struct PeerLink
{
    int peerIndex = -1;
    int nvlinkLinks = 0; ///< links whose remote end is this peer (direct GPU-to-GPU NVLink)
    bool viaNvSwitch = false; ///< both GPUs have active links to an NVSwitch and NVML reports NVLink P2P
    std::optional<int> nvlinkVersion;
    std::optional<bool> p2pRead; ///< nvmlDeviceGetP2PStatus(READ) == OK
    std::optional<bool> p2pNvlink; ///< nvmlDeviceGetP2PStatus(NVLINK) == OK
    CommonAncestor ancestor = CommonAncestor::Unknown;
};

struct GpuProbe
{
    int index = 0; ///< NVML index
    bool lost = false; ///< NVML answered GPU_IS_LOST: the fields after that call stay empty
    std::string name;
    std::string uuid;
    std::string pciBusId; ///< "00000000:18:00.0"
    std::optional<int> computeMajor;
    std::optional<int> computeMinor;
    std::optional<int> smCount; ///< from CUDA (MULTIPROCESSOR_COUNT); NVML has no SM count
    std::optional<std::uint64_t> memoryTotalBytes; ///< NVML total: what nvidia-smi shows as "Total"
    std::optional<std::uint64_t> memoryReservedBytes; ///< NVML v2 only: the driver's own reserve
    std::optional<std::uint64_t> memoryFreeBytes;
    std::optional<std::uint64_t> cudaTotalMemoryBytes; ///< cuDeviceTotalMem_v2
    std::optional<int> smClockMaxMHz;
    std::optional<int> memoryClockMaxMHz;
    std::optional<int> smClockMHz;
    std::optional<int> memoryClockMHz;
    std::optional<int> memoryBusWidthBits; ///< CUDA GLOBAL_MEMORY_BUS_WIDTH
    std::optional<double> powerLimitDefaultW;
    std::optional<double> powerLimitEnforcedW;
    std::optional<double> powerDrawW;
    std::optional<int> pcieGenerationMax;
    std::optional<int> pcieWidthMax;
    std::optional<int> pcieGeneration;
    std::optional<int> pcieWidth;
    std::optional<bool> migEnabled;
    std::optional<bool> eccEnabled;
    std::optional<int> temperatureC;
    std::optional<int> utilizationGpuPercent;
    std::optional<int> utilizationMemoryPercent;
    int nvlinkActiveLinks = 0;
    int nvlinkSwitchLinks = 0; ///< active links whose remote end is an NVSwitch
    std::vector<PeerLink> peers;
    std::vector<Unavailable> unavailable;

    double memoryTotalMiB() const { return memoryTotalBytes ? double(*memoryTotalBytes) / (1024.0 * 1024.0) : 0; }
    /// Peak memory bandwidth from the maximum memory clock and the bus width: 2 transfers per clock (DDR); NVML's
    /// GDDR memory clock already counts the data rate's other factor.
    std::optional<double> memoryBandwidthTBs() const
    {
        if (!memoryClockMaxMHz || !memoryBusWidthBits)
            return std::nullopt;
        return 2.0 * *memoryClockMaxMHz * 1e6 * *memoryBusWidthBits / 8.0 / 1e12;
    }
};

struct ProbeResult
{
    bool available = false; ///< at least one GPU was read
    std::string reason; ///< why not, one line, when !available
    std::string nvmlLibrary; ///< path or soname that was loaded, empty when none
    std::string cudaLibrary;
    std::optional<std::string> driverVersion; ///< "580.159.04"
    std::optional<int> cudaDriverVersion; ///< 1000·major + 10·minor, e.g. 13000
    std::vector<GpuProbe> gpus;
    std::vector<Unavailable> unavailable; ///< system-wide: a library or system query
};

} // namespace clusterplanner::core::probe
