// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/sweep/paretofront.h"

#include <algorithm>

namespace clusterplanner::core {

bool ParetoFront::dominates(const Entry& a, const Entry& b)
{
    if (a.headroomGiB < b.headroomGiB || a.tokensPerSPerGpu < b.tokensPerSPerGpu)
        return false;
    const bool same = a.headroomGiB == b.headroomGiB && a.tokensPerSPerGpu == b.tokensPerSPerGpu;
    return !same || a.index < b.index;
}

void ParetoFront::add(const LayoutResult& result, std::size_t index)
{
    if (result.valid && result.fits)
        insert({result.headroomGiB(), result.tokensPerSPerGpu, index, result});
}

void ParetoFront::insert(const Entry& entry)
{
    for (const Entry& member : m_members)
        if (dominates(member, entry))
            return;
    // Dominance is transitive, so what the newcomer beats can never return: drop it now.
    std::erase_if(m_members, [&](const Entry& member) { return dominates(entry, member); });
    m_members.push_back(entry);
}

void ParetoFront::merge(const ParetoFront& other)
{
    for (const Entry& entry : other.m_members)
        insert(entry);
}

std::vector<LayoutResult> ParetoFront::sorted() const
{
    std::vector<Entry> entries = m_members;
    // Members differ in both coordinates (equal headroom would make one dominate), so headroom orders them.
    std::sort(
        entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.headroomGiB > b.headroomGiB; });
    std::vector<LayoutResult> results;
    results.reserve(entries.size());
    for (const Entry& entry : entries)
        results.push_back(entry.result);
    return results;
}

std::vector<LayoutResult> paretoFront(const std::vector<LayoutResult>& results)
{
    ParetoFront front;
    for (std::size_t i = 0; i < results.size(); ++i)
        front.add(results[i], i);
    return front.sorted();
}

} // namespace clusterplanner::core
