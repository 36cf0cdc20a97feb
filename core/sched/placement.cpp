// SPDX-License-Identifier: GPL-3.0-or-later
// Node scoring and GPU choice for the scheduling simulator.
#include "core/sched/placement.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace clusterplanner::core::sched {

namespace {

constexpr double kSlack = 1e-9; // host demands are doubles; allow rounding when they exactly fill a node

double ratio(double used, double capacity)
{
    return capacity > 0 ? std::clamp(used / capacity, 0.0, 1.0) : 0.0;
}

} // namespace

Placer::Placer(const ClusterState& state, const SimulationOptions& options)
    : m_state(state)
    , m_options(options)
{ }

double Placer::score(int node, int take, double cpuCores, double memoryGiB, int minPendingGpus,
    const std::array<double, 4>& clusterAfter) const
{
    const NodeInfo& info = m_state.nodes()[static_cast<std::size_t>(node)];
    const NodeUse& use = m_state.use(node);
    const double u[3] = {ratio(use.busyGpus + take, info.gpus), ratio(use.memoryGiB + memoryGiB, info.memoryGiB),
        ratio(use.cpuCores + cpuCores, info.cpuCores)};
    double s[3];
    for (int r = 0; r < 3; ++r) {
        switch (m_options.placement) {
        case PlacementStrategy::Pack:
            s[r] = u[r];
            break;
        case PlacementStrategy::Spread:
            s[r] = 1.0 - u[r];
            break;
        case PlacementStrategy::Balanced:
            s[r] = 1.0 - std::abs(u[r] - clusterAfter[static_cast<std::size_t>(r)]);
            break;
        }
    }
    const int freeAfter = info.gpus - use.busyGpus - take;
    const double stranded = (freeAfter > 0 && freeAfter < minPendingGpus) ? 1.0 : 0.0;
    const auto& w = m_options.weights;
    return w.gpu * s[0] + w.memory * s[1] + w.cpu * s[2] + w.fragmentation * (1.0 - stranded);
}

bool Placer::hostFits(int node, double cpuCores, double memoryGiB, double bandwidthGbps) const
{
    const NodeInfo& info = m_state.nodes()[static_cast<std::size_t>(node)];
    const NodeUse& use = m_state.use(node);
    // A node without a declared capacity (0) does not constrain that resource.
    auto fits = [](double used, double demand, double capacity) {
        return demand <= 0 || capacity <= 0 || used + demand <= capacity * (1 + kSlack);
    };
    return fits(use.cpuCores, cpuCores, info.cpuCores) && fits(use.memoryGiB, memoryGiB, info.memoryGiB)
        && fits(use.bandwidthGbps, bandwidthGbps, info.bandwidthGbps);
}

GpuSlice Placer::makeSlice(int node, std::vector<int> gpus, const PlacementRequest& request, int milli) const
{
    const NodeInfo& info = m_state.nodes()[static_cast<std::size_t>(node)];
    const double share = request.gpus > 0 ? double(gpus.size()) / request.gpus : 1.0;
    GpuSlice slice;
    slice.node = node;
    slice.gpus = std::move(gpus);
    slice.milli = milli;
    slice.gpuMemoryMiB = request.gpuMemoryMiB > 0 ? std::min(request.gpuMemoryMiB, info.gpuMemoryMiB)
                                                  : info.gpuMemoryMiB * request.memoryFraction;
    slice.cpuCores = request.cpuCores * share;
    slice.memoryGiB = request.memoryGiB * share;
    slice.bandwidthGbps = request.bandwidthGbps * share;
    return slice;
}

std::vector<int> Placer::pickGpus(int node, int take) const
{
    const NodeInfo& info = m_state.nodes()[static_cast<std::size_t>(node)];
    std::vector<int> freeInDomain(static_cast<std::size_t>(info.domains), 0);
    for (int g = 0; g < info.gpus; ++g)
        if (m_state.gpu(node, g).isFree())
            ++freeInDomain[static_cast<std::size_t>(info.domainOf[static_cast<std::size_t>(g)])];
    // Domains in the order GPUs are taken: the tightest single domain that holds the whole chunk first (keeps
    // the job inside one NVLink domain and leaves larger holes intact), otherwise the fullest domains first.
    std::vector<int> order(static_cast<std::size_t>(info.domains));
    for (int d = 0; d < info.domains; ++d)
        order[static_cast<std::size_t>(d)] = d;
    auto freeOf = [&](int d) { return freeInDomain[static_cast<std::size_t>(d)]; };
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        const bool aHolds = freeOf(a) >= take, bHolds = freeOf(b) >= take;
        if (aHolds != bHolds)
            return aHolds;
        return aHolds ? freeOf(a) < freeOf(b) : freeOf(a) > freeOf(b);
    });
    std::vector<int> chosen;
    for (int d : order)
        for (int g = 0; g < info.gpus && int(chosen.size()) < take; ++g)
            if (info.domainOf[static_cast<std::size_t>(g)] == d && m_state.gpu(node, g).isFree())
                chosen.push_back(g);
    std::sort(chosen.begin(), chosen.end());
    return chosen;
}

