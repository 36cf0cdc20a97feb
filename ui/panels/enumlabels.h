// SPDX-License-Identifier: GPL-3.0-or-later
// Human-readable labels of the scenario enums for combo boxes (file names stay in core/model/enumnames.h).
#pragma once

#include "core/model/scenario.h"

#include <QString>

namespace clusterplanner::ui {

QString enumLabel(core::MlpKind value);
QString enumLabel(core::NormKind value);
QString enumLabel(core::Precision value);
QString enumLabel(core::Optimizer value);
QString enumLabel(core::Recompute value);
QString enumLabel(core::AttentionKind value);
QString enumLabel(core::Framework value);
QString enumLabel(core::RankOrdering value);
QString enumLabel(core::PipelineSchedule value);
QString enumLabel(core::Fp8Recipe value);
QString enumLabel(core::OptimizerStates value);
QString enumLabel(core::MoeDispatcher value);

/// What a sweep offers for the framework's free dimensions (data/frameworks.json), one line per dimension.
QString frameworkOptionsText(core::Framework framework);

} // namespace clusterplanner::ui
