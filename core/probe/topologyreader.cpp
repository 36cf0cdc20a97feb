// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/probe/topologyreader.h"

#include "core/probe/fieldreader.h"

#include <algorithm>

namespace clusterplanner::core::probe {

namespace {

inline constexpr int kP2PStatusOk = 0; ///< nvmlGpuP2PStatus_t

std::optional<bool> p2pOk(const NvmlApi& api, nvml::Device a, nvml::Device b, int caps, FieldReader& r)
{
    int status = 0;
    if (!r.ask("p2p_status", "nvmlDeviceGetP2PStatus", api.p2pStatus, a, b, caps, &status))
        return std::nullopt;
    return status == kP2PStatusOk;
}

void countDirectLinks(const std::vector<NvLinkEnd>& ends, const std::string& peerBusId, PeerLink& peer)
{
    for (const auto& end : ends) {
        if (end.remoteIsSwitch || end.remoteBusId != peerBusId)
            continue;
        ++peer.nvlinkLinks;
        if (!peer.nvlinkVersion)
            peer.nvlinkVersion = end.version;
    }
}

/// NVSwitch systems (HGX, DGX) wire every link to a switch: the GPUs reach each other through the fabric.
void addSwitchPath(const std::vector<NvLinkEnd>& ends, const GpuProbe& self, const GpuProbe& other, PeerLink& peer)
{
    if (self.nvlinkSwitchLinks == 0 || other.nvlinkSwitchLinks == 0 || peer.p2pNvlink == false)
        return;
    peer.viaNvSwitch = true;
    for (const auto& end : ends)
        if (end.remoteIsSwitch && !peer.nvlinkVersion)
            peer.nvlinkVersion = end.version;
}

PeerLink readPeer(const NvmlApi& api, nvml::Device a, nvml::Device b, const std::vector<NvLinkEnd>& ends,
    const GpuProbe& self, const GpuProbe& other, FieldReader& r)
{
    PeerLink peer;
    peer.peerIndex = other.index;
    countDirectLinks(ends, normaliseBusId(other.pciBusId), peer);
    peer.p2pRead = p2pOk(api, a, b, nvml::kP2PCapsRead, r);
    peer.p2pNvlink = p2pOk(api, a, b, nvml::kP2PCapsNvlink, r);
    addSwitchPath(ends, self, other, peer);
    int level = -1;
    if (r.ask("common_ancestor", "nvmlDeviceGetTopologyCommonAncestor", api.commonAncestor, a, b, &level))
        peer.ancestor = ancestorFromLevel(level);
    return peer;
}

} // namespace

CommonAncestor ancestorFromLevel(int level)
{
    switch (level) {
    case 0:
        return CommonAncestor::Internal;
    case 10:
        return CommonAncestor::Single;
    case 20:
        return CommonAncestor::Multiple;
    case 30:
        return CommonAncestor::HostBridge;
    case 40:
        return CommonAncestor::Node;
    case 50:
        return CommonAncestor::System;
    default:
        return CommonAncestor::Unknown;
    }
}

void readTopology(const NvmlApi& api, const std::vector<nvml::Device>& devices,
    const std::vector<std::vector<NvLinkEnd>>& links, std::vector<GpuProbe>& gpus)
{
    for (std::size_t i = 0; i < gpus.size(); ++i) {
        auto& self = gpus[i];
        // One note per GPU is enough: a missing P2P symbol would otherwise repeat for every peer.
        std::vector<Unavailable> notes;
        FieldReader r(notes, &self.lost, &nvml::returnName, nvml::kGpuIsLost);
        for (std::size_t j = 0; j < gpus.size(); ++j)
            if (j != i && !self.lost && !gpus[j].lost)
                self.peers.push_back(readPeer(api, devices[i], devices[j], links[i], self, gpus[j], r));
        for (const auto& note : notes)
            if (std::none_of(self.unavailable.begin(), self.unavailable.end(),
                    [&](const Unavailable& u) { return u.field == note.field; }))
                self.unavailable.push_back(note);
    }
}

} // namespace clusterplanner::core::probe