bool Placer::consider(const PlacementRequest& request, int node, int take, int minPending,
    const std::array<double, 4>& clusterAfter, Candidate& best) const
{
    const double share = double(take) / request.gpus;
    if (!hostFits(node, request.cpuCores * share, request.memoryGiB * share, request.bandwidthGbps * share))
        return false;
    const double s = score(node, take, request.cpuCores * share, request.memoryGiB * share, minPending, clusterAfter);
    if (s > best.score || (s == best.score && node < best.node))
        best = {node, take, s};
    return true;
}

Placer::Candidate Placer::bestScannedNode(const PlacementRequest& request, int type, int remaining, int minTake,
    const std::vector<int>& taken, int minPending, const std::array<double, 4>& clusterAfter) const
{
    Candidate best;
    for (int node : m_state.nodesWithFreeGpus(type)) {
        const int take = std::min(remaining, m_state.freeGpusOn(node));
        if (take >= minTake && std::find(taken.begin(), taken.end(), node) == taken.end())
            consider(request, node, take, minPending, clusterAfter, best);
    }
    return best;
}

Placer::Candidate Placer::bestIndexedNode(const PlacementRequest& request, int type, int remaining, int minTake,
    const std::vector<int>& taken, int minPending, const std::array<double, 4>& clusterAfter) const
{
    // Inside one (node type, free GPUs) bucket s_gpu and s_frag are equal and s_mem, s_cpu follow the bucket's
    // order, so the first node that fits is the bucket's best: only one score per bucket is computed.
    Candidate best;
    for (int nodeType = 0; nodeType < m_state.nodeTypeCount(); ++nodeType) {
        if (m_state.nodeTypeGpuType(nodeType) != type)
            continue;
        for (int free = std::max(1, minTake); free <= m_state.nodeTypeGpus(nodeType); ++free) {
            const int take = std::min(remaining, free);
            for (const auto& [key, node] : m_state.bucket(nodeType, free)) {
                if (std::find(taken.begin(), taken.end(), node) == taken.end()
                    && consider(request, node, take, minPending, clusterAfter, best))
                    break;
            }
        }
    }
    return best;
}

int Placer::consolidatedTake(int type, int remaining, int minTake) const
{
    // Fewest nodes first (Tiresias NSDI'19 consolidation): the whole rest on one node when some node holds
    // it, otherwise the largest chunk a node offers. The node score only chooses among nodes of that chunk size.
    return std::max(minTake, std::min(remaining, m_state.maxFreeOnOneNode(type)));
}

Placer::Candidate Placer::bestNode(const PlacementRequest& request, int type, int remaining, int minTake,
    const std::vector<int>& taken, int minPending, const std::array<double, 4>& clusterAfter) const
{
    return m_state.hasLoadIndex() ? bestIndexedNode(request, type, remaining, minTake, taken, minPending, clusterAfter)
                                  : bestScannedNode(request, type, remaining, minTake, taken, minPending, clusterAfter);
}

std::optional<std::vector<GpuSlice>> Placer::placeWhole(
    const PlacementRequest& request, int type, int minPending, double& firstScore) const
{
    std::array<double, 4> clusterAfter = m_state.clusterUtilization();
    clusterAfter[0] += double(request.gpus) / std::max(1, m_state.totalGpus());
    std::vector<GpuSlice> slices;
    std::vector<int> taken;
    int remaining = request.gpus;
    int nodesLeft = m_options.maxNodesPerJob > 0 ? m_options.maxNodesPerJob : std::numeric_limits<int>::max();
    while (remaining > 0) {
        if (nodesLeft <= 0)
            return std::nullopt;
        // Each chunk must be large enough that the rest still fits in the nodes the β limit leaves.
        const int minTake = nodesLeft >= remaining ? 1 : (remaining + nodesLeft - 1) / nodesLeft;
        const int largeTake = consolidatedTake(type, remaining, minTake);
        Candidate best = bestNode(request, type, remaining, largeTake, taken, minPending, clusterAfter);
        if (best.node < 0 && largeTake > minTake) // host demands may rule out the largest holes
            best = bestNode(request, type, remaining, minTake, taken, minPending, clusterAfter);
        if (best.node < 0)
            return std::nullopt;
        if (slices.empty())
            firstScore = best.score;
        slices.push_back(makeSlice(best.node, pickGpus(best.node, best.take), request, 1000));
        taken.push_back(best.node);
        remaining -= best.take;
        --nodesLeft;
    }
    return slices;
}

