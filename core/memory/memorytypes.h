// SPDX-License-Identifier: GPL-3.0-or-later
// Result types of the per-GPU memory model: named terms, per-stage breakdown, peak, fit and limits.
#pragma once

namespace clusterplanner::core {

/// Bytes held on one GPU at the moment of its peak, split into named terms (all >= 0).
struct MemoryBreakdown
{
    double weightsBytes = 0; ///< parameters in the compute copy (fp32 under PyTorch autocast, bf16 under Megatron)
    double gradientsBytes = 0; ///< gradients alive at the peak (persistent buffers, or all of them at step end)
    double optimizerBytes = 0; ///< optimizer states incl. fp32 master copies where kept separately
    double activationsBytes = 0; ///< tensors saved for backward, all in-flight micro-batches of the stage
    double logitsBytes = 0; ///< LM head output, fp32 upcast and loss gradients (last stage)
    double castCacheBytes = 0; ///< autocast low-precision weight copies (PyTorch AMP with fp32 weights)
    double shardBufferBytes = 0; ///< ZeRO-3/FSDP all-gathered parameters and unsharded grads of the live units
    double workspaceBytes = 0; ///< cuBLAS workspaces the caching allocator hands out (counted as allocated)

    double totalBytes() const
    {
        return weightsBytes + gradientsBytes + optimizerBytes + activationsBytes + logitsBytes + castCacheBytes
            + shardBufferBytes + workspaceBytes;
    }
};

/// When in a training step the peak of a stage falls.
enum class PeakPhase { BackwardStart, StepEnd };

/// One pipeline stage at its peak.
struct StageMemory
{
    int stage = 0; ///< 0-based pipeline rank
    int layers = 0; ///< transformer layers held by the stage
    double inFlightMicroBatches = 0; ///< micro-batches whose activations are alive at the peak (stage units)
    PeakPhase phase = PeakPhase::BackwardStart;
    MemoryBreakdown peak; ///< allocated bytes at the peak (like torch.cuda.max_memory_allocated)
    double persistentBytes = 0; ///< allocated between steps (weights, optimizer, persistent grads, workspace)
    double reservedBytes = 0; ///< what the caching allocator holds at the peak
    /// Of reservedBytes: freed gradient shards still cached in FSDP's reduce-scatter stream pool, which the compute
    /// stream cannot reuse (docs/methods-memory.md §3.23).
    double cachedGradientBytes = 0;
    double hostActivationBytes = 0; ///< activations offloaded to host memory at the peak (not in `peak`)
};

/// The memory answer for one layout. Only the first and the last stage are evaluated: every schedule modeled
/// holds the most activations on rank 0, the embedding sits on the first stage and head + logits on the last,
/// so an interior stage never holds more than the first one.
struct MemoryEstimate
{
    StageMemory first;
    StageMemory last; ///< equals first when pp == 1
    int peakStage = 0; ///< rank holding the larger peak (0 or pp - 1)
    double peakAllocatedBytes = 0;
    double peakReservedBytes = 0;
    double usableBytes = 0; ///< capacity minus the documented reserve (CUDA context, NCCL, driver)
    bool fits = false; ///< peakReservedBytes <= usableBytes
    int gradientAccumulationSteps = 1; ///< micro-batches per pipeline per optimizer step (m)
    int offloadedLayers = 0; ///< layers whose activations go to host memory (activationOffloadLayersInEffect)

    const StageMemory& peakStageMemory() const { return peakStage == first.stage ? first : last; }
};

} // namespace clusterplanner::core
