// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/perf/expertexposure.h"

#include <algorithm>

namespace clusterplanner::core {

namespace {

/// What of an all-to-all of oneS shows beside independent work of windowS.
double beside(double oneS, double windowS)
{
    return std::max(0.0, oneS - windowS);
}

} // namespace

AllToAllExposure unpairedAllToAllExposure(double epOneS, const MlpGemmTimes& shared, SharedExpertOverlap mode)
{
    switch (mode) {
    case SharedExpertOverlap::SideStream:
        return {beside(epOneS, shared.firstS) + beside(epOneS, shared.secondS),
            beside(epOneS, 2 * shared.secondS) + beside(epOneS, 2 * shared.firstS)};
    case SharedExpertOverlap::CombineOnly:
        return {epOneS + beside(epOneS, shared.totalS()), 2 * epOneS};
    case SharedExpertOverlap::None:
        break;
    }
    return {2 * epOneS, 2 * epOneS};
}

} // namespace clusterplanner::core
