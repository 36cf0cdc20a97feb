// SPDX-License-Identifier: GPL-3.0-or-later
// Stable text names of the scenario enums, as used in files, the command line and the UI.
#pragma once

#include "core/model/scenario.h"

#include <optional>
#include <string_view>
#include <vector>

namespace clusterplanner::core {

std::string_view toString(MlpKind value);
std::string_view toString(NormKind value);
std::string_view toString(Precision value);
std::string_view toString(Optimizer value);
std::string_view toString(Recompute value);
std::string_view toString(AttentionKind value);
std::string_view toString(PipelineSchedule value);
std::string_view toString(Framework value);
std::string_view toString(RankOrdering value);
std::string_view toString(Fp8Recipe value);
std::string_view toString(MoeDispatcher value);
std::string_view toString(OptimizerStates value);

/// Parses a name; std::nullopt when it is not one of the names above.
template <typename Enum>
std::optional<Enum> enumFromString(std::string_view text);

/// Every value of the enum, in declaration order (for menus and validation messages).
template <typename Enum>
std::vector<Enum> allValues();

} // namespace clusterplanner::core
