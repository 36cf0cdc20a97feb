// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/probe/microbench.h"

#include "core/probe/benchkernels.h"
#include "core/probe/benchsession.h"
#include "core/probe/cudaapi.h"

#include <nlohmann/json.hpp>

#include <sstream>

namespace clusterplanner::core::probe {

namespace {

struct Context
{
    const CudaApi& api;
    const BenchOptions& options;
    const GpuProbe& gpu;
};

BenchResult named(const char* name, const char* unit, int peerIndex = -1)
{
    BenchResult result;
    result.name = name;
    result.unit = unit;
    result.peerIndex = peerIndex;
    return result;
}

BenchResult failed(BenchResult result, const std::string& reason)
{
    result.reason = reason;
    return result;
}

BenchResult fromSession(const BenchSession& session, BenchResult result, double work, double ms)
{
    return session.ok() ? finish(result, work, ms) : failed(result, session.error());
}

BenchResult d2dMemcpy(const Context& c)
{
    BenchSession s(c.api, 0);
    const auto bytes = c.options.bufferBytes;
    const auto src = s.allocate(bytes);
    const auto dst = s.allocate(bytes);
    s.check(s.ok() ? c.api.memcpyDtoD(dst, src, bytes) : 0, "cuMemcpyDtoD_v2"); // warm-up
    const double ms = s.timeMs("cuMemcpyDtoD_v2", [&] {
        int code = 0;
        for (int i = 0; i < c.options.repetitions && code == 0; ++i)
            code = c.api.memcpyDtoD(dst, src, bytes);
        return code;
    });
    // A device-to-device copy reads and writes every byte (data/probe/microbench.json counts it the same way).
    return fromSession(s, named("d2d_memcpy", "GB/s"), 2.0 * double(bytes) * c.options.repetitions, ms);
}

BenchResult h2dMemcpy(const Context& c)
{
    BenchSession s(c.api, 0);
    const auto bytes = c.options.bufferBytes;
    void* host = s.allocateHost(bytes);
    const auto dst = s.allocate(bytes);
    const double ms = s.timeMs("cuMemcpyHtoD_v2", [&] {
        int code = 0;
        for (int i = 0; i < c.options.repetitions && code == 0; ++i)
            code = c.api.memcpyHtoD(dst, host, bytes);
        return code;
    });
    return fromSession(s, named("h2d_memcpy", "GB/s"), double(bytes) * c.options.repetitions, ms);
}

unsigned blocks(const Context& c)
{
    return unsigned(c.gpu.smCount.value_or(80)) * c.options.blocksPerSm;
}

double launchTimed(BenchSession& s, const Context& c, cuda::Function f, void** params)
{
    const auto launch
        = [&] { return c.api.launchKernel(f, blocks(c), 1, 1, kThreadsPerBlock, 1, 1, 0, nullptr, params, nullptr); };
    s.check(s.ok() ? launch() : 0, "cuLaunchKernel"); // warm-up, and the JIT's first-launch cost
    s.check(s.ok() ? c.api.ctxSynchronize() : 0, "cuCtxSynchronize");
    return s.timeMs("cuLaunchKernel", [&] {
        int code = 0;
        for (int i = 0; i < c.options.repetitions && code == 0; ++i)
            code = launch();
        return code;
    });
}

BenchResult copyKernel(const Context& c)
{
    BenchSession s(c.api, 0);
    auto src = s.allocate(c.options.bufferBytes);
    auto dst = s.allocate(c.options.bufferBytes);
    auto* f = s.function(kBasicKernelsPtx, "copy_v4");
    unsigned vectors = unsigned(c.options.bufferBytes / 16);
    void* params[] = {&dst, &src, &vectors};
    const double ms = launchTimed(s, c, f, params);
    return fromSession(s, named("copy_kernel", "GB/s"), copyKernelBytes(vectors * 16.0, c.options.repetitions), ms);
}

BenchResult computeKernel(const Context& c, const char* ptx, const char* name, unsigned iterations, bool tensor)
{
    BenchSession s(c.api, 0);
    const double threads = double(blocks(c)) * kThreadsPerBlock;
    auto out = s.allocate(std::size_t(threads) * sizeof(float));
    auto* f = s.function(ptx, name);
    void* params[] = {&out, &iterations};
    const double ms = launchTimed(s, c, f, params);
    const double flops = tensor ? mmaFlops(threads, iterations, c.options.repetitions)
                                : fmaFlops(threads, iterations, c.options.repetitions);
    return fromSession(s, named(tensor ? "mma_fp16" : "fma_fp32", "TFLOP/s"), flops, ms);
}

BenchResult tensorKernel(const Context& c)
{
    if (c.gpu.computeMajor.value_or(0) < 8)
        return failed(named("mma_fp16", "TFLOP/s"), "mma.sync m16n8k16 needs compute capability 8.0 or newer");
    return computeKernel(c, kTensorKernelsPtx, "mma_f16", c.options.mmaIterations, true);
}

BenchResult p2pMemcpy(const Context& c, int cudaDevices)
{
    auto result = named("p2p_memcpy", "GB/s", 1);
    if (cudaDevices < 2)
        return failed(result, "one GPU: no peer to copy to");
    BenchSession peer(c.api, 1);
    const auto bytes = c.options.bufferBytes;
    const auto dst = peer.allocate(bytes);
    BenchSession s(c.api, 0);
    const auto src = s.allocate(bytes);
    const double ms = s.timeMs("cuMemcpyPeer", [&] {
        int code = 0;
        for (int i = 0; i < c.options.repetitions && code == 0; ++i)
            code = c.api.memcpyPeer(dst, peer.context(), src, s.context(), bytes);
        return code;
    });
    return peer.ok() ? fromSession(s, result, double(bytes) * c.options.repetitions, ms) : failed(result, peer.error());
}

/// The first symbol the benchmarks need that the library lacks, or nullptr.
const char* missingSymbol(const CudaApi& api)
{
    const std::pair<bool, const char*> needed[] = {{api.memcpyDtoD != nullptr, "cuMemcpyDtoD_v2"},
        {api.memcpyHtoD != nullptr, "cuMemcpyHtoD_v2"}, {api.memcpyPeer != nullptr, "cuMemcpyPeer"},
        {api.launchKernel != nullptr, "cuLaunchKernel"}, {api.ctxSynchronize != nullptr, "cuCtxSynchronize"}};
    for (const auto& [present, name] : needed)
        if (!present)
            return name;
    return nullptr;
}

int cudaDeviceCount(const CudaApi& api)
{
    int count = 0;
    if (!api.init || api.init(0) != cuda::kSuccess || !api.deviceCount || api.deviceCount(&count) != cuda::kSuccess)
        return 0;
    return count;
}

} // namespace

BenchResult finish(BenchResult result, double work, double milliseconds)
{
    result.work = work;
    result.seconds = milliseconds / 1e3;
    if (result.seconds <= 0)
        return failed(result, "the timer measured no time");
    result.rate = work / result.seconds / (result.unit == "TFLOP/s" ? 1e12 : 1e9);
    result.ok = true;
    return result;
}

std::vector<BenchResult> runBenchmarks(const ProbeOptions& options, const ProbeResult& probed,
    const BenchOptions& bench, std::stop_token stop, const BenchProgressFn& progress)
{
    const CudaApi api(options.cudaLibrary);
    const int devices = api.library.isLoaded() ? cudaDeviceCount(api) : 0;
    std::vector<BenchResult> results;
    if (devices == 0 || probed.gpus.empty()) {
        const auto why = api.library.isLoaded() ? "CUDA reports no usable GPU" : "libcuda not loaded";
        return {failed(named("d2d_memcpy", "GB/s"), why)};
    }
    if (const char* missing = missingSymbol(api))
        return {failed(named("d2d_memcpy", "GB/s"), std::string(missing) + " is not in this driver's libcuda")};
    const Context c {api, bench, probed.gpus.front()};
    const std::vector<std::pair<const char*, std::function<BenchResult()>>> steps
        = {{"d2d_memcpy", [&] { return d2dMemcpy(c); }}, {"copy_kernel", [&] { return copyKernel(c); }},
            {"fma_fp32", [&] { return computeKernel(c, kBasicKernelsPtx, "fma_f32", bench.fmaIterations, false); }},
            {"mma_fp16", [&] { return tensorKernel(c); }}, {"h2d_memcpy", [&] { return h2dMemcpy(c); }},
            {"p2p_memcpy", [&] { return p2pMemcpy(c, devices); }}};
    for (const auto& [name, step] : steps) {
        if (stop.stop_requested())
            break;
        if (progress)
            progress(int(results.size()), int(steps.size()), name);
        results.push_back(step());
    }
    if (progress)
        progress(int(results.size()), int(steps.size()), "");
    return results;
}

nlohmann::json toJson(const std::vector<BenchResult>& results)
{
    auto list = nlohmann::json::array();
    for (const auto& r : results)
        list.push_back({{"name", r.name}, {"unit", r.unit}, {"gpu", r.gpuIndex}, {"peer", r.peerIndex}, {"ok", r.ok},
            {"rate", r.ok ? nlohmann::json(r.rate) : nlohmann::json(nullptr)}, {"work", r.work}, {"seconds", r.seconds},
            {"reason", r.reason}});
    return list;
}

std::string describe(const std::vector<BenchResult>& results)
{
    std::ostringstream out;
    for (const auto& r : results) {
        out << "bench " << r.name << ": ";
        if (r.ok)
            out << r.rate << " " << r.unit << "\n";
        else
            out << "unavailable (" << r.reason << ")\n";
    }
    return out.str();
}

} // namespace clusterplanner::core::probe
