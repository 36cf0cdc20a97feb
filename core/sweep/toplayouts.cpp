// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/sweep/toplayouts.h"

#include <algorithm>

namespace clusterplanner::core {

TopLayouts::TopLayouts(Score score, std::size_t capacity)
    : m_score(std::move(score))
    , m_capacity(capacity)
{
    m_heap.reserve(std::min<std::size_t>(capacity, 1024)); // a huge N ("every row") grows only as results come
}

namespace {

bool ranksBefore(double scoreA, std::size_t indexA, double scoreB, std::size_t indexB)
{
    return scoreA != scoreB ? scoreA > scoreB : indexA < indexB;
}

} // namespace

bool TopLayouts::ranksBefore(const Entry& a, const Entry& b)
{
    return core::ranksBefore(a.score, a.index, b.score, b.index);
}

void TopLayouts::add(const LayoutResult& result, std::size_t index)
{
    if (m_capacity == 0)
        return;
    const double score = m_score(result);
    // Cheap rejection first: once full, most results rank below the worst kept one.
    if (m_heap.size() == m_capacity && !core::ranksBefore(score, index, m_heap.front().score, m_heap.front().index))
        return;
    insert({score, index, result});
}

void TopLayouts::insert(Entry entry)
{
    // With ranksBefore as the heap's "less", the front is the entry every other ranks before: the worst.
    if (m_heap.size() == m_capacity) {
        if (!ranksBefore(entry, m_heap.front()))
            return;
        std::pop_heap(m_heap.begin(), m_heap.end(), ranksBefore);
        m_heap.pop_back();
    }
    m_heap.push_back(std::move(entry));
    std::push_heap(m_heap.begin(), m_heap.end(), ranksBefore);
}

void TopLayouts::merge(const TopLayouts& other)
{
    for (const Entry& entry : other.m_heap)
        if (m_capacity > 0)
            insert(entry);
}

std::vector<LayoutResult> TopLayouts::sorted() const
{
    std::vector<Entry> entries = m_heap;
    std::sort(entries.begin(), entries.end(), ranksBefore);
    std::vector<LayoutResult> results;
    results.reserve(entries.size());
    for (const Entry& entry : entries)
        results.push_back(entry.result);
    return results;
}

} // namespace clusterplanner::core
