// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/gpucatalog.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace clusterplanner::core {

extern const char* const kBuiltinGpuCatalogJson; // generated from data/gpus.json at build time

namespace {

std::optional<double> optionalNumber(const nlohmann::json& object, const char* key)
{
    auto it = object.find(key);
    if (it == object.end() || it->is_null())
        return std::nullopt;
    return it->get<double>();
}

PriceRange priceRange(const nlohmann::json& object, const char* key)
{
    auto it = object.find(key);
    if (it == object.end() || !it->is_array() || it->size() != 2)
        return {};
    auto value = [](const nlohmann::json& v) { return v.is_null() ? std::nullopt : std::optional(v.get<double>()); };
    return {value((*it)[0]), value((*it)[1])};
}

GpuSpec parseGpu(const nlohmann::json& g)
{
    GpuSpec spec;
    spec.id = g.at("id").get<std::string>();
    spec.formerIds = g.value("former_ids", std::vector<std::string> {});
    spec.name = g.at("name").get<std::string>();
    spec.vendor = g.value("vendor", "");
    spec.memoryGB = g.at("memory_gb").get<double>();
    spec.memoryTotalMiB = optionalNumber(g, "memory_total_mib");
    spec.hbmTBs = g.at("hbm_tb_s").get<double>();
    spec.bf16Tflops = optionalNumber(g, "bf16_tflops");
    spec.fp16Tflops = optionalNumber(g, "fp16_tflops");
    spec.fp8Tflops = optionalNumber(g, "fp8_tflops");
    spec.fp32Tflops = optionalNumber(g, "fp32_tflops");
    spec.mamfBf16Tflops = optionalNumber(g, "mamf_bf16_tflops");
    spec.tdpW = g.at("tdp_w").get<double>();
    spec.scaleupFabric = g.value("scaleup_fabric", "");
    spec.scaleupGBsBidir = g.at("scaleup_gb_s_bidir").get<double>();
    spec.scaleupDomainGpus = g.at("scaleup_domain_gpus").get<int>();
    spec.scaleoutGbpsPerGpu = g.value("scaleout_gbps_per_gpu", 0.0);
    spec.hostLinkGBsBidir = g.value("host_link_gb_s_bidir", 0.0);
    spec.smCount = g.value("sm_count", 0);
    if (spec.smCount < 0 || spec.smCount > 100'000)
        throw std::runtime_error(
            "gpus." + spec.id + ".sm_count: 0 (unknown) to 100000 (got " + std::to_string(spec.smCount) + ")");
    spec.cloudUsdPerGpuHour = priceRange(g, "cloud_usd_per_gpu_hour");
    spec.purchaseUsd = priceRange(g, "purchase_usd");
    spec.notes = g.value("notes", "");
    spec.source = g.value("source", "");
    return spec;
}

} // namespace

std::optional<double> PriceRange::midUsd() const
{
    if (lowUsd && highUsd)
        return (*lowUsd + *highUsd) / 2;
    return lowUsd ? lowUsd : highUsd;
}

std::optional<double> GpuSpec::achievableMatmulFraction() const
{
    if (!mamfBf16Tflops || !bf16Tflops || *bf16Tflops <= 0 || *mamfBf16Tflops <= 0)
        return std::nullopt;
    return *mamfBf16Tflops / *bf16Tflops;
}

double GpuSpec::peakFlops(Precision precision) const
{
    auto pick = [](std::initializer_list<std::optional<double>> options) {
        for (const auto& option : options)
            if (option)
                return *option * 1e12;
        return 0.0;
    };
    switch (precision) {
    case Precision::Fp32:
        return pick({fp32Tflops, fp16Tflops, bf16Tflops});
    case Precision::Fp8:
        return pick({fp8Tflops, bf16Tflops, fp16Tflops});
    case Precision::AmpFp16:
        return pick({fp16Tflops, bf16Tflops});
    case Precision::AmpBf16:
    case Precision::Bf16:
        break;
    }
    return pick({bf16Tflops, fp16Tflops});
}

const GpuCatalog& GpuCatalog::builtin()
{
    static const GpuCatalog catalog = fromJson(kBuiltinGpuCatalogJson);
    return catalog;
}

GpuCatalog GpuCatalog::fromJson(const std::string& text)
{
    const auto document = nlohmann::json::parse(text);
    GpuCatalog catalog;
    for (const auto& entry : document.at("gpus")) {
        try {
            catalog.m_gpus.push_back(parseGpu(entry));
        } catch (const nlohmann::json::exception& error) {
            throw std::runtime_error(
                "GPU catalog entry " + entry.value("id", std::string("(no id)")) + ": " + error.what());
        }
    }
    return catalog;
}

const GpuSpec* GpuCatalog::find(const std::string& id) const
{
    for (const auto& gpu : m_gpus)
        if (gpu.id == id)
            return &gpu;
    for (const auto& gpu : m_gpus)
        if (std::find(gpu.formerIds.begin(), gpu.formerIds.end(), id) != gpu.formerIds.end())
            return &gpu;
    return nullptr;
}

std::string GpuCatalog::currentId(const std::string& id) const
{
    const GpuSpec* gpu = find(id);
    return gpu ? gpu->id : id;
}

namespace {

/// Upper-case words of a GPU id or name, split at every character that is not a letter or a digit.
std::vector<std::string> upperWords(const std::string& text)
{
    std::vector<std::string> words(1);
    for (const unsigned char c : text) {
        if (std::isalnum(c)) {
            words.back() += char(std::toupper(c));
        } else if (!words.back().empty()) {
            words.emplace_back();
        }
    }
    if (words.back().empty())
        words.pop_back();
    return words;
}

/// The words that name a chip: with a digit, and not a capacity ("80GB"), a memory type ("HBM3") or a form factor
/// ("SXM5", "PCIe5"), which several chips share.
std::vector<std::string> chipWords(const std::string& text)
{
    std::vector<std::string> chips;
    for (const auto& word : upperWords(text)) {
        const bool digit = std::any_of(word.begin(), word.end(), [](unsigned char c) { return std::isdigit(c); });
        const bool capacity = word.size() > 2 && word.compare(word.size() - 2, 2, "GB") == 0;
        const bool shared = word.rfind("HBM", 0) == 0 || word.rfind("SXM", 0) == 0 || word.rfind("PCIE", 0) == 0;
        if (digit && !capacity && !shared)
            chips.push_back(word);
    }
    return chips;
}

/// The words of an entry's id and name, and each pair of neighbours run together ("RTX-4090" also offers
/// "RTX4090"), so that an id written without separators still finds it.
std::vector<std::string> offeredWords(const std::string& text)
{
    std::vector<std::string> words = upperWords(text);
    const std::size_t single = words.size();
    for (std::size_t i = 0; i + 1 < single; ++i)
        words.push_back(words[i] + words[i + 1]);
    return words;
}

} // namespace

std::vector<std::string> GpuCatalog::idsLike(const std::string& id) const
{
    const auto wanted = chipWords(id);
    // A chip word names the entries whose words start with it: "MI300" finds the MI300X, "L40" the L40S.
    const auto startsWith = [](const std::string& word, const std::string& start) { return word.rfind(start, 0) == 0; };
    std::vector<std::string> like;
    for (const auto& gpu : m_gpus) {
        const auto offered = offeredWords(gpu.id + " " + gpu.name);
        const bool named = std::any_of(wanted.begin(), wanted.end(), [&](const std::string& w) {
            return std::any_of(offered.begin(), offered.end(), [&](const std::string& o) { return startsWith(o, w); });
        });
        if (named)
            like.push_back(gpu.id);
    }
    return like;
}

std::string GpuCatalog::unknownIdText(const std::string& id) const
{
    std::string text = "unknown GPU \"" + id + "\"";
    const auto like = idsLike(id);
    for (std::size_t i = 0; i < like.size(); ++i)
        text += (i == 0 ? "; the catalog has " : ", ") + like[i];
    return text + (like.empty() ? " (clusterplanner catalog lists the ids)" : "");
}

} // namespace clusterplanner::core
