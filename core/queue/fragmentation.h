// SPDX-License-Identifier: GPL-3.0-or-later
// Utilisation matrix and the fragmentation, imbalance and fairness metrics of docs/methods-scheduling.md §7.
#pragma once

#include <array>
#include <vector>

namespace clusterplanner::core::queue {

/// Columns of the utilisation matrix U (docs/methods-scheduling.md §7, seed S0 §3.3.3).
enum class Resource { Gpu = 0, Memory = 1, Cpu = 2, Bandwidth = 3 };
constexpr int kResourceCount = 4;

/// One row of U: u_{i,r} = used/total ∈ [0, 1] for node i, indexed by Resource.
using UtilizationRow = std::array<double, kResourceCount>;

/// U as nodes × {GPU, MEM, CPU, BW}.
struct UtilizationMatrix
{
    std::vector<UtilizationRow> rows;

    /// Appends a node's row from used and total amounts; a resource with total 0 counts as 0 used.
    /// Throws std::invalid_argument for used < 0 or used > total.
    void addNode(const UtilizationRow& used, const UtilizationRow& total);
    /// Mean of column r over the nodes (0 for an empty matrix).
    double meanOf(Resource r) const;
};

/// Imbalance F = (1/n)·Σ_i std(u_{i,·}), with the population standard deviation (divide by 4) over the four
/// resources of each node (docs/methods-scheduling.md §7; the seed leaves the choice open). 0 for no nodes.
double imbalance(const UtilizationMatrix& u);

/// Imbalance across nodes F_nodes = mean over the resources any node uses of the population standard deviation of
/// that resource's column u_{·,r} (docs/methods-scheduling.md §7). Unlike imbalance(), it is 0 whenever every node
/// is equally loaded, whatever the load, and ignores resources no job asks for. 0 for no nodes.
double nodeImbalance(const UtilizationMatrix& u);

/// GPU fragmentation index I_frag = Σ_i free_i·unusable_i / Σ_i free_i, where node i is unusable when none of
/// the pending requests (same unit as free, e.g. GPUs or milli-GPU, each on one node) fits its free capacity.
/// 0 when nothing is free or nothing is pending. Throws std::invalid_argument for negative amounts.
double gpuFragmentationIndex(const std::vector<long long>& freePerNode, const std::vector<long long>& pending);

/// Memory fragmentation F_mem = 1 − largest free block / total free (0 when nothing is free).
double memoryFragmentation(const std::vector<double>& freeBlocks);

/// A busy interval [startS, endS] on one GPU.
struct BusyInterval
{
    double startS = 0;
    double endS = 0;
};

/// Time fragmentation F_time = Σ_k (start_k − end_{k−1})/T_total: idle gaps between consecutive tasks on one
/// GPU (idle time before the first or after the last task is not a gap). Intervals may come in any order and
/// may overlap. Throws std::invalid_argument for T_total ≤ 0 or an interval ending before it starts.
double timeFragmentation(std::vector<BusyInterval> tasks, double totalS);

/// Jain's index J = (Σθ)²/(n·Σθ²) ∈ [1/n, 1] [Jain]. 1 for an empty list or all zeros (nobody is favoured).
/// Throws std::invalid_argument for negative shares.
double jainFairness(const std::vector<double>& shares);

/// Percentile p ∈ [0, 100] with linear interpolation between closest ranks: position (n − 1)·p/100 in the
/// sorted values (Hyndman–Fan type 7, the NumPy and spreadsheet default). Throws std::invalid_argument for an
/// empty list or p outside [0, 100].
double percentile(std::vector<double> values, double p);

} // namespace clusterplanner::core::queue
