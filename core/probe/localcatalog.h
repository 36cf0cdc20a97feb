// SPDX-License-Identifier: GPL-3.0-or-later
// The user's own GPU catalog: entries for GPUs the shipped catalog lacks, merged over it and marked "local".
// Core only builds and merges the JSON; where the file lives is the UI's business (ui/settings/localcatalogfile.h).
#pragma once

#include "core/probe/catalogmatch.h"
#include "core/probe/probetypes.h"

#include <nlohmann/json_fwd.hpp>

#include <string>

namespace clusterplanner::core::probe {

/// A catalog entry for gpu from what was probed: memory, TDP = default power limit, HBM bandwidth from the
/// memory clock and bus width, FP32 peak from SMs, FP32 lanes and clock (methods-probe.md §10.2); tensor peaks
/// stay null, since the probe cannot know them.
nlohmann::json localEntryFor(const GpuProbe& gpu);
/// "local-nvidia-geforce-rtx-3090": the id a local entry gets.
std::string localIdFor(const std::string& gpuName);
/// localJson ({"gpus": [...]}, or empty) with entry added, replacing an entry of the same id.
std::string addLocalEntry(const std::string& localJson, const nlohmann::json& entry);
/// The shipped catalog with the local entries merged over it (same id replaces), their ids in localIds.
/// Throws std::runtime_error when localJson is not a catalog or an entry lacks a required key.
ProbeCatalog mergedCatalog(const std::string& localJson, const std::string& shippedJson);
/// mergedCatalog over the catalog compiled in from data/gpus.json.
ProbeCatalog mergedCatalog(const std::string& localJson);
/// FP32 lanes per SM for a compute capability (CUDA C Programming Guide throughput table); 0 when unknown.
int fp32LanesPerSm(int major, int minor);

} // namespace clusterplanner::core::probe
