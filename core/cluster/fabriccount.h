// SPDX-License-Identifier: GPL-3.0-or-later
// Switches, links and bisection bandwidth of a ClusterSpec's fabric, counted tier by tier from the NICs up
// (docs/methods-cluster.md §3).
#pragma once

#include "core/cluster/clusterfigures.h"

namespace clusterplanner::core::cluster {

struct FabricCount
{
    long long endpointPorts = 0; ///< switch ports the NICs take (a NIC faster than a leaf port takes several)
    long long links = 0; ///< NIC-to-leaf plus every tier's uplinks: what optics and cables are bought for
    std::vector<TierFigures> tiers;
    double bisectionGbps = 0; ///< smallest over the tiers
    long long capacityPorts = 0; ///< most endpoint ports these tiers can connect (top radix × Π downlinks below)
};

/// Downlink ports of a switch of `radix` ports at `oversubscription` down:up, ⌊R·o/(1+o)⌋ (all R on the top tier).
int downlinksPerSwitch(int radix, double oversubscription, bool top);

FabricCount countFabric(const ClusterSpec& spec);

} // namespace clusterplanner::core::cluster
