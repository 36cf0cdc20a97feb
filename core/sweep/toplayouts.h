// SPDX-License-Identifier: GPL-3.0-or-later
// The best N layouts of a sweep by a score, kept while results stream in (docs/methods-search.md §5.1).
#pragma once

#include "core/sweep/layoutresult.h"

#include <cstddef>
#include <functional>
#include <vector>

namespace clusterplanner::core {

/// Keeps the `capacity` best results by a score (higher is better). Equal scores are ordered by enumeration
/// index, lower first, so what is kept and its order depend neither on the order results arrive in nor on how
/// the stream was split between threads: merging per-thread instances gives the brute-force answer.
class TopLayouts
{
public:
    using Score = std::function<double(const LayoutResult&)>;

    TopLayouts(Score score, std::size_t capacity);

    /// index: the result's position in the enumeration (the tie-break).
    void add(const LayoutResult& result, std::size_t index);
    void merge(const TopLayouts& other);
    /// The kept results, best first.
    std::vector<LayoutResult> sorted() const;
    std::size_t size() const { return m_heap.size(); }

private:
    struct Entry
    {
        double score;
        std::size_t index;
        LayoutResult result;
    };
    static bool ranksBefore(const Entry& a, const Entry& b);
    void insert(Entry entry);

    Score m_score;
    std::size_t m_capacity;
    std::vector<Entry> m_heap; ///< heap with the worst kept entry at the front
};

} // namespace clusterplanner::core
