// SPDX-License-Identifier: GPL-3.0-or-later
// The 4-D job demand / node capacity vector (GPU, MEM, CPU, BW) of seed S0 §3.3.2.
#pragma once

#include <algorithm>

namespace clusterplanner::core::queue {

/// Demand D_j = (D_GPU, D_MEM, D_CPU, D_BW) of a job, or a node's capacity C_i in the same units
/// (docs/methods-memory.md §3.7 and §7). All fields ≥ 0.
struct DemandVector
{
    double gpus = 0; ///< GPUs (fractional shares allowed: 0.5 = half a GPU)
    double memoryGiB = 0; ///< GPU memory
    double cpuCores = 0;
    double bandwidthGBs = 0; ///< network bandwidth, GB/s

    bool operator==(const DemandVector&) const = default;

    DemandVector& operator+=(const DemandVector& other)
    {
        gpus += other.gpus;
        memoryGiB += other.memoryGiB;
        cpuCores += other.cpuCores;
        bandwidthGBs += other.bandwidthGBs;
        return *this;
    }

    /// Capacity constraint Σ d_{j,r} ≤ C_{i,r} for every resource r (S0 §3.4).
    bool fitsWithin(const DemandVector& capacity) const
    {
        return gpus <= capacity.gpus && memoryGiB <= capacity.memoryGiB && cpuCores <= capacity.cpuCores
            && bandwidthGBs <= capacity.bandwidthGBs;
    }

    /// DRF dominant share max_r d_r/C_r over the resources the capacity has (docs/methods-scheduling.md §7, Ghodsi et
    /// al.).
    double dominantShare(const DemandVector& capacity) const
    {
        const auto share = [](double demand, double total) { return total > 0 ? demand / total : 0.0; };
        return std::max({share(gpus, capacity.gpus), share(memoryGiB, capacity.memoryGiB),
            share(cpuCores, capacity.cpuCores), share(bandwidthGBs, capacity.bandwidthGBs)});
    }
};

inline DemandVector operator+(DemandVector a, const DemandVector& b)
{
    return a += b;
}

} // namespace clusterplanner::core::queue
