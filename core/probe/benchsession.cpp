// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/probe/benchsession.h"

namespace clusterplanner::core::probe {

namespace {

inline constexpr int kMissingSymbol = -1;

/// Calls fn when the symbol was resolved; kMissingSymbol otherwise.
template <typename Fn, typename... Args>
int call(Fn fn, Args... args)
{
    return fn ? fn(args...) : kMissingSymbol;
}

} // namespace

BenchSession::BenchSession(const CudaApi& api, int ordinal)
    : m_api(api)
{
    check(call(api.init, 0u), "cuInit");
    check(call(api.deviceGet, &m_device, ordinal), "cuDeviceGet");
    m_retained = check(call(api.primaryCtxRetain, &m_context, m_device), "cuDevicePrimaryCtxRetain");
    makeCurrent();
}

BenchSession::~BenchSession()
{
    // Teardown ignores errors: the reason already recorded is the one worth reporting.
    for (auto buffer : m_buffers)
        call(m_api.memFree, buffer);
    for (auto* buffer : m_hostBuffers)
        call(m_api.memFreeHost, buffer);
    for (auto* module : m_modules)
        call(m_api.moduleUnload, module);
    if (m_retained)
        call(m_api.primaryCtxRelease, m_device);
}

bool BenchSession::check(int code, const char* what)
{
    if (!ok())
        return false;
    if (code == cuda::kSuccess)
        return true;
    m_error = std::string(what) + ": "
        + (code == kMissingSymbol ? std::string("not in this driver's libcuda") : cuda::resultName(code));
    return false;
}

bool BenchSession::makeCurrent()
{
    return check(call(m_api.ctxSetCurrent, m_context), "cuCtxSetCurrent");
}

cuda::DevicePtr BenchSession::allocate(std::size_t bytes)
{
    cuda::DevicePtr pointer = 0;
    if (!check(call(m_api.memAlloc, &pointer, bytes), "cuMemAlloc_v2"))
        return 0;
    m_buffers.push_back(pointer);
    return pointer;
}

void* BenchSession::allocateHost(std::size_t bytes)
{
    void* pointer = nullptr;
    if (!check(call(m_api.memAllocHost, &pointer, bytes), "cuMemAllocHost_v2"))
        return nullptr;
    m_hostBuffers.push_back(pointer);
    return pointer;
}

cuda::Function BenchSession::function(const char* ptx, const char* name)
{
    cuda::Module module = nullptr;
    if (!check(call(m_api.moduleLoadData, &module, static_cast<const void*>(ptx)), "cuModuleLoadData"))
        return nullptr;
    m_modules.push_back(module);
    cuda::Function function = nullptr;
    return check(call(m_api.moduleFunction, &function, module, name), "cuModuleGetFunction") ? function : nullptr;
}

double BenchSession::timeMs(const char* what, const std::function<int()>& body)
{
    cuda::Event start = nullptr;
    cuda::Event stop = nullptr;
    check(call(m_api.eventCreate, &start, 0u), "cuEventCreate");
    check(call(m_api.eventCreate, &stop, 0u), "cuEventCreate");
    check(call(m_api.eventRecord, start, cuda::Stream {}), "cuEventRecord");
    check(ok() ? body() : 0, what);
    check(call(m_api.eventRecord, stop, cuda::Stream {}), "cuEventRecord");
    check(call(m_api.eventSynchronize, stop), "cuEventSynchronize");
    float ms = -1;
    check(call(m_api.eventElapsed, &ms, start, stop), "cuEventElapsedTime");
    call(m_api.eventDestroy, start);
    call(m_api.eventDestroy, stop);
    return ok() ? double(ms) : -1.0;
}

} // namespace clusterplanner::core::probe
