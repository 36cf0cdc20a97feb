// SPDX-License-Identifier: GPL-3.0-or-later
// A fake libnvidia-ml for the probe's tests: the NVML entry points the probe calls, answering from the JSON
// machine description (fakeconfig.h). Built twice: FAKE_OLD_DRIVER leaves out the symbols newer drivers added.
#include "fakeconfig.h"

#include "core/probe/nvmlapi.h"

#include <cstdint>
#include <cstring>
#include <map>

namespace nvml = clusterplanner::core::probe::nvml;
using Handle = nvml::Device;

namespace {

const nlohmann::json* device(Handle handle)
{
    return fakegpu::gpu(long(reinterpret_cast<std::intptr_t>(handle)) - 1);
}

std::map<Handle, int>& lostCounters()
{
    static std::map<Handle, int> calls;
    return calls;
}

/// "lost_after_calls": N makes the GPU fall off the bus after N successful queries (NVML_ERROR_GPU_IS_LOST).
int check(Handle handle)
{
    auto& calls = lostCounters();
    const auto* gpu = device(handle);
    if (!gpu)
        return nvml::kInvalidArgument;
    const int limit = gpu->value("lost_after_calls", -1);
    return limit >= 0 && calls[handle]++ >= limit ? nvml::kGpuIsLost : nvml::kSuccess;
}

int checkPair(Handle a, Handle b)
{
    const int code = check(a);
    return code ? code : check(b);
}

/// Answers the unsigned field key of the GPU; a missing or null key is NOT_SUPPORTED.
int field(Handle handle, const char* key, unsigned* value)
{
    if (int code = check(handle))
        return code;
    const auto& gpu = *device(handle);
    if (!gpu.contains(key) || gpu[key].is_null())
        return nvml::kNotSupported;
    *value = gpu[key].get<unsigned>();
    return nvml::kSuccess;
}

int text(const std::string& value, char* out, unsigned length)
{
    if (value.size() + 1 > length)
        return 7; // NVML_ERROR_INSUFFICIENT_SIZE
    std::memcpy(out, value.c_str(), value.size() + 1);
    return nvml::kSuccess;
}

void fillPci(const std::string& busId, nvml::PciInfo* pci)
{
    std::memset(pci, 0, sizeof *pci);
    std::strncpy(pci->busId, busId.c_str(), sizeof pci->busId - 1);
}

const nlohmann::json* link(Handle handle, unsigned index)
{
    const auto& gpu = *device(handle);
    if (!gpu.contains("nvlinks"))
        return nullptr;
    const auto& links = gpu["nvlinks"];
    return index < links.size() ? &links[index] : nullptr;
}

std::uint64_t mib(const nlohmann::json& gpu, const char* key)
{
    return gpu.value(key, std::uint64_t(0)) * 1024 * 1024;
}

} // namespace

