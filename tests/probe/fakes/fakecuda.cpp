// SPDX-License-Identifier: GPL-3.0-or-later
// A fake libcuda for the probe's tests: device queries from the JSON machine description (fakeconfig.h) and a
// benchmark path that moves no data. cuEventElapsedTime answers "elapsed_ms" of the last operation between the
// two events ("d2d", "h2d", "p2p" or the kernel's name), so tests check the arithmetic from bytes and time.
// "cuda_init": 34 makes it the toolkit's stub library (every call CUDA_ERROR_STUB_LIBRARY).
#include "fakeconfig.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

namespace {

constexpr int kNotInitialized = 3;
constexpr int kInvalidValue = 1;
constexpr int kOutOfMemory = 2;

int g_initResult = kNotInitialized; ///< what every call answers until cuInit succeeded
std::string g_lastOperation;
std::map<std::uintptr_t, std::string> g_eventOperation; ///< the operation that ran before each event
std::map<std::uintptr_t, std::string> g_functionNames;
std::uintptr_t g_nextHandle = 0x1000;
std::uint64_t g_allocatedBytes = 0;

int ready()
{
    return g_initResult;
}

const nlohmann::json* gpu(int device)
{
    return fakegpu::gpu(device);
}

double elapsedMs(const std::string& operation)
{
    const auto& elapsed
        = fakegpu::config().value("bench", nlohmann::json::object()).value("elapsed_ms", nlohmann::json::object());
    return elapsed.value(operation, 0.0);
}

int copy(const char* operation)
{
    g_lastOperation = operation;
    return ready();
}

} // namespace

