// SPDX-License-Identifier: GPL-3.0-or-later
// Job resource strings ("2", "0.5", "2(V100)", "1(nvidia,V100)", "8G,0.5") parsed into exact integer units.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace clusterplanner::core {
struct GpuSpec;
class GpuCatalog;
} // namespace clusterplanner::core

namespace clusterplanner::core::queue {

/// How a job holds its GPUs (docs/methods-scheduling.md §7, seed S2).
enum class ShareMode {
    Whole, ///< exclusive whole GPUs
    Fractional, ///< one slice of a shared GPU (MPS / vGPU)
};

/// A parsed request. Shares are integer milli-GPU and memory integer MiB so fit tests are exact
/// (cf. Alibaba v2023 `gpu_milli`).
struct ResourceRequest
{
    ShareMode mode = ShareMode::Whole;
    int gpuCount = 1; ///< GPUs used; 1 (one slice) in fractional mode
    int milliGpu = 1000; ///< compute share per GPU, 1..1000 (1000 = whole GPU)
    long long memoryMiB = 0; ///< memory cap per GPU in MiB; 0 = proportional to the share (whole device if whole)
    std::string vendor; ///< e.g. "nvidia"; empty when not given
    std::string gpuType; ///< e.g. "V100"; empty = any type

    /// Compute demand over all GPUs in milli-GPU (2 whole GPUs = 2000).
    long long totalMilliGpu() const { return static_cast<long long>(gpuCount) * milliGpu; }
    /// Memory per GPU on a device of deviceMemoryMiB: the cap, or the share's proportion of the device.
    long long memoryMiBOn(long long deviceMemoryMiB) const;
    bool operator==(const ResourceRequest&) const = default;
};

/// Thrown for a malformed request. what() reads `resource "8G,1.5" at position 3: compute share must be in (0, 1]`;
/// position() is the 0-based character offset of the offending character.
class ResourceParseError : public std::invalid_argument
{
public:
    ResourceParseError(std::string_view text, std::size_t position, const std::string& problem);
    std::size_t position() const { return m_position; }

private:
    std::size_t m_position;
};

/// Parses a request. Grammar (docs/methods-scheduling.md §7; ours, S2 gives only examples; memory is in GiB):
///   spec  := count [ "(" [vendor ","] type ")" ] | mem ("G"|"g") "," frac
///   count := integer ≥ 1 (whole GPUs) | decimal in (0, 1) with at most 3 decimals (fractional share)
///   frac  := decimal in (0, 1] with at most 3 decimals;  mem := integer ≥ 1 (GiB)
/// Surrounding spaces are ignored. Throws ResourceParseError naming the problem and its position.
ResourceRequest parseResourceRequest(std::string_view text);

/// Throws std::invalid_argument when the request's memory cap exceeds the device memory (MiB).
void checkDeviceMemory(const ResourceRequest& request, long long deviceMemoryMiB);

/// Whether a GPU satisfies the request's vendor and type, case-insensitively. The type matches a catalog id
/// exactly or as its leading '-'-separated part ("V100" matches "V100-SXM-32GB", "H100" every H100 variant).
/// An empty type or vendor matches anything.
bool acceptsGpu(const ResourceRequest& request, const GpuSpec& gpu);

/// Throws std::invalid_argument naming the type when no GPU in the catalog satisfies the request.
void checkKnownGpuType(const ResourceRequest& request, const GpuCatalog& catalog);

} // namespace clusterplanner::core::queue
