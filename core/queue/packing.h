// SPDX-License-Identifier: GPL-3.0-or-later
// One-dimensional bin packing of fractional GPU shares in integer milli-GPU (first-fit, best-fit, FFD).
#pragma once

#include <vector>

namespace clusterplanner::core::queue {

/// The rules of docs/methods-scheduling.md §7 "Complexity and bounds" [Pack]: FF and BF use at most ⌊1.7·OPT⌋ bins,
/// FFD at most 11/9·OPT + 6/9.
enum class PackingRule {
    FirstFit, ///< each item, in input order, into the lowest-numbered bin with room
    BestFit, ///< each item, in input order, into the fullest bin with room (ties: lowest number)
    FirstFitDecreasing, ///< first-fit over the items sorted by size, largest first (stable for equal sizes)
};

/// Result of a packing: bins in the order they were opened.
struct Packing
{
    std::vector<int> binFillMilli; ///< used capacity of each bin, milli-GPU
    std::vector<int> binOfItem; ///< for each input item (input order), the index of its bin
    int binCount() const { return static_cast<int>(binFillMilli.size()); }
};

/// Packs shares (each in 1..capacityMilli) into bins (GPUs) of capacityMilli. O(n·bins).
/// Throws std::invalid_argument naming the first bad item, or for capacity < 1.
Packing packShares(const std::vector<int>& itemsMilli, PackingRule rule, int capacityMilli = 1000);

} // namespace clusterplanner::core::queue
