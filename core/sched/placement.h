// SPDX-License-Identifier: GPL-3.0-or-later
// Placement of one job onto nodes and GPUs: PACK, SPREAD, BALANCED node scores, NVLink domains, fractional fit.
#pragma once

#include "core/sched/clusterstate.h"
#include "core/sched/simulation.h"

#include <optional>
#include <vector>

namespace clusterplanner::core::sched {

/// What a job needs, with its GPU type resolved to the cluster's type index (-1 = any type).
struct PlacementRequest
{
    int gpus = 1; ///< whole GPUs; 0 for a fractional job
    int milli = 1000; ///< fractional share when gpus == 0
    double gpuMemoryMiB = 0; ///< per GPU; 0 = memoryFraction of the device
    double memoryFraction = 1.0; ///< device share assumed when gpuMemoryMiB is 0
    int gpuType = -1;
    double cpuCores = 0; ///< whole job
    double memoryGiB = 0;
    double bandwidthGbps = 0;
};

/// Chooses GPUs for a request against the current ClusterState. Deterministic: the node score
/// `w_gpu·s_gpu + w_mem·s_mem + w_cpu·s_cpu + w_frag·s_frag` is maximised, ties go to the lowest node id
/// (docs/methods-scheduling.md §7 "Placement"). For node n after the tentative placement, with utilisation u′:
/// PACK s_x = u′_x, SPREAD s_x = 1 − u′_x, BALANCED s_x = 1 − |u′_x − ū′_x| (ū′ = cluster-wide used/capacity
/// after placement); s_frag = 0 when the node would keep 0 < free < minPendingGpus free GPUs, else 1.
class Placer
{
public:
    Placer(const ClusterState& state, const SimulationOptions& options);
    /// Keeps references to both: temporaries would dangle.
    Placer(ClusterState&&, const SimulationOptions&) = delete;
    Placer(const ClusterState&, SimulationOptions&&) = delete;

    /// Exclusive placement (whole GPUs, or a fractional share by first/best fit). minPendingGpus is the smallest
    /// whole-GPU request still waiting (for s_frag). std::nullopt when it does not fit now.
    std::optional<std::vector<GpuSlice>> place(const PlacementRequest& request, int minPendingGpus) const;
    /// Time slicing: the same GPUs as a running group's slices, if the type matches and the GPU memory and host
    /// demands fit beside the group (the caller checks the group's size).
    std::optional<std::vector<GpuSlice>> placeOnSameGpus(
        const PlacementRequest& request, const std::vector<GpuSlice>& group) const;
    /// Job speed per GPU type; with preferFastest the fastest type that fits wins instead of the best node score
    /// (Gavel-like heterogeneity-aware placement).
    void setTypeSpeeds(std::vector<double> speeds, bool preferFastest);

    /// The score of a node after tentatively adding `take` GPUs and the given host demands (exposed for tests).
    double score(int node, int take, double cpuCores, double memoryGiB, int minPendingGpus,
        const std::array<double, 4>& clusterAfter) const;

private:
    struct Candidate
    {
        int node = -1;
        int take = 0;
        double score = -1e300;
    };
    bool consider(const PlacementRequest& request, int node, int take, int minPending,
        const std::array<double, 4>& clusterAfter, Candidate& best) const;
    Candidate bestScannedNode(const PlacementRequest& request, int type, int remaining, int minTake,
        const std::vector<int>& taken, int minPending, const std::array<double, 4>& clusterAfter) const;
    Candidate bestIndexedNode(const PlacementRequest& request, int type, int remaining, int minTake,
        const std::vector<int>& taken, int minPending, const std::array<double, 4>& clusterAfter) const;
    std::optional<std::vector<GpuSlice>> placeWhole(
        const PlacementRequest& request, int type, int minPending, double& firstScore) const;
    Candidate bestNode(const PlacementRequest& request, int type, int remaining, int minTake,
        const std::vector<int>& taken, int minPending, const std::array<double, 4>& clusterAfter) const;
    int consolidatedTake(int type, int remaining, int minTake) const;
    std::optional<std::vector<GpuSlice>> placeFractional(const PlacementRequest& request) const;
    std::vector<int> pickGpus(int node, int take) const;
    bool hostFits(int node, double cpuCores, double memoryGiB, double bandwidthGbps) const;
    GpuSlice makeSlice(int node, std::vector<int> gpus, const PlacementRequest& request, int milli) const;

    const ClusterState& m_state;
    const SimulationOptions& m_options;
    std::vector<double> m_typeSpeed;
    bool m_preferFastest = false;
};

} // namespace clusterplanner::core::sched
