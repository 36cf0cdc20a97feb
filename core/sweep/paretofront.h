// SPDX-License-Identifier: GPL-3.0-or-later
// The Pareto front of memory headroom against throughput, kept while results stream in (methods-search §5.1).
#pragma once

#include "core/sweep/layoutresult.h"

#include <cstddef>
#include <vector>

namespace clusterplanner::core {

/// Fitting results that no other result beats: b is dropped when some a has headroom and tokens/s both >= b's
/// and is better in one, or equals b in both and comes earlier in the enumeration (one of a set of duplicates is
/// kept, the first). The relation is a strict order, so the front of a stream is the same whatever the order
/// of arrival or the split between threads.
class ParetoFront
{
public:
    /// Only valid, fitting results may enter; others are ignored. index: position in the enumeration.
    void add(const LayoutResult& result, std::size_t index);
    void merge(const ParetoFront& other);
    /// The front by decreasing headroom (and so increasing throughput).
    std::vector<LayoutResult> sorted() const;

private:
    struct Entry
    {
        double headroomGiB;
        double tokensPerSPerGpu;
        std::size_t index;
        LayoutResult result;
    };
    static bool dominates(const Entry& a, const Entry& b);
    void insert(const Entry& entry);

    std::vector<Entry> m_members; // small (tens): a linear scan beats any index
};

/// Fitting results on the Pareto front of (headroom, tokens/s), by decreasing headroom; indices are positions.
std::vector<LayoutResult> paretoFront(const std::vector<LayoutResult>& results);

} // namespace clusterplanner::core
