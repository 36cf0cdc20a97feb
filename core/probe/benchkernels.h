// SPDX-License-Identifier: GPL-3.0-or-later
// The micro-benchmark kernels as PTX text, JIT-compiled by the driver (cuModuleLoadData), and the work each
// launch does, so that bytes and FLOPs are counted in one place (methods-probe.md §10.3).
#pragma once

#include <cstdint>

namespace clusterplanner::core::probe {

/// copy_v4(dst, src, n16): grid-stride copy of n16 16-byte vectors; fma_f32(out, iterations): 8 independent FMA
/// chains per thread. PTX ISA 6.0 for sm_50, so every driver since CUDA 9 takes it and JITs it for its GPU.
extern const char* const kBasicKernelsPtx;
/// mma_f16(out, iterations): 4 independent mma.sync m16n8k16 (fp16 in, fp32 accumulate) per warp and iteration.
/// PTX ISA 7.0 for sm_80: only loaded on compute capability 8.0 and newer.
extern const char* const kTensorKernelsPtx;

inline constexpr int kFmaChainsPerThread = 8;
inline constexpr int kMmaPerWarpIteration = 4;
inline constexpr double kFlopsPerMma = 2.0 * 16 * 8 * 16; ///< m16n8k16: 2·M·N·K
inline constexpr unsigned kThreadsPerBlock = 256;

/// Bytes a copy kernel moves: each byte read once and written once.
inline double copyKernelBytes(double bufferBytes, int repetitions)
{
    return 2.0 * bufferBytes * repetitions;
}

/// FLOPs of fma_f32: 2 per FMA.
inline double fmaFlops(double threads, double iterations, int repetitions)
{
    return 2.0 * kFmaChainsPerThread * iterations * threads * repetitions;
}

/// FLOPs of mma_f16: one warp of 32 threads issues each mma.
inline double mmaFlops(double threads, double iterations, int repetitions)
{
    return kFlopsPerMma * kMmaPerWarpIteration * iterations * (threads / 32.0) * repetitions;
}

} // namespace clusterplanner::core::probe
