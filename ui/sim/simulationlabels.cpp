// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/sim/simulationlabels.h"

#include <QCoreApplication>

#include <cmath>

namespace clusterplanner::ui {

namespace sched = core::sched;

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("SimulationLabels", text);
}

} // namespace

std::vector<sched::Policy> allPolicies()
{
    return {sched::Policy::Fifo, sched::Policy::Sjf, sched::Policy::SjfEstimate, sched::Policy::FairShare,
        sched::Policy::Backfill, sched::Policy::Tiresias, sched::Policy::Gandiva, sched::Policy::Priority,
        sched::Policy::Gavel};
}

std::vector<sched::PlacementStrategy> allPlacements()
{
    return {sched::PlacementStrategy::Pack, sched::PlacementStrategy::Spread, sched::PlacementStrategy::Balanced};
}

QString policyLabel(sched::Policy policy)
{
    switch (policy) {
    case sched::Policy::Fifo:
        return tr("FIFO");
    case sched::Policy::Sjf:
        return tr("SJF");
    case sched::Policy::SjfEstimate:
        return tr("SJF (user estimates)");
    case sched::Policy::FairShare:
        return tr("Fair share");
    case sched::Policy::Backfill:
        return tr("EASY backfill");
    case sched::Policy::Tiresias:
        return tr("Tiresias (2D-LAS)");
    case sched::Policy::Gandiva:
        return tr("Gandiva (time slicing)");
    case sched::Policy::Priority:
        return tr("Priority");
    case sched::Policy::Gavel:
        return tr("Gavel (heterogeneity)");
    }
    return {};
}

QString placementLabel(sched::PlacementStrategy placement)
{
    switch (placement) {
    case sched::PlacementStrategy::Pack:
        return tr("pack");
    case sched::PlacementStrategy::Spread:
        return tr("spread");
    case sched::PlacementStrategy::Balanced:
        return tr("balanced");
    }
    return {};
}

QString resourceLabel(sched::UsageResource resource)
{
    switch (resource) {
    case sched::UsageResource::Gpu:
        return tr("GPUs busy");
    case sched::UsageResource::HostMemory:
        return tr("host memory used");
    case sched::UsageResource::Cpu:
        return tr("CPU cores used");
    case sched::UsageResource::Network:
        return tr("network bandwidth used");
    }
    return {};
}

QString durationText(double seconds)
{
    if (!std::isfinite(seconds))
        return tr("∞");
    const double a = std::abs(seconds);
    if (a < 90)
        return QString::number(seconds, 'f', a < 10 ? 1 : 0) + tr(" s");
    if (a < 5400)
        return QString::number(seconds / 60, 'f', a < 600 ? 1 : 0) + tr(" min");
    if (a < 3 * 86400)
        return QString::number(seconds / 3600, 'f', 1) + tr(" h");
    return QString::number(seconds / 86400, 'f', 1) + tr(" d");
}

} // namespace clusterplanner::ui
