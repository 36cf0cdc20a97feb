// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/probe/probetext.h"

#include "core/probe/catalogmatch.h"
#include "core/probe/probejson.h"

#include <sstream>

namespace clusterplanner::core::probe {

namespace {

template <typename T>
std::string orDash(const std::optional<T>& value, const char* unit)
{
    if (!value)
        return "–";
    std::ostringstream text;
    text << *value << unit;
    return text.str();
}

void describeGpu(const GpuProbe& gpu, const ProbeCatalog& catalog, std::ostream& out)
{
    out << "GPU " << gpu.index << ": " << gpu.name << (gpu.lost ? "  [LOST: fell off the bus]" : "") << "\n"
        << "  bus " << gpu.pciBusId << ", CC " << orDash(gpu.computeMajor, "") << "." << orDash(gpu.computeMinor, "")
        << ", " << orDash(gpu.smCount, " SMs") << "\n"
        << "  memory " << (gpu.memoryTotalBytes ? std::to_string(*gpu.memoryTotalBytes >> 20) + " MiB" : "–")
        << " (reserved " << (gpu.memoryReservedBytes ? std::to_string(*gpu.memoryReservedBytes >> 20) + " MiB" : "–")
        << "), clocks max SM " << orDash(gpu.smClockMaxMHz, " MHz") << ", memory "
        << orDash(gpu.memoryClockMaxMHz, " MHz") << "\n"
        << "  power limit " << orDash(gpu.powerLimitEnforcedW, " W") << ", PCIe Gen"
        << orDash(gpu.pcieGenerationMax, "") << " x" << orDash(gpu.pcieWidthMax, "") << ", MIG "
        << (gpu.migEnabled ? (*gpu.migEnabled ? "on" : "off") : "–") << "\n";
    const auto match = matchCatalog(gpu, catalog);
    out << "  catalog: " << (match.matched() ? match.catalogId + (match.local ? " (local)" : "") : match.reason)
        << "\n";
    for (const auto& d : match.differences)
        out << "    " << d.what << ": catalog " << d.catalog << ", here " << d.probed
            << (d.note.empty() ? "" : " (" + d.note + ")") << "\n";
}

} // namespace

std::string describeLink(const PeerLink& peer)
{
    std::ostringstream text;
    const std::string version = peer.nvlinkVersion ? " " + std::to_string(*peer.nvlinkVersion) : "";
    if (peer.viaNvSwitch)
        text << "NVLink" << version << " via NVSwitch";
    else if (peer.nvlinkLinks > 0)
        text << peer.nvlinkLinks << " × NVLink" << version;
    else
        text << "PCIe, " << (peer.p2pRead.value_or(false) ? "P2P" : "no P2P") << ", " << ancestorName(peer.ancestor);
    return text.str();
}

std::string describe(const ProbeResult& result, const ProbeCatalog& catalog)
{
    if (!result.available)
        return result.reason + "\n";
    std::ostringstream out;
    out << result.gpus.size() << " NVIDIA GPU(s), driver " << result.driverVersion.value_or("–") << ", CUDA "
        << (result.cudaDriverVersion ? std::to_string(*result.cudaDriverVersion / 1000) + "."
                       + std::to_string(*result.cudaDriverVersion % 1000 / 10)
                                     : "–")
        << "\n";
    for (const auto& gpu : result.gpus)
        describeGpu(gpu, catalog, out);
    for (const auto& gpu : result.gpus)
        for (const auto& peer : gpu.peers)
            if (peer.peerIndex > gpu.index)
                out << "GPU " << gpu.index << " – GPU " << peer.peerIndex << ": " << describeLink(peer) << "\n";
    for (const auto& note : result.unavailable)
        out << "unavailable: " << note.field << ": " << note.reason << "\n";
    return out.str();
}

} // namespace clusterplanner::core::probe
