// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/perf/topology.h"

#include "core/model/modelmath.h"

#include <algorithm>
#include <stdexcept>

namespace clusterplanner::core::perf {

namespace {

constexpr const char* kDimNames[] = {"tp", "cp", "ep", "dp", "pp"};

struct Axis
{
    int size = 1;
    long long stride = 1;
};

/// Group made of up to two axes (sizes and strides over global ranks).
GroupSpan spanOf(Axis a, Axis b, int domainGpus)
{
    if (b.stride < a.stride)
        std::swap(a, b);
    const long long g = std::max(1, domainGpus);
    // Members of the group inside one domain: along each axis, those with offset k·stride < g.
    auto inDomain = [g](const Axis& axis) {
        return axis.stride >= g ? 1LL : std::min<long long>(axis.size, (g + axis.stride - 1) / axis.stride);
    };
    GroupSpan span;
    span.size = a.size * b.size;
    span.ranksPerDomain = int(std::min<long long>(span.size, inDomain(a) * inDomain(b)));
    span.domains = (span.size + span.ranksPerDomain - 1) / span.ranksPerDomain;
    return span;
}

/// Each dimension's axis when the dimensions of `order` are laid over consecutive ranks at these sizes.
std::array<Axis, 5> axesOf(const std::array<int, 5>& sizes, const RankOrder& order)
{
    std::array<Axis, 5> axes;
    long long stride = 1;
    for (auto dim : order.dims) {
        axes[int(dim)] = {std::max(1, sizes[int(dim)]), stride};
        stride *= axes[int(dim)].size;
    }
    return axes;
}

/// The expert layers' groups. Since Megatron-Core 0.10 (MoE parallel folding [Fold]) they are laid over the ranks
/// apart from the attention's: the same order without CP, the expert TP size (TP, or 1 where EP folds over TP as
/// well) in TP's place and the expert-data-parallel size, world / (ETP·EP·PP), in DP's. So EP takes in CP's ranks,
/// and with EP filling a node and DP across nodes the ranks holding one rank's experts are one per node: their
/// gradients cross the network whole, not as the 1/g share a hierarchical DP reduction sends.
std::array<Axis, 5> expertAxes(const ParallelLayout& layout, const RankOrder& order)
{
    return axesOf(
        {expertTensorParallel(layout), 1, std::max(1, layout.ep), expertDataParallel(layout), layout.pp}, order);
}

} // namespace

RankOrder RankOrder::parse(const std::string& text)
{
    RankOrder order;
    std::array<bool, 5> seen {};
    std::size_t position = 0;
    for (int i = 0; i < 5; ++i) {
        const auto end = text.find('-', position);
        const std::string name = text.substr(position, end == std::string::npos ? std::string::npos : end - position);
        const auto* hit
            = std::find_if(std::begin(kDimNames), std::end(kDimNames), [&](const char* n) { return name == n; });
        if (hit == std::end(kDimNames) || seen[hit - kDimNames])
            throw std::invalid_argument("rank order \"" + text + "\": expected each of tp, cp, ep, dp, pp once, got \""
                + name + "\" at position " + std::to_string(i + 1));
        seen[hit - kDimNames] = true;
        order.dims[i] = ParallelDim(hit - kDimNames);
        if ((end == std::string::npos) != (i == 4))
            throw std::invalid_argument("rank order \"" + text + "\": expected 5 names separated by '-'");
        position = end + 1;
    }
    return order;
}

const RankOrder& rankOrderOf(RankOrdering ordering)
{
    static const RankOrder dpBeforePp; // tp-cp-ep-dp-pp, Megatron's default
    static const RankOrder ppBeforeDp {
        {ParallelDim::Tp, ParallelDim::Cp, ParallelDim::Ep, ParallelDim::Pp, ParallelDim::Dp}};
    return ordering == RankOrdering::TpCpEpPpDp ? ppBeforeDp : dpBeforePp;
}

std::string RankOrder::toString() const
{
    std::string text;
    for (auto dim : dims)
        text += (text.empty() ? "" : "-") + std::string(kDimNames[int(dim)]);
    return text;
}

LayoutSpans layoutSpans(const ParallelLayout& layout, int domainGpus, const RankOrder& order)
{
    // The attention's groups: the order with EP left out (Megatron-Core's decoder rank generator since 0.10).
    const std::array<Axis, 5> axes = axesOf({layout.tp, layout.cp, 1, layout.dp, layout.pp}, order);
    const Axis none {1, 1};
    const Axis tp = axes[int(ParallelDim::Tp)], cp = axes[int(ParallelDim::Cp)], dp = axes[int(ParallelDim::Dp)];
    LayoutSpans spans;
    spans.tp = spanOf(tp, none, domainGpus);
    spans.cp = spanOf(cp, none, domainGpus);
    spans.pp = spanOf(axes[int(ParallelDim::Pp)], none, domainGpus);
    spans.dp = spanOf(dp, none, domainGpus);
    spans.dpCp = spanOf(cp, dp, domainGpus);
    const std::array<Axis, 5> experts = expertAxes(layout, order);
    spans.ep = spanOf(experts[int(ParallelDim::Ep)], none, domainGpus);
    spans.expertTp = spanOf(experts[int(ParallelDim::Tp)], none, domainGpus);
    // Without EP, and split by TP like the other weights, the experts are reduced with them over DP × CP; else over
    // their own expert-data-parallel group (EP, or an expert TP other than TP, changes who holds the same shard).
    const bool ownGroup = layout.ep > 1 || expertTensorParallel(layout) != std::max(1, layout.tp);
    spans.expertDpCp = ownGroup ? spanOf(experts[int(ParallelDim::Dp)], none, domainGpus) : spans.dpCp;
    // Hybrid sharding splits the DP axis: its first shardDp ranks (with CP) shard, the copies stride over the rest.
    const int replicas = std::max(1, layout.shardReplicas());
    const Axis shardDp {dp.size / replicas, dp.stride};
    spans.shardDpCp = spanOf(cp, shardDp, domainGpus);
    spans.shardReplicas = spanOf({replicas, dp.stride * shardDp.size}, none, domainGpus);
    const Axis expertDp = experts[int(ParallelDim::Dp)];
    const int expertReplicas = expertShardReplicas(layout);
    const Axis expertShardDp {expertDp.size / expertReplicas, expertDp.stride};
    spans.expertShard = ownGroup ? spanOf(expertShardDp, none, domainGpus) : spans.shardDpCp;
    spans.expertShardReplicas = ownGroup
        ? spanOf({expertReplicas, expertDp.stride * expertShardDp.size}, none, domainGpus)
        : spans.shardReplicas;
    return spans;
}

} // namespace clusterplanner::core::perf
