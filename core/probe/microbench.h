// SPDX-License-Identifier: GPL-3.0-or-later
// Micro-benchmarks on request: copy bandwidth (cuMemcpy and a PTX copy kernel), FP32 FMA and tensor-core MMA
// throughput, host-to-device and peer-to-peer bandwidth, timed with CUDA events (methods-probe.md §10.3).
#pragma once

#include "core/probe/gpuprobe.h"

#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <functional>
#include <stop_token>
#include <string>
#include <vector>

namespace clusterplanner::core::probe {

struct BenchResult
{
    std::string name; ///< "d2d_memcpy", "copy_kernel", "fma_fp32", "mma_fp16", "h2d_memcpy", "p2p_memcpy"
    std::string unit; ///< "GB/s" or "TFLOP/s"
    int gpuIndex = 0; ///< CUDA ordinal
    int peerIndex = -1; ///< the other GPU of p2p_memcpy
    double work = 0; ///< bytes or FLOPs counted for the whole timed region
    double seconds = 0;
    double rate = 0; ///< work / seconds in unit (1e9 B/s or 1e12 FLOP/s)
    bool ok = false;
    std::string reason; ///< why not, when !ok
};

struct BenchOptions
{
    std::size_t bufferBytes = std::size_t(256) << 20; ///< per copy buffer
    int repetitions = 10; ///< timed repetitions after one warm-up
    unsigned fmaIterations = 1 << 16; ///< loop trips of fma_f32 per thread
    unsigned mmaIterations = 1 << 14; ///< loop trips of mma_f16 per warp
    unsigned blocksPerSm = 4;
};

/// (finished benchmarks, total, name of the next one); called from the benchmarking thread.
using BenchProgressFn = std::function<void(int done, int total, const std::string& next)>;

/// Runs every benchmark on the first GPU (and p2p towards the second, where present). Stops between benchmarks
/// when stop is requested; a benchmark that cannot run comes back with ok = false and its reason.
std::vector<BenchResult> runBenchmarks(const ProbeOptions& options, const ProbeResult& probed,
    const BenchOptions& bench, std::stop_token stop = {}, const BenchProgressFn& progress = {});

/// rate in unit from work and milliseconds: GB/s = bytes / s / 1e9, TFLOP/s = FLOPs / s / 1e12.
BenchResult finish(BenchResult result, double work, double milliseconds);

nlohmann::json toJson(const std::vector<BenchResult>& results);
std::string describe(const std::vector<BenchResult>& results);

} // namespace clusterplanner::core::probe
