// SPDX-License-Identifier: GPL-3.0-or-later
// Per-model and per-GPU constants of the memory model, computed once so that layouts evaluate without allocation.
#pragma once

#include "core/model/gpucatalog.h"
#include "core/model/modelmath.h"
#include "core/model/scenario.h"

namespace clusterplanner::core {

/// Everything the memory model needs that does not depend on the layout. Build it once per (model, GPU) and
/// evaluate many layouts with evaluateMemory() (memorymodel.h).
struct MemoryContext
{
    ModelConfig model;
    ParameterCounts params;
    double h = 0, hKv = 0, f = 0, vocab = 0, seq = 0, heads = 0; ///< shape as doubles
    double hQ = 0; ///< query width, heads · head_dim (h unless the model sets head_dim or MLA)
    double hV = 0; ///< value width (hKv outside MLA, whose value heads are narrower than its query/key heads)
    double hO = 0; ///< attention-output width, the output projection's input (hQ outside MLA)
    double latentQ = 0, latentKv = 0; ///< MLA's query and key/value latents (the norms' widths), else 0
    double expertF = 0; ///< expert FFN size (MoE), 0 for dense models
    double moeTopK = 0, moeCapacity = 1;
    int layers = 0;
    double layerParamsDense = 0; ///< parameters of one dense transformer layer
    double layerParamsMoe = 0; ///< parameters of one MoE layer (all experts)
    double matmulPerLayer = 0; ///< matmul weights of one layer (autocast casts these)
    double largestUnitParams = 0; ///< largest FSDP/ZeRO-3 unit: one layer or the embedding
    double capacityBytes = 0; ///< what CUDA reports as total (datasheet minus the driver's reserve)
    double workspaceBytes = 0; ///< cuBLAS workspaces in the caching allocator
    double contextReserveBytes = 0; ///< CUDA context + kernels outside the allocator
    bool valid = false;
};

/// Builds the context. gpu may be null (then capacity is 0 and nothing fits).
MemoryContext makeMemoryContext(const ModelConfig& model, const GpuSpec* gpu);

/// Fixed constants of the overhead terms (docs/methods-memory.md §3.6), exposed for the methods text and tests.
namespace memoryconstants {
/// cuBLAS workspace per handle: PyTorch uses 32 MiB on Hopper/Blackwell and ":4096:2:16:8" (~8 MiB) before.
inline constexpr double kCublasWorkspaceHopperBytes = 32.0 * 1024 * 1024;
inline constexpr double kCublasWorkspaceOlderBytes = 8.125 * 1024 * 1024;
/// Two handles hold one: the forward (main thread) and the autograd engine's device thread.
inline constexpr int kCublasHandles = 2;
/// Driver-reserved memory hidden from CUDA's total (≈ 480 MiB on an H100 80GB, docs/methods-memory.md §3.6).
inline constexpr double kDriverReserveFraction = 0.006;
/// CUDA context, loaded kernels and cuDNN/cuBLAS handles outside the caching allocator.
inline constexpr double kCudaContextBytes = 0.6 * 1024 * 1024 * 1024;
/// NCCL communicator buffers when more than one GPU takes part (channels × peers × 4 MiB, typical total).
inline constexpr double kNcclBufferBytes = 0.5 * 1024 * 1024 * 1024;
/// Caching-allocator fragmentation: reserved exceeds allocated by this share of the step's transient memory
/// (median of the dev set's reserved/allocated gaps; docs/methods-memory.md §3.6 says no closed form exists).
inline constexpr double kFragmentationShare = 0.12;
} // namespace memoryconstants

} // namespace clusterplanner::core