extern "C" {

int nvmlInit_v2()
{
    fakegpu::reload();
    lostCounters().clear();
    return fakegpu::config().value("nvml_init", 0);
}

int nvmlShutdown()
{
    return 0;
}

int nvmlDeviceGetCount_v2(unsigned* count)
{
    *count = unsigned(fakegpu::gpuCount());
    return 0;
}

int nvmlDeviceGetHandleByIndex_v2(unsigned index, Handle* handle)
{
    if (!fakegpu::gpu(long(index)))
        return nvml::kInvalidArgument;
    *handle = reinterpret_cast<Handle>(std::intptr_t(index) + 1);
    return 0;
}

int nvmlSystemGetDriverVersion(char* out, unsigned length)
{
    return text(fakegpu::config().value("driver_version", ""), out, length);
}

#ifndef FAKE_OLD_DRIVER
int nvmlSystemGetCudaDriverVersion_v2(int* version)
{
    *version = fakegpu::config().value("cuda_version", 0);
    return 0;
}
#else
int nvmlSystemGetCudaDriverVersion(int* version)
{
    *version = fakegpu::config().value("cuda_version", 0);
    return 0;
}
#endif

int nvmlDeviceGetName(Handle handle, char* out, unsigned length)
{
    const int code = check(handle);
    return code ? code : text(device(handle)->value("name", ""), out, length);
}

int nvmlDeviceGetUUID(Handle handle, char* out, unsigned length)
{
    const int code = check(handle);
    return code ? code : text(device(handle)->value("uuid", ""), out, length);
}

int nvmlDeviceGetPciInfo_v3(Handle handle, nvml::PciInfo* pci)
{
    if (int code = check(handle))
        return code;
    fillPci(device(handle)->value("bus_id", ""), pci);
    return 0;
}

int nvmlDeviceGetCudaComputeCapability(Handle handle, int* major, int* minor)
{
    if (int code = check(handle))
        return code;
    *major = device(handle)->at("cc").at(0).get<int>();
    *minor = device(handle)->at("cc").at(1).get<int>();
    return 0;
}

#ifndef FAKE_OLD_DRIVER
int nvmlDeviceGetMemoryInfo_v2(Handle handle, nvml::MemoryV2* memory)
{
    if (int code = check(handle))
        return code;
    if (memory->version != 0x02000028u) // sizeof(nvmlMemory_v2_t) = 40 | version 2 << 24
        return 25; // NVML_ERROR_ARGUMENT_VERSION_MISMATCH
    const auto& gpu = *device(handle);
    memory->totalBytes = mib(gpu, "memory_total_mib");
    memory->reservedBytes = mib(gpu, "memory_reserved_mib");
    memory->freeBytes = mib(gpu, "memory_free_mib");
    memory->usedBytes = memory->totalBytes - memory->reservedBytes - memory->freeBytes;
    return 0;
}
#endif

int nvmlDeviceGetMemoryInfo(Handle handle, nvml::MemoryV1* memory)
{
    if (int code = check(handle))
        return code;
    const auto& gpu = *device(handle);
    memory->totalBytes = mib(gpu, "memory_total_mib");
    memory->freeBytes = mib(gpu, "memory_free_mib");
    memory->usedBytes = memory->totalBytes - memory->freeBytes;
    return 0;
}

int nvmlDeviceGetClockInfo(Handle handle, int type, unsigned* mhz)
{
    return field(handle, type == nvml::kClockSm ? "sm_clock_mhz" : "memory_clock_mhz", mhz);
}

int nvmlDeviceGetMaxClockInfo(Handle handle, int type, unsigned* mhz)
{
    return field(handle, type == nvml::kClockSm ? "sm_clock_max_mhz" : "memory_clock_max_mhz", mhz);
}

int nvmlDeviceGetPowerManagementDefaultLimit(Handle handle, unsigned* milliwatts)
{
    return field(handle, "power_default_mw", milliwatts);
}

int nvmlDeviceGetEnforcedPowerLimit(Handle handle, unsigned* milliwatts)
{
    return field(handle, "power_enforced_mw", milliwatts);
}

int nvmlDeviceGetPowerUsage(Handle handle, unsigned* milliwatts)
{
    return field(handle, "power_usage_mw", milliwatts);
}

int nvmlDeviceGetMaxPcieLinkGeneration(Handle handle, unsigned* value)
{
    return field(handle, "pcie_gen_max", value);
}

int nvmlDeviceGetMaxPcieLinkWidth(Handle handle, unsigned* value)
{
    return field(handle, "pcie_width_max", value);
}

int nvmlDeviceGetCurrPcieLinkGeneration(Handle handle, unsigned* value)
{
    return field(handle, "pcie_gen", value);
}

int nvmlDeviceGetCurrPcieLinkWidth(Handle handle, unsigned* value)
{
    return field(handle, "pcie_width", value);
}

#ifndef FAKE_OLD_DRIVER
int nvmlDeviceGetMigMode(Handle handle, unsigned* current, unsigned* pending)
{
    const int code = field(handle, "mig", current);
    *pending = *current;
    return code;
}
#endif

int nvmlDeviceGetEccMode(Handle handle, int* current, int* pending)
{
    unsigned value = 0;
    const int code = field(handle, "ecc", &value);
    *current = *pending = int(value);
    return code;
}

int nvmlDeviceGetTemperature(Handle handle, int, unsigned* celsius)
{
    return field(handle, "temperature_c", celsius);
}

int nvmlDeviceGetUtilizationRates(Handle handle, unsigned* rates)
{
    if (int code = field(handle, "utilization_gpu_percent", &rates[0]))
        return code;
    return field(handle, "utilization_memory_percent", &rates[1]);
}

int nvmlDeviceGetNvLinkState(Handle handle, unsigned index, int* active)
{
    if (int code = check(handle))
        return code;
    if (!device(handle)->contains("nvlinks"))
        return nvml::kNotSupported;
    if (!link(handle, index))
        return nvml::kInvalidArgument;
    *active = 1;
    return 0;
}

int nvmlDeviceGetNvLinkVersion(Handle handle, unsigned index, unsigned* version)
{
    if (int code = check(handle))
        return code;
    const auto* end = link(handle, index);
    *version = end ? end->value("version", 0u) : 0u;
    return end ? 0 : nvml::kInvalidArgument;
}

int nvmlDeviceGetNvLinkRemotePciInfo_v2(Handle handle, unsigned index, nvml::PciInfo* pci)
{
    if (int code = check(handle))
        return code;
    const auto* end = link(handle, index);
    if (!end)
        return nvml::kInvalidArgument;
    const auto remote = end->value("remote", std::string());
    fillPci(remote == "switch" ? fakegpu::config().value("nvswitch_bus_id", "") : remote, pci);
    return 0;
}

int nvmlDeviceGetNvLinkRemoteDeviceType(Handle handle, unsigned index, int* type)
{
    if (int code = check(handle))
        return code;
    const auto* end = link(handle, index);
    *type = end && end->value("remote", std::string()) == "switch" ? nvml::kDeviceTypeSwitch : 0;
    return end ? 0 : nvml::kInvalidArgument;
}

int nvmlDeviceGetTopologyCommonAncestor(Handle a, Handle b, int* level)
{
    if (int code = checkPair(a, b))
        return code;
    const auto& config = fakegpu::config();
    // "numa_split": GPUs below this index sit on one NUMA node, the rest on the other.
    const long split = config.value("numa_split", 1L << 20);
    const bool sameNode
        = (long(reinterpret_cast<std::intptr_t>(a)) <= split) == (long(reinterpret_cast<std::intptr_t>(b)) <= split);
    *level = sameNode ? config.value("ancestor", 40) : 50;
    return 0;
}

int nvmlDeviceGetP2PStatus(Handle a, Handle b, int caps, int* status)
{
    if (int code = checkPair(a, b))
        return code;
    const auto& p2p = fakegpu::config().value("p2p", nlohmann::json::object());
    *status = p2p.value(caps == nvml::kP2PCapsNvlink ? "nvlink" : "read", 5); // 5 = NVML_P2P_STATUS_NOT_SUPPORTED
    return 0;
}

} // extern "C"
