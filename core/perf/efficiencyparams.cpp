// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/perf/efficiencyparams.h"

#include "core/io/jsontext.h"
#include "core/model/gpucatalog.h"

#include <nlohmann/json.hpp>

#include <stdexcept>

namespace clusterplanner::core::perf {

extern const char* const kBuiltinEfficiencyJson; // generated from data/efficiency.json at build time

namespace {

struct Key
{
    const char* name;
    double EfficiencyParams::*member;
};

constexpr Key kKeys[] = {
    {"gemm_peak_fraction", &EfficiencyParams::gemmPeakFraction},
    {"gemm_half_gflop", &EfficiencyParams::gemmHalfGflop},
    {"attention_peak_fraction", &EfficiencyParams::attentionPeakFraction},
    {"attention_backward_factor", &EfficiencyParams::attentionBackwardFactor},
    {"flash2_attention_ratio", &EfficiencyParams::flash2AttentionRatio},
    {"triton_forward_ratio", &EfficiencyParams::tritonForwardRatio},
    {"triton_backward_ratio", &EfficiencyParams::tritonBackwardRatio},
    {"hbm_fraction", &EfficiencyParams::hbmFraction},
    {"fp32_peak_fraction", &EfficiencyParams::fp32PeakFraction},
    {"matmul_reference_fraction", &EfficiencyParams::matmulReferenceFraction},
    {"gemm_half_reference_tflops", &EfficiencyParams::gemmHalfReferenceTflops},
    {"elementwise_passes_fused", &EfficiencyParams::elementwisePassesFused},
    {"elementwise_passes_eager", &EfficiencyParams::elementwisePassesEager},
    {"kernel_launch_s", &EfficiencyParams::kernelLaunchS},
    {"kernels_per_layer_fused", &EfficiencyParams::kernelsPerLayerFused},
    {"host_op_s", &EfficiencyParams::hostOpS},
    {"tp_overlap", &EfficiencyParams::tpOverlap},
    {"cp_overlap", &EfficiencyParams::cpOverlap},
    {"dp_overlap", &EfficiencyParams::dpOverlap},
    {"pp_overlap", &EfficiencyParams::ppOverlap},
    {"zero3_overlap", &EfficiencyParams::zero3Overlap},
    {"zero3_hierarchy", &EfficiencyParams::zero3Hierarchy},
    {"host_copy_efficiency", &EfficiencyParams::hostCopyEfficiency},
    {"comm_compute_slowdown", &EfficiencyParams::commComputeSlowdown},
    {"step_overhead_s", &EfficiencyParams::stepOverheadS},
    {"micro_batch_overhead_s", &EfficiencyParams::microBatchOverheadS},
    {"recompute_layer_overhead_eager_s", &EfficiencyParams::recomputeLayerOverheadEagerS},
    {"gpu_power_utilization", &EfficiencyParams::gpuPowerUtilization},
    {"node_overhead_per_gpu_fraction", &EfficiencyParams::nodeOverheadPerGpuFraction},
};

struct LinkKey
{
    const char* name;
    double LinkEfficiency::*member;
};

constexpr LinkKey kLinkKeys[] = {
    {"link_scale_up", &LinkEfficiency::scaleUp},
    {"link_scale_out", &LinkEfficiency::scaleOut},
    {"link_latency_scale", &LinkEfficiency::latencyScale},
};

bool isSpeedRatio(const std::string& name)
{
    return name == "flash2_attention_ratio" || name == "triton_forward_ratio" || name == "triton_backward_ratio";
}

/// Applies every key of object to params; unknown keys are an error (a typo must not silently do nothing).
void apply(EfficiencyParams& params, const nlohmann::json& object, const std::string& where)
{
    for (const auto& [name, value] : object.items()) {
        if (name == "name" || name == "gpus" || name == "comment")
            continue;
        // Checked before get<double>(), whose own message would show the JSON library's internals.
        if (!value.is_number() || value.get<double>() < 0)
            throw std::runtime_error(where + ": \"" + excerpt(name) + "\" must be a non-negative number");
        // A kernel's speed relative to another divides a time: zero would make it infinite.
        if (isSpeedRatio(name) && value.get<double>() <= 0)
            throw std::runtime_error(where + ": \"" + excerpt(name) + "\" must be above zero (a speed ratio)");
        bool known = false;
        for (const auto& key : kKeys)
            if (name == key.name) {
                params.*key.member = value.get<double>();
                known = true;
            }
        for (const auto& key : kLinkKeys)
            if (name == key.name) {
                params.link.*key.member = value.get<double>();
                known = true;
            }
        if (!known)
            throw std::runtime_error(where + ": unknown efficiency key \"" + excerpt(name) + "\"");
    }
}

[[noreturn]] void throwEfficiencyError(const std::string& message)
{
    throw std::runtime_error(message);
}

} // namespace

const char* EfficiencyTable::builtinJsonText()
{
    return kBuiltinEfficiencyJson;
}

const EfficiencyTable& EfficiencyTable::builtin()
{
    static const EfficiencyTable table = fromJson(kBuiltinEfficiencyJson);
    return table;
}

// A function-try-block: any JSON library error below becomes a message without the library's internals.
EfficiencyTable EfficiencyTable::fromJson(const std::string& text)
try {
    const auto document = parseJsonText(text, "", &throwEfficiencyError);
    EfficiencyParams base;
    apply(base, document.value("defaults", nlohmann::json::object()), "efficiency defaults");
    EfficiencyTable table;
    table.m_families.push_back(base);
    for (const auto& entry : document.at("families")) {
        EfficiencyParams family = base;
        family.family = entry.at("name").get<std::string>();
        apply(family, entry, "efficiency family " + excerpt(family.family));
        table.m_families.push_back(family);
        for (const auto& gpu : entry.value("gpus", nlohmann::json::array()))
            // A renamed catalog entry keeps the family an older file gives it under its former id.
            table.m_gpuToFamily.emplace_back(
                GpuCatalog::builtin().currentId(gpu.get<std::string>()), table.m_families.size() - 1);
    }
    return table;
} catch (const nlohmann::json::exception& error) {
    throw std::runtime_error(jsonErrorText(error));
}

const EfficiencyParams& EfficiencyTable::forGpu(const std::string& gpuId) const
{
    for (const auto& [id, index] : m_gpuToFamily)
        if (id == gpuId)
            return m_families[index];
    return m_families[m_default];
}

EfficiencyParams withOverrides(EfficiencyParams params, const std::string& jsonObjectText)
{
    try {
        apply(params, nlohmann::json::parse(jsonObjectText), "efficiency override");
    } catch (const nlohmann::json::exception& error) {
        throw std::runtime_error(std::string("efficiency override: ") + error.what());
    }
    return params;
}

std::string toJsonText(const EfficiencyParams& params)
{
    nlohmann::json object;
    object["name"] = params.family;
    for (const auto& key : kKeys)
        object[key.name] = params.*key.member;
    for (const auto& key : kLinkKeys)
        object[key.name] = params.link.*key.member;
    return object.dump();
}

} // namespace clusterplanner::core::perf
