// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model/enumnames.h"

#include <array>
#include <utility>

namespace clusterplanner::core {

namespace {

template <typename Enum, std::size_t N>
using NameTable = std::array<std::pair<Enum, std::string_view>, N>;

constexpr NameTable<MlpKind, 2> kMlp {{{MlpKind::Gelu, "gelu"}, {MlpKind::SwiGlu, "swiglu"}}};
constexpr NameTable<NormKind, 2> kNorm {{{NormKind::LayerNorm, "layernorm"}, {NormKind::RmsNorm, "rmsnorm"}}};
constexpr NameTable<Precision, 5> kPrecision {{{Precision::Fp32, "fp32"}, {Precision::AmpBf16, "amp_bf16"},
    {Precision::Bf16, "bf16"}, {Precision::AmpFp16, "amp_fp16"}, {Precision::Fp8, "fp8"}}};
constexpr NameTable<Optimizer, 4> kOptimizer {{{Optimizer::AdamW, "adamw"}, {Optimizer::Adam, "adam"},
    {Optimizer::Sgd, "sgd"}, {Optimizer::SgdMomentum, "sgd_momentum"}}};
constexpr NameTable<Recompute, 4> kRecompute {{{Recompute::None, "none"}, {Recompute::Selective, "selective"},
    {Recompute::Full, "full"}, {Recompute::Modules, "modules"}}};
constexpr NameTable<AttentionKind, 5> kAttention {{{AttentionKind::Flash, "flash"}, {AttentionKind::Sdpa, "sdpa"},
    {AttentionKind::Math, "math"}, {AttentionKind::Flash2, "flash2"}, {AttentionKind::Triton, "triton"}}};
constexpr NameTable<PipelineSchedule, 5> kSchedule {{{PipelineSchedule::GPipe, "gpipe"},
    {PipelineSchedule::OneFOneB, "1f1b"}, {PipelineSchedule::Interleaved, "interleaved"},
    {PipelineSchedule::ZbH1, "zb-h1"}, {PipelineSchedule::DualPipe, "dualpipe"}}};
constexpr NameTable<Framework, 7> kFramework {{{Framework::Megatron, "megatron"}, {Framework::NeMo, "nemo"},
    {Framework::TorchTitan, "torchtitan"}, {Framework::Fsdp, "fsdp"}, {Framework::DeepSpeed, "deepspeed"},
    {Framework::HuggingFace, "hf"}, {Framework::Other, "other"}}};

constexpr NameTable<RankOrdering, 2> kRankOrdering {
    {{RankOrdering::TpCpEpDpPp, "tp-cp-ep-dp-pp"}, {RankOrdering::TpCpEpPpDp, "tp-cp-ep-pp-dp"}}};
constexpr NameTable<Fp8Recipe, 5> kFp8Recipe {{{Fp8Recipe::FrameworkDefault, "framework_default"},
    {Fp8Recipe::Delayed, "delayed"}, {Fp8Recipe::Tensorwise, "tensorwise"}, {Fp8Recipe::Rowwise, "rowwise"},
    {Fp8Recipe::RowwiseGwHp, "rowwise_gw_hp"}}};
constexpr NameTable<MoeDispatcher, 2> kMoeDispatcher {
    {{MoeDispatcher::AllToAll, "all_to_all"}, {MoeDispatcher::DeepEp, "deepep"}}};
constexpr NameTable<OptimizerStates, 2> kOptimizerStates {
    {{OptimizerStates::Fp32, "fp32"}, {OptimizerStates::Bf16, "bf16"}}};

template <typename Enum, std::size_t N>
std::string_view nameOf(const NameTable<Enum, N>& table, Enum value)
{
    for (const auto& [entry, name] : table)
        if (entry == value)
            return name;
    return "?";
}

template <typename Enum, std::size_t N>
std::optional<Enum> valueOf(const NameTable<Enum, N>& table, std::string_view text)
{
    for (const auto& [entry, name] : table)
        if (name == text)
            return entry;
    return std::nullopt;
}

template <typename Enum, std::size_t N>
std::vector<Enum> valuesOf(const NameTable<Enum, N>& table)
{
    std::vector<Enum> values;
    for (const auto& entry : table)
        values.push_back(entry.first);
    return values;
}

} // namespace

#define CLUSTERPLANNER_ENUM_NAMES(Enum, table)                                                                         \
    std::string_view toString(Enum value)                                                                              \
    {                                                                                                                  \
        return nameOf(table, value);                                                                                   \
    }                                                                                                                  \
    template <>                                                                                                        \
    std::optional<Enum> enumFromString<Enum>(std::string_view text)                                                    \
    {                                                                                                                  \
        return valueOf(table, text);                                                                                   \
    }                                                                                                                  \
    template <>                                                                                                        \
    std::vector<Enum> allValues<Enum>()                                                                                \
    {                                                                                                                  \
        return valuesOf(table);                                                                                        \
    }

CLUSTERPLANNER_ENUM_NAMES(MlpKind, kMlp)
CLUSTERPLANNER_ENUM_NAMES(NormKind, kNorm)
CLUSTERPLANNER_ENUM_NAMES(Precision, kPrecision)
CLUSTERPLANNER_ENUM_NAMES(Optimizer, kOptimizer)
CLUSTERPLANNER_ENUM_NAMES(Recompute, kRecompute)
CLUSTERPLANNER_ENUM_NAMES(AttentionKind, kAttention)
CLUSTERPLANNER_ENUM_NAMES(PipelineSchedule, kSchedule)
CLUSTERPLANNER_ENUM_NAMES(Framework, kFramework)
CLUSTERPLANNER_ENUM_NAMES(RankOrdering, kRankOrdering)
CLUSTERPLANNER_ENUM_NAMES(Fp8Recipe, kFp8Recipe)
CLUSTERPLANNER_ENUM_NAMES(MoeDispatcher, kMoeDispatcher)
CLUSTERPLANNER_ENUM_NAMES(OptimizerStates, kOptimizerStates)

#undef CLUSTERPLANNER_ENUM_NAMES

} // namespace clusterplanner::core
