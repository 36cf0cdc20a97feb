// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/probe/gpuprobe.h"

#include "core/probe/cudareader.h"
#include "core/probe/fieldreader.h"
#include "core/probe/nvmlapi.h"
#include "core/probe/nvmlreader.h"
#include "core/probe/topologyreader.h"

#include <cstdlib>

namespace clusterplanner::core::probe {

namespace {

std::string environment(const char* name, const std::string& fallback)
{
    const char* value = std::getenv(name);
    return value && *value ? value : fallback;
}

void readSystem(const NvmlApi& api, ProbeResult& result)
{
    FieldReader r(result.unavailable, nullptr, &nvml::returnName, -1);
    char version[80] = {}; // NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE
    if (r.ask("driver_version", "nvmlSystemGetDriverVersion", api.driverVersion, version, unsigned(sizeof version)))
        result.driverVersion = version;
    int cudaVersion = 0;
    if (r.ask("cuda_driver_version", "nvmlSystemGetCudaDriverVersion_v2", api.cudaDriverVersion, &cudaVersion))
        result.cudaDriverVersion = cudaVersion;
}

void readGpus(const NvmlApi& api, ProbeResult& result)
{
    unsigned count = 0;
    FieldReader r(result.unavailable, nullptr, &nvml::returnName, -1);
    if (!r.ask("gpus", "nvmlDeviceGetCount_v2", api.deviceCount, &count))
        return;
    std::vector<nvml::Device> devices;
    std::vector<std::vector<NvLinkEnd>> links;
    for (unsigned index = 0; index < count; ++index) {
        nvml::Device device = nullptr;
        GpuProbe gpu;
        gpu.index = int(index);
        if (!r.ask("gpus", "nvmlDeviceGetHandleByIndex_v2", api.handleByIndex, index, &device))
            continue;
        readNvmlGpu(api, device, gpu);
        links.push_back(readNvLinks(api, device, gpu));
        devices.push_back(device);
        result.gpus.push_back(gpu);
    }
    readTopology(api, devices, links, result.gpus);
}

void readNvml(const NvmlApi& api, ProbeResult& result)
{
    if (!api.library.isLoaded())
        return result.unavailable.push_back({"nvml", "libnvidia-ml not loaded: " + api.library.error()});
    result.nvmlLibrary = api.library.path();
    FieldReader r(result.unavailable, nullptr, &nvml::returnName, -1);
    if (!r.ask("nvml", "nvmlInit_v2", api.init))
        return;
    readSystem(api, result);
    readGpus(api, result);
    if (api.shutdown)
        api.shutdown();
}

std::string reasonWithoutGpus(const ProbeResult& result)
{
    if (result.nvmlLibrary.empty() && result.cudaLibrary.empty())
        return "no NVIDIA driver: " + (result.unavailable.empty() ? std::string() : result.unavailable.front().reason);
    if (!result.unavailable.empty())
        return "NVIDIA driver found but no GPU could be read: " + result.unavailable.front().reason;
    return "NVIDIA driver " + result.driverVersion.value_or("") + " found but it reports no GPU";
}

} // namespace

ProbeOptions ProbeOptions::fromEnvironment()
{
    ProbeOptions options;
    options.nvmlLibrary = environment("CLUSTERPLANNER_NVML_LIBRARY", options.nvmlLibrary);
    options.cudaLibrary = environment("CLUSTERPLANNER_CUDA_LIBRARY", options.cudaLibrary);
    return options;
}

ProbeResult probeMachine(const ProbeOptions& options)
{
    ProbeResult result;
    {
        const NvmlApi nvmlApi(options.nvmlLibrary);
        readNvml(nvmlApi, result);
    }
    const CudaApi cudaApi(options.cudaLibrary);
    readCuda(cudaApi, result);
    result.available = !result.gpus.empty();
    if (!result.available)
        result.reason = reasonWithoutGpus(result);
    return result;
}

} // namespace clusterplanner::core::probe
