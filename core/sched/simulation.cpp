// SPDX-License-Identifier: GPL-3.0-or-later
// Text names of the scheduling policies and placement strategies.
#include "core/sched/simulation.h"

#include <array>
#include <utility>

namespace clusterplanner::core::sched {

namespace {

constexpr std::array<std::pair<Policy, std::string_view>, 9> kPolicies {
    {{Policy::Fifo, "fifo"}, {Policy::Sjf, "sjf"}, {Policy::SjfEstimate, "sjf-estimate"}, {Policy::FairShare, "fair"},
        {Policy::Backfill, "backfill"}, {Policy::Tiresias, "tiresias"}, {Policy::Gandiva, "gandiva"},
        {Policy::Priority, "priority"}, {Policy::Gavel, "gavel"}}};
constexpr std::array<std::pair<PlacementStrategy, std::string_view>, 3> kPlacements {{{PlacementStrategy::Pack, "pack"},
    {PlacementStrategy::Spread, "spread"}, {PlacementStrategy::Balanced, "balanced"}}};

template <typename Enum, std::size_t N>
std::string_view nameOf(const std::array<std::pair<Enum, std::string_view>, N>& table, Enum value)
{
    for (const auto& [v, name] : table)
        if (v == value)
            return name;
    return {};
}

template <typename Enum, std::size_t N>
std::optional<Enum> valueOf(const std::array<std::pair<Enum, std::string_view>, N>& table, std::string_view text)
{
    for (const auto& [v, name] : table)
        if (name == text)
            return v;
    return std::nullopt;
}

} // namespace

std::string_view toString(Policy policy)
{
    return nameOf(kPolicies, policy);
}

std::string_view toString(PlacementStrategy strategy)
{
    return nameOf(kPlacements, strategy);
}

std::optional<Policy> policyFromString(std::string_view text)
{
    return valueOf(kPolicies, text);
}

std::optional<PlacementStrategy> placementFromString(std::string_view text)
{
    return valueOf(kPlacements, text);
}

} // namespace clusterplanner::core::sched
