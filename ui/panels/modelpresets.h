// SPDX-License-Identifier: GPL-3.0-or-later
// Published model architectures offered by the scenario form's preset menu.
#pragma once

#include "core/model/scenario.h"

#include <vector>

namespace clusterplanner::ui {

/// The presets in menu order; each preset's name is ModelConfig::name.
const std::vector<core::ModelConfig>& modelPresets();
/// Index into modelPresets() of the preset equal to `model`, or -1 for a custom model.
int findModelPreset(const core::ModelConfig& model);

} // namespace clusterplanner::ui