extern "C" {

int cuInit(unsigned)
{
    fakegpu::reload();
    g_lastOperation.clear();
    g_allocatedBytes = 0;
    g_initResult = fakegpu::config().value("cuda_init", 0);
    return g_initResult;
}

int cuDriverGetVersion(int* version)
{
    if (g_initResult == kNotInitialized)
        fakegpu::reload();
    *version = fakegpu::config().value("cuda_version", 0);
    return 0; // answered before cuInit, as the real driver does
}

int cuDeviceGetCount(int* count)
{
    *count = ready() ? 0 : fakegpu::gpuCount();
    return ready();
}

int cuDeviceGet(int* device, int ordinal)
{
    if (ready())
        return ready();
    *device = ordinal;
    return gpu(ordinal) ? 0 : 101; // CUDA_ERROR_INVALID_DEVICE
}

int cuDeviceGetName(char* name, int length, int device)
{
    if (ready() || !gpu(device))
        return ready() ? ready() : 101;
    std::strncpy(name, gpu(device)->value("name", "").c_str(), std::size_t(length) - 1);
    return 0;
}

int cuDeviceGetPCIBusId(char* busId, int length, int device)
{
    if (ready() || !gpu(device))
        return ready() ? ready() : 101;
    // CUDA writes the domain with 4 digits where NVML writes 8: "0000:18:00.0".
    std::string text = gpu(device)->value("bus_id", "");
    if (text.size() > 12)
        text = text.substr(text.size() - 12);
    std::strncpy(busId, text.c_str(), std::size_t(length) - 1);
    return 0;
}

int cuDeviceTotalMem_v2(std::size_t* bytes, int device)
{
    if (ready() || !gpu(device))
        return ready() ? ready() : 101;
    *bytes = gpu(device)->value("cuda_total_bytes", std::size_t(0));
    return 0;
}

int cuDeviceGetAttribute(int* value, int attribute, int device)
{
    if (ready() || !gpu(device))
        return ready() ? ready() : 101;
    const auto& g = *gpu(device);
    static const std::map<int, const char*> keys = {{16, "sms"}, {37, "bus_width_bits"}, {32, "ecc"}};
    if (attribute == 75 || attribute == 76) {
        *value = g.at("cc").at(attribute == 75 ? 0 : 1).get<int>();
        return 0;
    }
    auto key = keys.find(attribute);
    if (key == keys.end() || !g.contains(key->second) || g[key->second].is_null())
        return kInvalidValue;
    *value = g[key->second].get<int>();
    return 0;
}

int cuDevicePrimaryCtxRetain(void** context, int device)
{
    *context = reinterpret_cast<void*>(std::uintptr_t(device) + 1);
    return ready();
}

int cuDevicePrimaryCtxRelease_v2(int)
{
    return ready();
}

int cuCtxSetCurrent(void*)
{
    return ready();
}

int cuCtxSynchronize()
{
    return ready();
}

int cuMemAlloc_v2(std::uint64_t* pointer, std::size_t bytes)
{
    if (ready())
        return ready();
    const auto limit = fakegpu::config().value("bench", nlohmann::json::object()).value("memory_bytes", 1ull << 40);
    if (g_allocatedBytes + bytes > limit)
        return kOutOfMemory;
    g_allocatedBytes += bytes;
    *pointer = g_nextHandle += bytes;
    return 0;
}

int cuMemFree_v2(std::uint64_t)
{
    return ready();
}

int cuMemAllocHost_v2(void** pointer, std::size_t bytes)
{
    *pointer = ready() ? nullptr : std::malloc(bytes);
    return ready() ? ready() : (*pointer ? 0 : kOutOfMemory);
}

int cuMemFreeHost(void* pointer)
{
    std::free(pointer);
    return ready();
}

int cuMemcpyDtoD_v2(std::uint64_t, std::uint64_t, std::size_t)
{
    return copy("d2d");
}

int cuMemcpyHtoD_v2(std::uint64_t, const void*, std::size_t)
{
    return copy("h2d");
}

int cuMemcpyPeer(std::uint64_t, void*, std::uint64_t, void*, std::size_t)
{
    return copy("p2p");
}

int cuEventCreate(void** event, unsigned)
{
    *event = reinterpret_cast<void*>(++g_nextHandle);
    return ready();
}

int cuEventRecord(void* event, void*)
{
    g_eventOperation[reinterpret_cast<std::uintptr_t>(event)] = g_lastOperation;
    return ready();
}

int cuEventSynchronize(void*)
{
    return ready();
}

#ifndef FAKE_OLD_DRIVER
int cuEventElapsedTime_v2(float* ms, void*, void* end)
{
    *ms = float(elapsedMs(g_eventOperation[reinterpret_cast<std::uintptr_t>(end)]));
    return ready();
}
#endif

int cuEventElapsedTime(float* ms, void*, void* end)
{
    *ms = float(elapsedMs(g_eventOperation[reinterpret_cast<std::uintptr_t>(end)]));
    return ready();
}

int cuEventDestroy_v2(void*)
{
    return ready();
}

int cuModuleLoadData(void** module, const void* image)
{
    if (ready())
        return ready();
    // "reject_ptx": the code a driver older than the PTX ISA answers (222, UNSUPPORTED_PTX_VERSION).
    const int reject = fakegpu::config().value("bench", nlohmann::json::object()).value("reject_ptx", 0);
    const bool looksLikePtx = std::strstr(static_cast<const char*>(image), ".version") != nullptr;
    *module = reinterpret_cast<void*>(++g_nextHandle);
    return reject ? reject : (looksLikePtx ? 0 : 218); // 218 = CUDA_ERROR_INVALID_PTX
}

int cuModuleUnload(void*)
{
    return ready();
}

int cuModuleGetFunction(void** function, void*, const char* name)
{
    *function = reinterpret_cast<void*>(++g_nextHandle);
    g_functionNames[reinterpret_cast<std::uintptr_t>(*function)] = name;
    return ready();
}

int cuLaunchKernel(
    void* function, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void*, void**, void**)
{
    g_lastOperation = g_functionNames[reinterpret_cast<std::uintptr_t>(function)];
    return ready();
}

} // extern "C"
