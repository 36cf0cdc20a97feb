// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/probe/cudareader.h"

#include "core/probe/fieldreader.h"
#include "core/probe/nvmlreader.h"

namespace clusterplanner::core::probe {

namespace {

std::optional<int> attribute(const CudaApi& api, cuda::Device device, int attr, const char* field, FieldReader& r)
{
    int value = 0;
    return r.ask(field, "cuDeviceGetAttribute", api.deviceAttribute, &value, attr, device) ? std::optional(value)
                                                                                           : std::nullopt;
}

std::string cudaBusId(const CudaApi& api, cuda::Device device)
{
    char text[32] = {};
    if (api.devicePciBusId && api.devicePciBusId(text, int(sizeof text), device) == cuda::kSuccess)
        return normaliseBusId(text);
    return {};
}

GpuProbe& gpuFor(ProbeResult& result, const std::string& busId, int ordinal)
{
    for (auto& gpu : result.gpus)
        if (!busId.empty() && normaliseBusId(gpu.pciBusId) == busId)
            return gpu;
    if (ordinal < int(result.gpus.size()))
        return result.gpus[std::size_t(ordinal)];
    // No NVML: CUDA alone names the GPU.
    GpuProbe gpu;
    gpu.index = ordinal;
    gpu.pciBusId = busId;
    result.gpus.push_back(gpu);
    return result.gpus.back();
}

void readDevice(const CudaApi& api, int ordinal, ProbeResult& result)
{
    cuda::Device device = 0;
    if (!api.deviceGet || api.deviceGet(&device, ordinal) != cuda::kSuccess)
        return;
    auto& gpu = gpuFor(result, cudaBusId(api, device), ordinal);
    if (gpu.lost)
        return;
    FieldReader r(gpu.unavailable, nullptr, &cuda::resultName, -1);
    char name[96] = {};
    if (gpu.name.empty() && r.ask("name", "cuDeviceGetName", api.deviceName, name, int(sizeof name), device))
        gpu.name = name;
    std::size_t totalBytes = 0;
    if (r.ask("cuda_total_memory_bytes", "cuDeviceTotalMem_v2", api.deviceTotalMem, &totalBytes, device))
        gpu.cudaTotalMemoryBytes = totalBytes;
    gpu.smCount = attribute(api, device, cuda::kAttrSmCount, "sm_count", r);
    gpu.memoryBusWidthBits = attribute(api, device, cuda::kAttrMemoryBusWidthBits, "memory_bus_width_bits", r);
    if (!gpu.computeMajor) {
        gpu.computeMajor = attribute(api, device, cuda::kAttrComputeMajor, "compute_capability", r);
        gpu.computeMinor = attribute(api, device, cuda::kAttrComputeMinor, "compute_capability", r);
    }
}

/// Marks every GPU's CUDA-only fields unavailable with one reason (no libcuda, stub library, cuInit failed).
void markCudaUnavailable(ProbeResult& result, const std::string& reason)
{
    result.unavailable.push_back({"cuda", reason});
    for (auto& gpu : result.gpus)
        for (const char* field : {"sm_count", "cuda_total_memory_bytes", "memory_bus_width_bits"})
            gpu.unavailable.push_back({field, reason});
}

} // namespace

void readCuda(const CudaApi& api, ProbeResult& result)
{
    if (!api.library.isLoaded())
        return markCudaUnavailable(result, "libcuda not loaded: " + api.library.error());
    result.cudaLibrary = api.library.path();
    if (!api.init)
        return markCudaUnavailable(result, "cuInit is not in " + api.library.path());
    if (const auto code = api.init(0); code != cuda::kSuccess) {
        const bool stub = code == cuda::kStubLibrary;
        return markCudaUnavailable(result,
            "cuInit: " + cuda::resultName(code)
                + (stub ? ": this libcuda is the toolkit's stub, not the driver's library" : ""));
    }
    int version = 0;
    if (!result.cudaDriverVersion && api.driverVersion && api.driverVersion(&version) == cuda::kSuccess)
        result.cudaDriverVersion = version;
    int count = 0;
    if (api.deviceCount && api.deviceCount(&count) == cuda::kSuccess)
        for (int ordinal = 0; ordinal < count; ++ordinal)
            readDevice(api, ordinal, result);
}

} // namespace clusterplanner::core::probe
