// SPDX-License-Identifier: GPL-3.0-or-later
// The probe's result as readable text: one block per GPU, its catalog match, then the topology.
#pragma once

#include "core/probe/catalogmatch.h"
#include "core/probe/probetypes.h"

#include <string>

namespace clusterplanner::core::probe {

/// Several lines per GPU; the one-line reason alone when nothing was probed.
std::string describe(const ProbeResult& result, const ProbeCatalog& catalog);
/// "NVLink 4 via NVSwitch", "2 × NVLink 3", "PCIe, P2P off": how gpu reaches a peer.
std::string describeLink(const PeerLink& peer);

} // namespace clusterplanner::core::probe
