// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/probe/catalogmatch.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>

namespace clusterplanner::core::probe {

namespace {

std::vector<std::string> tokens(const std::string& name)
{
    std::string text = name;
    std::replace_if(
        text.begin(), text.end(), [](char c) { return c == '-' || c == '_' || c == '(' || c == ')'; }, ' ');
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return char(std::toupper(c)); });
    std::istringstream in(text);
    std::vector<std::string> words;
    for (std::string word; in >> word;)
        words.push_back(word);
    return words;
}

bool isCapacityOrMemoryType(const std::string& word)
{
    const bool capacity = word.size() > 2 && word.compare(word.size() - 2, 2, "GB") == 0;
    return capacity || word.rfind("HBM", 0) == 0 || word.rfind("GDDR", 0) == 0 || word.rfind("SXM", 0) == 0;
}

/// The words that name the chip: "H100", "4090", "L40S"; capacities, memory types and form factors excluded.
std::vector<std::string> modelTokens(const std::string& name)
{
    std::vector<std::string> models;
    for (const auto& word : tokens(name))
        if (std::any_of(word.begin(), word.end(), ::isdigit) && !isCapacityOrMemoryType(word))
            models.push_back(word);
    return models;
}

bool namesSameChip(const std::string& probed, const GpuSpec& spec)
{
    const auto wanted = modelTokens(probed);
    const auto offered = tokens(spec.name + " " + spec.id);
    return !wanted.empty() && std::all_of(wanted.begin(), wanted.end(), [&](const std::string& w) {
        return std::find(offered.begin(), offered.end(), w) != offered.end();
    });
}

bool isPcie(const std::string& text)
{
    const auto words = tokens(text);
    return std::find(words.begin(), words.end(), "PCIE") != words.end();
}

/// Relative distance of total memory; 0 when the probe has none.
double memoryDistance(const GpuProbe& gpu, const GpuSpec& spec)
{
    if (!gpu.memoryTotalBytes)
        return 0;
    return std::abs(double(*gpu.memoryTotalBytes) - spec.memoryBytes()) / spec.memoryBytes();
}

bool fits(const GpuProbe& gpu, const GpuSpec& spec, const ProbeCatalog& catalog)
{
    const auto sms = knownSmCount(spec, catalog);
    if (sms && gpu.smCount && *sms != *gpu.smCount)
        return false;
    return namesSameChip(gpu.name, spec) && memoryDistance(gpu, spec) < 0.10;
}

/// Relative distance of the memory bandwidth the clocks imply; 0 when the probe cannot say. Tells apart parts with
/// the same chip and capacity but different memory (H100 96 GB: HBM3 at 3.36 TB/s, Meta's HBM2e at 2.4 TB/s).
double bandwidthDistance(const GpuProbe& gpu, const GpuSpec& spec)
{
    const auto probed = gpu.memoryBandwidthTBs();
    return probed && spec.hbmTBs > 0 ? std::abs(*probed - spec.hbmTBs) / spec.hbmTBs : 0;
}

double score(const GpuProbe& gpu, const GpuSpec& spec)
{
    const bool formFactorAgrees = isPcie(gpu.name) == isPcie(spec.name);
    return memoryDistance(gpu, spec) + bandwidthDistance(gpu, spec) + (formFactorAgrees ? 0.0 : 1.0);
}

std::string mib(double value)
{
    std::ostringstream text;
    text << std::llround(value) << " MiB";
    return text.str();
}

std::string watts(double value)
{
    std::ostringstream text;
    text << std::llround(value) << " W";
    return text.str();
}

void addMemoryDifference(const GpuProbe& gpu, const GpuSpec& spec, std::vector<CatalogDifference>& out)
{
    if (!gpu.memoryTotalBytes)
        return;
    const double catalogMiB = spec.memoryBytes() / (1024.0 * 1024.0);
    const double reservedMiB = gpu.memoryReservedBytes ? double(*gpu.memoryReservedBytes) / (1024.0 * 1024.0) : 0;
    std::string note = "datasheet " + std::to_string(std::lround(spec.memoryGB)) + " GB";
    if (reservedMiB > 0)
        note += "; the driver reserves " + mib(reservedMiB) + ", CUDA sees " + mib(gpu.memoryTotalMiB() - reservedMiB);
    out.push_back({"memory", mib(catalogMiB), mib(gpu.memoryTotalMiB()), note});
}

void addPowerDifference(const GpuProbe& gpu, const GpuSpec& spec, std::vector<CatalogDifference>& out)
{
    if (!gpu.powerLimitEnforcedW || spec.tdpW <= 0 || std::abs(*gpu.powerLimitEnforcedW - spec.tdpW) < 0.5)
        return;
    const bool below = *gpu.powerLimitEnforcedW < spec.tdpW;
    out.push_back({"power limit", watts(spec.tdpW), watts(*gpu.powerLimitEnforcedW),
        below ? "limit set below TDP: clocks drop under load" : "limit above the catalog's TDP"});
}

void addModeDifferences(
    const GpuProbe& gpu, const GpuSpec& spec, const ProbeCatalog& catalog, std::vector<CatalogDifference>& out)
{
    if (gpu.migEnabled.value_or(false))
        out.push_back({"MIG", "off", "on", "CUDA sees MIG slices, not the whole GPU"});
    const auto sms = knownSmCount(spec, catalog);
    if (!sms && gpu.smCount)
        out.push_back({"SMs", "not in the catalog", std::to_string(*gpu.smCount), ""});
}

} // namespace

std::optional<int> knownSmCount(const GpuSpec& spec, const ProbeCatalog& catalog)
{
    if (const auto local = catalog.localSmCounts.find(spec.id); local != catalog.localSmCounts.end())
        return local->second;
    // The catalog's sm_count: NVIDIA datasheets / architecture whitepapers (methods-probe.md §10.2).
    return spec.smCount > 0 ? std::optional(spec.smCount) : std::nullopt;
}

CatalogMatch matchCatalog(const GpuProbe& gpu, const ProbeCatalog& catalog)
{
    const GpuSpec* best = nullptr;
    for (const auto& spec : catalog.gpus.gpus())
        if (fits(gpu, spec, catalog) && (!best || score(gpu, spec) < score(gpu, *best)))
            best = &spec;
    CatalogMatch match;
    if (!best) {
        match.reason = "no catalog entry has this name, memory and SM count";
        return match;
    }
    match.catalogId = best->id;
    match.local = catalog.isLocal(best->id);
    match.reason = "name, memory" + std::string(knownSmCount(*best, catalog) && gpu.smCount ? " and SM count" : "");
    addMemoryDifference(gpu, *best, match.differences);
    addPowerDifference(gpu, *best, match.differences);
    addModeDifferences(gpu, *best, catalog, match.differences);
    return match;
}

} // namespace clusterplanner::core::probe
