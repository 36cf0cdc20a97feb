// SPDX-License-Identifier: GPL-3.0-or-later
// GPU facts (memory, bandwidth, dense tensor throughput, power, fabric, prices) from data/gpus.json.
#pragma once

#include "core/model/scenario.h"

#include <optional>
#include <string>
#include <vector>

namespace clusterplanner::core {

struct PriceRange
{
    std::optional<double> lowUsd;
    std::optional<double> highUsd;
    /// Middle of the range, or whichever end is known.
    std::optional<double> midUsd() const;
};

struct GpuSpec
{
    std::string id; ///< stable id used by scenarios and the validation set, e.g. "H100-SXM-80GB"
    std::vector<std::string> formerIds; ///< ids the entry had before; files that name them still find it
    std::string name;
    std::string vendor;
    double memoryGB = 0; ///< datasheet capacity, 1e9 bytes
    double hbmTBs = 0; ///< memory bandwidth, TB/s
    std::optional<double> bf16Tflops; ///< dense, no sparsity
    std::optional<double> fp16Tflops;
    std::optional<double> fp8Tflops;
    std::optional<double> fp32Tflops;
    /// Maximum achievable matmul TFLOP/s (BF16, the best large matmul a published mamf-finder sweep measured), where
    /// known: what the GPU and its math library deliver of the datasheet peak (docs/methods-time.md §4.31).
    std::optional<double> mamfBf16Tflops;
    double tdpW = 0;
    std::string scaleupFabric;
    double scaleupGBsBidir = 0; ///< per GPU, both directions
    int scaleupDomainGpus = 1;
    double scaleoutGbpsPerGpu = 0; ///< scale-out NIC per GPU in the reference system, Gbit/s each way; 0 = unknown
    /// GPU to host-memory link per GPU, GB/s both directions (PCIe, or NVLink-C2C on Grace superchips); 0 = unknown.
    /// Activation offload moves saved activations over it (docs/methods-time.md §4.32).
    double hostLinkGBsBidir = 0;
    /// Streaming multiprocessors; 0 = unknown. Communication kernels that run beside compute hold some of them
    /// (docs/methods-time.md §4.49).
    int smCount = 0;
    PriceRange cloudUsdPerGpuHour;
    PriceRange purchaseUsd;
    std::string notes;
    std::string source;

    std::optional<double> memoryTotalMiB; ///< what the driver reports as total (nvidia-smi), where known
    /// Device memory the driver reports, in bytes: the measured total where known, else the datasheet figure read
    /// as GiB (HBM and GDDR come in binary sizes: an "80 GB" A100 reports 81,920 MiB).
    double memoryBytes() const
    {
        return memoryTotalMiB ? *memoryTotalMiB * 1024.0 * 1024.0 : memoryGB * 1024.0 * 1024.0 * 1024.0;
    }
    /// Dense tensor peak for the training precision in FLOP/s; falls back to the nearest supported type
    /// (fp16 for V100 bf16, bf16 for fp8 where FP8 is missing).
    double peakFlops(Precision precision) const;
    /// The measured share of the BF16 peak a large matmul reaches (mamfBf16Tflops / bf16Tflops); empty when unknown.
    std::optional<double> achievableMatmulFraction() const;
    /// Whether the GPU has FP8 tensor cores (a catalog FP8 rate): what training in FP8 needs, and what an FP8 peak
    /// counts.
    bool hasFp8TensorCores() const { return fp8Tflops.has_value(); }
};

class GpuCatalog
{
public:
    /// The catalog compiled into the library from data/gpus.json.
    static const GpuCatalog& builtin();
    /// Parses a catalog document; throws std::runtime_error naming the offending entry.
    static GpuCatalog fromJson(const std::string& text);

    const std::vector<GpuSpec>& gpus() const { return m_gpus; }
    /// The entry with this id or a former id of it; nullptr if none.
    const GpuSpec* find(const std::string& id) const;
    /// The current id of the entry `id` names (a former id maps to the entry's id); unknown ids come back as given.
    std::string currentId(const std::string& id) const;
    /// Ids of the entries whose id or name carries the chip word of `id` ("h100", "A100 80GB", "mi300x": the word with
    /// a digit, case and separators aside; "MI300" finds MI300X, "RTX4090" RTX-4090), in catalog order; empty when
    /// none does.
    std::vector<std::string> idsLike(const std::string& id) const;
    /// "unknown GPU "X"", with the ids like it where there are some, for messages about a file's GPU id.
    std::string unknownIdText(const std::string& id) const;

private:
    std::vector<GpuSpec> m_gpus;
};

} // namespace clusterplanner::core
