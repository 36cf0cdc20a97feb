// SPDX-License-Identifier: GPL-3.0-or-later
// Maps a probed GPU to a catalog entry by name, memory and SM count, and lists where the two differ.
#pragma once

#include "core/model/gpucatalog.h"
#include "core/probe/probetypes.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace clusterplanner::core::probe {

/// One line of "what the datasheet says" against "what this GPU reports".
struct CatalogDifference
{
    std::string what; ///< "memory", "power limit" ...
    std::string catalog; ///< the catalog's figure, formatted with its unit
    std::string probed;
    std::string note; ///< why they differ, when known
};

struct CatalogMatch
{
    std::string catalogId; ///< empty when no entry fits
    bool local = false; ///< the entry comes from the user's local catalog
    std::string reason; ///< how it matched, or why nothing did
    std::vector<CatalogDifference> differences;

    bool matched() const { return !catalogId.empty(); }
};

/// The catalog the probe matches against: the entries, which of them are the user's own (shown "local") and the
/// SM counts those carry (the shipped catalog has no SM column).
struct ProbeCatalog
{
    GpuCatalog gpus = GpuCatalog::builtin();
    std::set<std::string> localIds;
    std::map<std::string, int> localSmCounts;

    bool isLocal(const std::string& id) const { return localIds.count(id) > 0; }
};

/// The best entry: its name must carry the probed model token (H100, A100, 4090 ...), the SM count must agree
/// where both are known, total memory within 10 %; form factor (PCIe or not), then the memory bandwidth the clocks
/// imply, break ties.
CatalogMatch matchCatalog(const GpuProbe& gpu, const ProbeCatalog& catalog);
/// SMs of an entry: the local entry's own figure, else the datasheet's for the shipped entries that state them.
std::optional<int> knownSmCount(const GpuSpec& spec, const ProbeCatalog& catalog);

} // namespace clusterplanner::core::probe
