// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/probe/probejson.h"

#include <nlohmann/json.hpp>

namespace clusterplanner::core::probe {

namespace {

template <typename T>
nlohmann::json orNull(const std::optional<T>& value)
{
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

nlohmann::json mebibytes(const std::optional<std::uint64_t>& bytes)
{
    return bytes ? nlohmann::json(*bytes / (1024 * 1024)) : nlohmann::json(nullptr);
}

nlohmann::json reasons(const std::vector<Unavailable>& notes)
{
    auto object = nlohmann::json::object();
    for (const auto& note : notes)
        if (!object.contains(note.field))
            object[note.field] = note.reason;
    return object;
}

nlohmann::json peerJson(const PeerLink& peer)
{
    return {{"peer", peer.peerIndex}, {"nvlink_links", peer.nvlinkLinks}, {"via_nvswitch", peer.viaNvSwitch},
        {"nvlink_version", orNull(peer.nvlinkVersion)}, {"p2p_read", orNull(peer.p2pRead)},
        {"p2p_nvlink", orNull(peer.p2pNvlink)}, {"common_ancestor", ancestorName(peer.ancestor)}};
}

nlohmann::json computeCapability(const GpuProbe& gpu)
{
    if (!gpu.computeMajor || !gpu.computeMinor)
        return nullptr;
    return std::to_string(*gpu.computeMajor) + "." + std::to_string(*gpu.computeMinor);
}

} // namespace

std::string ancestorName(CommonAncestor ancestor)
{
    switch (ancestor) {
    case CommonAncestor::Internal:
        return "same board";
    case CommonAncestor::Single:
        return "same PCIe switch";
    case CommonAncestor::Multiple:
        return "PCIe switches";
    case CommonAncestor::HostBridge:
        return "host bridge";
    case CommonAncestor::Node:
        return "NUMA node";
    case CommonAncestor::System:
        return "system (across NUMA nodes)";
    case CommonAncestor::Unknown:
        break;
    }
    return "unknown";
}

nlohmann::json toJson(const GpuProbe& gpu)
{
    nlohmann::json peers = nlohmann::json::array();
    for (const auto& peer : gpu.peers)
        peers.push_back(peerJson(peer));
    return {{"index", gpu.index}, {"lost", gpu.lost}, {"name", gpu.name}, {"uuid", gpu.uuid},
        {"pci_bus_id", gpu.pciBusId}, {"compute_capability", computeCapability(gpu)}, {"sm_count", orNull(gpu.smCount)},
        {"memory_total_mib", mebibytes(gpu.memoryTotalBytes)},
        {"memory_reserved_mib", mebibytes(gpu.memoryReservedBytes)},
        {"memory_free_mib", mebibytes(gpu.memoryFreeBytes)},
        {"cuda_total_memory_mib", mebibytes(gpu.cudaTotalMemoryBytes)}, {"sm_clock_max_mhz", orNull(gpu.smClockMaxMHz)},
        {"memory_clock_max_mhz", orNull(gpu.memoryClockMaxMHz)}, {"sm_clock_mhz", orNull(gpu.smClockMHz)},
        {"memory_clock_mhz", orNull(gpu.memoryClockMHz)}, {"memory_bus_width_bits", orNull(gpu.memoryBusWidthBits)},
        {"power_limit_default_w", orNull(gpu.powerLimitDefaultW)},
        {"power_limit_enforced_w", orNull(gpu.powerLimitEnforcedW)}, {"power_draw_w", orNull(gpu.powerDrawW)},
        {"pcie_generation_max", orNull(gpu.pcieGenerationMax)}, {"pcie_width_max", orNull(gpu.pcieWidthMax)},
        {"pcie_generation", orNull(gpu.pcieGeneration)}, {"pcie_width", orNull(gpu.pcieWidth)},
        {"mig_enabled", orNull(gpu.migEnabled)}, {"ecc_enabled", orNull(gpu.eccEnabled)},
        {"temperature_c", orNull(gpu.temperatureC)}, {"utilization_gpu_percent", orNull(gpu.utilizationGpuPercent)},
        {"utilization_memory_percent", orNull(gpu.utilizationMemoryPercent)},
        {"nvlink_active_links", gpu.nvlinkActiveLinks}, {"nvlink_switch_links", gpu.nvlinkSwitchLinks},
        {"peers", peers}, {"unavailable", reasons(gpu.unavailable)}};
}

nlohmann::json toJson(const ProbeResult& result)
{
    if (!result.available)
        return {{"available", false}, {"reason", result.reason}};
    nlohmann::json gpus = nlohmann::json::array();
    for (const auto& gpu : result.gpus)
        gpus.push_back(toJson(gpu));
    return {{"available", true}, {"driver_version", orNull(result.driverVersion)},
        {"cuda_driver_version", orNull(result.cudaDriverVersion)}, {"nvml_library", result.nvmlLibrary},
        {"cuda_library", result.cudaLibrary}, {"gpus", gpus}, {"unavailable", reasons(result.unavailable)}};
}

} // namespace clusterplanner::core::probe
