// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/probe/localcatalog.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <stdexcept>

namespace clusterplanner::core {
extern const char* const kBuiltinGpuCatalogJson; // generated from data/gpus.json at build time
}

namespace clusterplanner::core::probe {

namespace {

nlohmann::json parseLocal(const std::string& localJson)
{
    if (localJson.find_first_not_of(" \t\r\n") == std::string::npos)
        return {{"gpus", nlohmann::json::array()}};
    auto document = nlohmann::json::parse(localJson, nullptr, false);
    if (document.is_discarded() || !document.is_object() || !document.contains("gpus") || !document["gpus"].is_array())
        throw std::runtime_error("the local GPU catalog is not a {\"gpus\": [...]} document");
    return document;
}

nlohmann::json optionalNumber(bool known, double value)
{
    return known ? nlohmann::json(value) : nlohmann::json(nullptr);
}

std::optional<double> fp32Tflops(const GpuProbe& gpu)
{
    const int lanes = gpu.computeMajor ? fp32LanesPerSm(*gpu.computeMajor, gpu.computeMinor.value_or(0)) : 0;
    if (!lanes || !gpu.smCount || !gpu.smClockMaxMHz)
        return std::nullopt;
    return double(*gpu.smCount) * lanes * 2.0 * *gpu.smClockMaxMHz * 1e6 / 1e12;
}

} // namespace

int fp32LanesPerSm(int major, int minor)
{
    if (major == 7 || (major == 8 && minor == 0))
        return 64;
    if (major == 6)
        return minor == 0 ? 64 : 128;
    if (major >= 8)
        return 128;
    return 0;
}

std::string localIdFor(const std::string& gpuName)
{
    std::string id = "local-";
    for (unsigned char c : gpuName)
        if (std::isalnum(c))
            id += char(std::tolower(c));
        else if (id.back() != '-')
            id += '-';
    while (id.back() == '-')
        id.pop_back();
    return id;
}

nlohmann::json localEntryFor(const GpuProbe& gpu)
{
    const double memoryBytes = gpu.memoryTotalBytes ? double(*gpu.memoryTotalBytes) : 0.0;
    const auto hbm = gpu.memoryBandwidthTBs();
    const auto fp32 = fp32Tflops(gpu);
    return {{"id", localIdFor(gpu.name)}, {"name", gpu.name}, {"vendor", "NVIDIA"},
        {"memory_gb", std::round(memoryBytes / 1e9 * 10) / 10}, {"memory_total_mib", memoryBytes / (1024.0 * 1024.0)},
        {"hbm_tb_s", hbm.value_or(0.0)}, {"bf16_tflops", nullptr}, {"fp16_tflops", nullptr}, {"fp8_tflops", nullptr},
        {"fp32_tflops", optionalNumber(fp32.has_value(), fp32.value_or(0))},
        {"tdp_w", gpu.powerLimitDefaultW.value_or(0.0)}, {"scaleup_fabric", gpu.nvlinkActiveLinks ? "NVLink" : "PCIe"},
        {"scaleup_gb_s_bidir", 0}, {"scaleup_domain_gpus", 1},
        {"sm_count", gpu.smCount ? nlohmann::json(*gpu.smCount) : nlohmann::json(nullptr)},
        {"source", "probed on this machine (clusterplanner probe)"}};
}

std::string addLocalEntry(const std::string& localJson, const nlohmann::json& entry)
{
    auto document = parseLocal(localJson);
    auto& gpus = document["gpus"];
    const auto id = entry.at("id").get<std::string>();
    gpus.erase(
        std::remove_if(gpus.begin(), gpus.end(), [&](const auto& g) { return g.value("id", "") == id; }), gpus.end());
    gpus.push_back(entry);
    return document.dump(1);
}

ProbeCatalog mergedCatalog(const std::string& localJson, const std::string& shippedJson)
{
    auto shipped = nlohmann::json::parse(shippedJson);
    auto& gpus = shipped["gpus"];
    ProbeCatalog merged;
    const auto local = parseLocal(localJson);
    for (const auto& entry : local["gpus"]) {
        const auto id = entry.value("id", "");
        gpus.erase(std::remove_if(gpus.begin(), gpus.end(), [&](const auto& g) { return g.value("id", "") == id; }),
            gpus.end());
        gpus.push_back(entry);
        merged.localIds.insert(id);
        if (entry.contains("sm_count") && entry["sm_count"].is_number_integer())
            merged.localSmCounts[id] = entry["sm_count"].get<int>();
    }
    merged.gpus = GpuCatalog::fromJson(shipped.dump());
    return merged;
}

ProbeCatalog mergedCatalog(const std::string& localJson)
{
    return mergedCatalog(localJson, kBuiltinGpuCatalogJson);
}

} // namespace clusterplanner::core::probe