std::optional<std::vector<GpuSlice>> Placer::placeFractional(const PlacementRequest& request) const
{
    int bestNode = -1, bestGpu = -1, bestLeft = std::numeric_limits<int>::max();
    for (const NodeInfo& info : m_state.nodes()) {
        if ((request.gpuType >= 0 && info.gpuType != request.gpuType)
            || !hostFits(info.id, request.cpuCores, request.memoryGiB, request.bandwidthGbps))
            continue;
        const double memory
            = request.gpuMemoryMiB > 0 ? request.gpuMemoryMiB : info.gpuMemoryMiB * request.milli / 1000.0;
        for (int g = 0; g < info.gpus; ++g) {
            const GpuUse& gpu = m_state.gpu(info.id, g);
            if (gpu.residents > 0 || gpu.milli + request.milli > 1000 || gpu.memoryMiB + memory > info.gpuMemoryMiB)
                continue;
            const int left = 1000 - gpu.milli - request.milli;
            if (m_options.fractionalFit == FractionalFit::FirstFit) {
                return std::vector<GpuSlice> {makeSlice(info.id, {g}, request, request.milli)};
            }
            if (left < bestLeft) {
                bestNode = info.id;
                bestGpu = g;
                bestLeft = left;
            }
        }
    }
    if (bestNode < 0)
        return std::nullopt;
    return std::vector<GpuSlice> {makeSlice(bestNode, {bestGpu}, request, request.milli)};
}

std::optional<std::vector<GpuSlice>> Placer::place(const PlacementRequest& request, int minPendingGpus) const
{
    if (request.gpus == 0)
        return placeFractional(request);
    std::optional<std::vector<GpuSlice>> best;
    double bestScore = -std::numeric_limits<double>::infinity();
    const int types = static_cast<int>(m_state.gpuTypeIds().size());
    for (int type = 0; type < types; ++type) {
        if ((request.gpuType >= 0 && type != request.gpuType)
            || !m_state.fitsByCount(type, request.gpus, m_options.maxNodesPerJob))
            continue;
        double s = 0;
        auto slices = placeWhole(request, type, minPendingGpus, s);
        if (m_preferFastest && !m_typeSpeed.empty())
            s += 10.0 * m_typeSpeed[static_cast<std::size_t>(type)]; // scores lie in [0, 1]: speed decides first
        // Across GPU types, the type whose first chosen node scores best wins (lowest type index on ties).
        if (slices && (!best || s > bestScore)) {
            best = std::move(slices);
            bestScore = s;
        }
    }
    return best;
}

void Placer::setTypeSpeeds(std::vector<double> speeds, bool preferFastest)
{
    m_typeSpeed = std::move(speeds);
    m_preferFastest = preferFastest;
}

std::optional<std::vector<GpuSlice>> Placer::placeOnSameGpus(
    const PlacementRequest& request, const std::vector<GpuSlice>& group) const
{
    std::vector<GpuSlice> slices;
    for (const GpuSlice& member : group) {
        const NodeInfo& info = m_state.nodes()[static_cast<std::size_t>(member.node)];
        const double share = double(member.gpus.size()) / std::max(1, request.gpus);
        if ((request.gpuType >= 0 && info.gpuType != request.gpuType)
            || !hostFits(
                member.node, request.cpuCores * share, request.memoryGiB * share, request.bandwidthGbps * share))
            return std::nullopt;
        GpuSlice slice = makeSlice(member.node, member.gpus, request, 1000);
        for (int g : member.gpus)
            if (m_state.gpu(member.node, g).memoryMiB + slice.gpuMemoryMiB > info.gpuMemoryMiB + 1e-6)
                return std::nullopt;
        slices.push_back(std::move(slice));
    }
    return slices;
}

} // namespace clusterplanner::core::sched
