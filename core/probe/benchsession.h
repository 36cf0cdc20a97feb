// SPDX-License-Identifier: GPL-3.0-or-later
// One GPU's primary context for the micro-benchmarks: allocations, modules and timed regions, released on
// destruction. The first failing call is kept as the reason; later calls do nothing.
#pragma once

#include "core/probe/cudaapi.h"

#include <functional>
#include <string>
#include <vector>

namespace clusterplanner::core::probe {

class BenchSession
{
public:
    BenchSession(const CudaApi& api, int ordinal);
    /// Keeps a reference to the API table: a temporary would dangle.
    BenchSession(CudaApi&&, int) = delete;
    ~BenchSession();
    BenchSession(const BenchSession&) = delete;
    BenchSession& operator=(const BenchSession&) = delete;

    bool ok() const { return m_error.empty(); }
    const std::string& error() const { return m_error; }
    /// False, keeping "what: NAME (code)" as the error, when code is not success (or an earlier call failed).
    bool check(int code, const char* what);
    const CudaApi& api() const { return m_api; }
    cuda::Context context() const { return m_context; }

    cuda::DevicePtr allocate(std::size_t bytes); ///< 0 on failure
    void* allocateHost(std::size_t bytes); ///< pinned; nullptr on failure
    cuda::Function function(const char* ptx, const char* name); ///< nullptr when the driver refuses the PTX
    /// Milliseconds between events recorded before and after body (which returns the CUresult of what); -1 on
    /// failure.
    double timeMs(const char* what, const std::function<int()>& body);
    /// Makes this session's context current (before calls that follow another session's).
    bool makeCurrent();

private:
    const CudaApi& m_api;
    cuda::Device m_device = 0;
    cuda::Context m_context = nullptr;
    bool m_retained = false;
    std::string m_error;
    std::vector<cuda::DevicePtr> m_buffers;
    std::vector<void*> m_hostBuffers;
    std::vector<cuda::Module> m_modules;
};

} // namespace clusterplanner::core::probe
