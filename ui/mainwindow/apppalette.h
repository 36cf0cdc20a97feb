// SPDX-License-Identifier: GPL-3.0-or-later
// Light and dark palettes for the whole application (Fusion style, so that they look the same everywhere).
#pragma once

namespace clusterplanner::ui {

/// Applies a dark or the default light palette to the application; every chart restyles itself on the change.
void applyAppPalette(bool dark);

} // namespace clusterplanner::ui
