// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/probe/nvmlreader.h"

#include "core/probe/fieldreader.h"

#include <algorithm>
#include <cctype>

namespace clusterplanner::core::probe {

namespace {

FieldReader readerFor(GpuProbe& gpu)
{
    return FieldReader(gpu.unavailable, &gpu.lost, &nvml::returnName, nvml::kGpuIsLost);
}

void readIdentity(const NvmlApi& api, nvml::Device device, GpuProbe& gpu, FieldReader& r)
{
    char text[96] = {}; // NVML_DEVICE_NAME_V2_BUFFER_SIZE / NVML_DEVICE_UUID_V2_BUFFER_SIZE
    if (r.ask("name", "nvmlDeviceGetName", api.name, device, text, unsigned(sizeof text)))
        gpu.name = text;
    if (r.ask("uuid", "nvmlDeviceGetUUID", api.uuid, device, text, unsigned(sizeof text)))
        gpu.uuid = text;
    nvml::PciInfo pci {};
    if (r.ask("pci_bus_id", "nvmlDeviceGetPciInfo_v3", api.pciInfo, device, &pci))
        gpu.pciBusId = pci.busId;
    int major = 0;
    int minor = 0;
    if (r.ask("compute_capability", "nvmlDeviceGetCudaComputeCapability", api.computeCapability, device, &major,
            &minor)) {
        gpu.computeMajor = major;
        gpu.computeMinor = minor;
    }
}

void readMemory(const NvmlApi& api, nvml::Device device, GpuProbe& gpu, FieldReader& r)
{
    if (api.memoryInfoV2) {
        nvml::MemoryV2 memory {};
        memory.version = nvml::kMemoryV2Version;
        if (r.ask("memory_total_bytes", "nvmlDeviceGetMemoryInfo_v2", api.memoryInfoV2, device, &memory)) {
            gpu.memoryTotalBytes = memory.totalBytes;
            gpu.memoryReservedBytes = memory.reservedBytes;
            gpu.memoryFreeBytes = memory.freeBytes;
        }
        return;
    }
    // Drivers before the v2 struct: same total, but the driver's reserve hides inside "used".
    nvml::MemoryV1 memory {};
    if (r.ask("memory_total_bytes", "nvmlDeviceGetMemoryInfo", api.memoryInfoV1, device, &memory)) {
        gpu.memoryTotalBytes = memory.totalBytes;
        gpu.memoryFreeBytes = memory.freeBytes;
        r.note("memory_reserved_bytes", "nvmlDeviceGetMemoryInfo_v2 is not in this driver (v1 counts it as used)");
    }
}

std::optional<int> readUnsigned(FieldReader& r, const char* field, const char* symbol,
    nvml::Return (*fn)(nvml::Device, unsigned*), nvml::Device device)
{
    unsigned value = 0;
    return r.ask(field, symbol, fn, device, &value) ? std::optional<int>(int(value)) : std::nullopt;
}

std::optional<int> readClock(
    FieldReader& r, const char* field, const char* symbol, const NvmlApi& api, nvml::Device device, int type, bool max)
{
    unsigned mhz = 0;
    return r.ask(field, symbol, max ? api.maxClock : api.clock, device, type, &mhz) ? std::optional<int>(int(mhz))
                                                                                    : std::nullopt;
}

std::optional<double> readWatts(FieldReader& r, const char* field, const char* symbol,
    nvml::Return (*fn)(nvml::Device, unsigned*), nvml::Device device)
{
    unsigned milliwatts = 0;
    return r.ask(field, symbol, fn, device, &milliwatts) ? std::optional<double>(milliwatts / 1000.0) : std::nullopt;
}

void readClocksAndPower(const NvmlApi& api, nvml::Device device, GpuProbe& gpu, FieldReader& r)
{
    gpu.smClockMaxMHz
        = readClock(r, "sm_clock_max_mhz", "nvmlDeviceGetMaxClockInfo", api, device, nvml::kClockSm, true);
    gpu.memoryClockMaxMHz
        = readClock(r, "memory_clock_max_mhz", "nvmlDeviceGetMaxClockInfo", api, device, nvml::kClockMemory, true);
    gpu.smClockMHz = readClock(r, "sm_clock_mhz", "nvmlDeviceGetClockInfo", api, device, nvml::kClockSm, false);
    gpu.memoryClockMHz
        = readClock(r, "memory_clock_mhz", "nvmlDeviceGetClockInfo", api, device, nvml::kClockMemory, false);
    gpu.powerLimitDefaultW = readWatts(
        r, "power_limit_default_w", "nvmlDeviceGetPowerManagementDefaultLimit", api.powerDefaultLimit, device);
    gpu.powerLimitEnforcedW
        = readWatts(r, "power_limit_enforced_w", "nvmlDeviceGetEnforcedPowerLimit", api.powerEnforcedLimit, device);
    gpu.powerDrawW = readWatts(r, "power_draw_w", "nvmlDeviceGetPowerUsage", api.powerUsage, device);
}

void readPcie(const NvmlApi& api, nvml::Device device, GpuProbe& gpu, FieldReader& r)
{
    gpu.pcieGenerationMax
        = readUnsigned(r, "pcie_generation_max", "nvmlDeviceGetMaxPcieLinkGeneration", api.pcieGenMax, device);
    gpu.pcieWidthMax = readUnsigned(r, "pcie_width_max", "nvmlDeviceGetMaxPcieLinkWidth", api.pcieWidthMax, device);
    gpu.pcieGeneration = readUnsigned(r, "pcie_generation", "nvmlDeviceGetCurrPcieLinkGeneration", api.pcieGen, device);
    gpu.pcieWidth = readUnsigned(r, "pcie_width", "nvmlDeviceGetCurrPcieLinkWidth", api.pcieWidth, device);
}

void readModes(const NvmlApi& api, nvml::Device device, GpuProbe& gpu, FieldReader& r)
{
    unsigned migCurrent = 0;
    unsigned migPending = 0;
    if (r.ask("mig_enabled", "nvmlDeviceGetMigMode", api.migMode, device, &migCurrent, &migPending))
        gpu.migEnabled = migCurrent == 1;
    int eccCurrent = 0;
    int eccPending = 0;
    if (r.ask("ecc_enabled", "nvmlDeviceGetEccMode", api.eccMode, device, &eccCurrent, &eccPending))
        gpu.eccEnabled = eccCurrent == 1;
    unsigned celsius = 0;
    if (r.ask("temperature_c", "nvmlDeviceGetTemperature", api.temperature, device, 0, &celsius))
        gpu.temperatureC = int(celsius);
    nvml::Utilization utilization {};
    if (r.ask("utilization_gpu_percent", "nvmlDeviceGetUtilizationRates", api.utilization, device, &utilization)) {
        gpu.utilizationGpuPercent = int(utilization.gpuPercent);
        gpu.utilizationMemoryPercent = int(utilization.memoryPercent);
    }
}

/// The far end of link, when it is active; nullopt when the link is down.
std::optional<NvLinkEnd> readLinkEnd(const NvmlApi& api, nvml::Device device, unsigned link, FieldReader& r)
{
    NvLinkEnd end;
    nvml::PciInfo pci {};
    if (!r.ask("nvlink_remote", "nvmlDeviceGetNvLinkRemotePciInfo_v2", api.nvlinkRemotePci, device, link, &pci))
        return std::nullopt;
    end.remoteBusId = normaliseBusId(pci.busId);
    unsigned version = 0;
    if (api.nvlinkVersion && api.nvlinkVersion(device, link, &version) == nvml::kSuccess)
        end.version = int(version);
    int type = 0;
    end.remoteIsSwitch = api.nvlinkRemoteType && api.nvlinkRemoteType(device, link, &type) == nvml::kSuccess
        && type == nvml::kDeviceTypeSwitch;
    return end;
}

} // namespace

std::string normaliseBusId(const std::string& busId)
{
    std::string text = busId;
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    const auto colon = text.find(':');
    if (colon == std::string::npos)
        return text;
    auto domain = text.substr(0, colon);
    domain.erase(0, std::min(domain.find_first_not_of('0'), domain.size() - 1));
    return domain + text.substr(colon);
}

void readNvmlGpu(const NvmlApi& api, nvml::Device device, GpuProbe& gpu)
{
    auto r = readerFor(gpu);
    readIdentity(api, device, gpu, r);
    readMemory(api, device, gpu, r);
    readClocksAndPower(api, device, gpu, r);
    readPcie(api, device, gpu, r);
    readModes(api, device, gpu, r);
}

std::vector<NvLinkEnd> readNvLinks(const NvmlApi& api, nvml::Device device, GpuProbe& gpu)
{
    std::vector<NvLinkEnd> ends;
    if (!api.nvlinkState || gpu.lost)
        return ends;
    auto r = readerFor(gpu);
    for (unsigned link = 0; link < unsigned(nvml::kMaxNvLinks); ++link) {
        int active = 0;
        const auto code = api.nvlinkState(device, link, &active);
        if (code == nvml::kInvalidArgument || code == nvml::kNotSupported)
            break; // past the GPU's last link, or a GPU without NVLink
        if (code == nvml::kGpuIsLost) {
            gpu.lost = true;
            r.note("nvlink", "nvmlDeviceGetNvLinkState: " + nvml::returnName(code));
            break;
        }
        if (code == nvml::kSuccess && active == 1)
            if (auto end = readLinkEnd(api, device, link, r))
                ends.push_back(*end);
    }
    gpu.nvlinkActiveLinks = int(ends.size());
    gpu.nvlinkSwitchLinks
        = int(std::count_if(ends.begin(), ends.end(), [](const auto& e) { return e.remoteIsSwitch; }));
    return ends;
}

} // namespace clusterplanner::core::probe
