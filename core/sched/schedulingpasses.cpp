// SPDX-License-Identifier: GPL-3.0-or-later
// One scheduling pass per policy: FIFO/SJF, fair share (and Gavel), EASY backfilling, Tiresias/priority
// preemption. Every pass reads its queue head from an ordered set and stops as soon as nothing more can start,
// so a pass costs O(log n) plus the jobs it starts or examines (docs/methods-scheduling.md §7 "Cost").
#include "core/sched/simulator.h"

#include "core/sched/freecounts.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace clusterplanner::core::sched {

namespace {

bool overlaps(const std::vector<GpuSlice>& a, const std::vector<GpuSlice>& b)
{
    for (const auto& x : a)
        for (const auto& y : b)
            if (x.node == y.node)
                for (int g : x.gpus)
                    if (std::find(y.gpus.begin(), y.gpus.end(), g) != y.gpus.end())
                        return true;
    return false;
}

} // namespace

void Simulator::schedule()
{
    ++m_passCount;
    switch (m_options.policy) {
    case Policy::Fifo:
    case Policy::Sjf:
    case Policy::SjfEstimate:
        return passOrdered();
    case Policy::FairShare:
    case Policy::Gavel:
        return passFairShare();
    case Policy::Backfill:
        return passBackfill();
    case Policy::Tiresias:
    case Policy::Priority:
        return passPreemptive();
    case Policy::Gandiva:
        return passGandiva();
    }
}

bool Simulator::nothingElseFits() const
{
    const int free = m_state.freeGpus();
    return free == 0 || (m_pendingFractional == 0 && free < minPendingGpus());
}

void Simulator::passOrdered()
{
    while (!m_waiting.empty() && tryStart(m_waiting.begin()->job)) { }
}

bool Simulator::overQuota(std::size_t user, int job) const
{
    const auto& quotas = m_options.userQuotaGpus;
    return user < quotas.size() && quotas[user] > 0
        && m_userGpus[user] + (*m_workload)[static_cast<std::size_t>(job)].gpuShare() > quotas[user] + 1e-9;
}

std::size_t Simulator::neediestUser(const std::vector<char>& blocked) const
{
    // Smallest used/entitled share first (used = GPU-seconds so far, decayed; then GPUs held now).
    auto entitlement = [&](std::size_t u) {
        return u < m_options.userShares.size() && m_options.userShares[u] > 0 ? m_options.userShares[u] : 1.0;
    };
    const std::size_t users = m_userWaiting.size();
    std::size_t best = users;
    std::pair<double, double> bestShare {std::numeric_limits<double>::infinity(), 0.0};
    for (std::size_t u = 0; u < users; ++u) {
        if (blocked[u] || m_userWaiting[u].empty())
            continue;
        const std::pair<double, double> share {userUsage(u) / entitlement(u), m_userGpus[u] / entitlement(u)};
        if (share < bestShare) {
            best = u;
            bestShare = share;
        }
    }
    return best;
}

void Simulator::passFairShare()
{
    // FIFO within a user. A user whose next job does not fit (or would pass the user's quota) is skipped for the
    // rest of the pass so other users can still use free GPUs.
    std::vector<char> blocked(m_userWaiting.size(), 0);
    while (!nothingElseFits()) {
        const std::size_t user = neediestUser(blocked);
        if (user == m_userWaiting.size())
            return;
        const int job = m_userWaiting[user].begin()->job;
        if (overQuota(user, job) || !tryStart(job))
            blocked[user] = 1;
    }
}

double Simulator::reservationTime(int head, int& extraGpus) const
{
    // EASY: the head job's reservation is the earliest estimated end at which it fits on one GPU type, node limit
    // included: running jobs are released in order of estimated end on a copy of the per-type free-GPU
    // histograms. GPUs beyond its need then are "extra" and may go to jobs that end later.
    const PlacementRequest& request = m_active[static_cast<std::size_t>(head)].request;
    const int need = std::max(1, request.gpus);
    FreeCounts counts(m_state);
    auto fitsSomewhere = [&]() {
        for (int t = 0; t < counts.types(); ++t)
            if ((request.gpuType < 0 || t == request.gpuType) && counts.fits(t, need, m_options.maxNodesPerJob)) {
                extraGpus = std::max(0, counts.free(t) - need);
                return true;
            }
        return false;
    };
    if (fitsSomewhere())
        return m_nowS;
    for (const auto& [endS, job] : m_runningByEstimatedEnd) {
        for (const auto& slice : m_active[static_cast<std::size_t>(job)].slices)
            counts.release(slice);
        if (fitsSomewhere())
            return std::max(endS, m_nowS);
    }
    extraGpus = 0;
    return std::numeric_limits<double>::infinity();
}

bool Simulator::backfillAllowed(int job, int head, double shadowS, int& extraGpus)
{
    // A job that ends before the reservation cannot delay the head; one that ends later may only use the extra
    // GPUs. With a node limit, GPU counts do not tell where the head will fit: the job is placed tentatively and
    // the reservation recomputed; it stays only if the head's start does not move.
    const Job& j = (*m_workload)[static_cast<std::size_t>(job)];
    const Active& a = m_active[static_cast<std::size_t>(job)];
    const double endS = m_nowS + j.estimate();
    if (endS <= shadowS)
        return tryStart(job);
    if (m_options.maxNodesPerJob <= 0) {
        if (std::max(1, a.request.gpus) > extraGpus || !tryStart(job))
            return false;
        extraGpus -= std::max(1, a.request.gpus);
        return true;
    }
    auto slices = m_placer.place(a.request, minPendingGpus());
    if (!slices)
        return false;
    for (const auto& slice : *slices)
        m_state.allocate(slice, m_nowS);
    int ignored = 0;
    const bool keepsReservation = reservationTime(head, ignored) <= shadowS;
    for (const auto& slice : *slices)
        m_state.release(slice, m_nowS);
    if (keepsReservation)
        start(job, std::move(*slices));
    return keepsReservation;
}

void Simulator::passBackfill()
{
    passOrdered();
    if (m_waiting.empty() || nothingElseFits())
        return;
    const int head = m_waiting.begin()->job;
    int extra = 0;
    const double shadowS = reservationTime(head, extra);
    auto it = std::next(m_waiting.begin());
    for (int scanned = 0; it != m_waiting.end() && scanned < m_options.backfillDepth; ++scanned) {
        // Nothing more can start once the free GPUs are fewer than the smallest waiting request.
        if (nothingElseFits())
            return;
        const int job = it->job;
        ++it; // starting the job erases its entry; the iterator has already moved on
        const Active& a = m_active[static_cast<std::size_t>(job)];
        if (a.request.gpus <= m_state.freeGpus())
            backfillAllowed(job, head, shadowS, extra);
    }
}

bool Simulator::enoughVictims(int job) const
{
    // A cheap necessary condition before any dry run: on some GPU type the job may use, free GPUs plus those
    // held by lower classes cover the job.
    const PlacementRequest& request = m_active[static_cast<std::size_t>(job)].request;
    for (int type = 0; type < static_cast<int>(m_gpusByTypeClass.size()); ++type) {
        if (request.gpuType >= 0 && type != request.gpuType)
            continue;
        const auto& byClass = m_gpusByTypeClass[static_cast<std::size_t>(type)];
        long long available = m_state.freeGpus(type);
        for (auto it = byClass.upper_bound(klassOf(job)); it != byClass.end() && available < request.gpus; ++it)
            available += it->second;
        if (available >= request.gpus)
            return true;
    }
    return false;
}

bool Simulator::preemptFor(int job)
{
    // Victims are running jobs of a strictly lower class (Tiresias queue, or priority) on a GPU type the job may
    // use, lowest class first. Dry run: release them one by one until the job fits, remember that placement, put
    // them back. Then stop only the victims whose GPUs the placement uses, so that no job is preempted for nothing
    // (which would pay the restart cost and thrash); host demands of the others are checked by placing again.
    if (!enoughVictims(job))
        return false;
    const PlacementRequest& request = m_active[static_cast<std::size_t>(job)].request;
    const int klass = klassOf(job);
    std::vector<int> victims;
    std::optional<std::vector<GpuSlice>> placement;
    for (auto it = m_runningByClass.rbegin(); it != m_runningByClass.rend() && it->first > klass && !placement; ++it) {
        const Active& other = m_active[static_cast<std::size_t>(it->second)];
        const int type = m_state.nodes()[static_cast<std::size_t>(other.slices.front().node)].gpuType;
        if (request.gpuType >= 0 && type != request.gpuType)
            continue;
        victims.push_back(it->second);
        for (const auto& slice : other.slices)
            m_state.release(slice, m_nowS);
        placement = m_placer.place(request, minPendingGpus());
    }
    for (std::size_t k = victims.size(); k-- > 0;)
        for (const auto& slice : m_active[static_cast<std::size_t>(victims[k])].slices)
            m_state.allocate(slice, m_nowS);
    return placement && preemptVictims(job, victims, *placement);
}

bool Simulator::preemptVictims(int job, const std::vector<int>& victims, const std::vector<GpuSlice>& placement)
{
    std::vector<int> others;
    for (int victim : victims) {
        if (overlaps(m_active[static_cast<std::size_t>(victim)].slices, placement))
            stop(victim, StopReason::Preempt);
        else
            others.push_back(victim);
    }
    if (tryStart(job))
        return true;
    for (int other : others) {
        stop(other, StopReason::Preempt);
        if (tryStart(job))
            return true;
    }
    return false;
}

void Simulator::passPreemptive()
{
    // Highest class first; a job that does not fit preempts lower classes, or is skipped (work-conserving).
    // No later job can preempt once the lowest running class is not below the current one.
    // A job at least as large as one whose preemption failed in this pass fails too (later jobs have no more
    // victims), so it is not tried again: one failed dry run per size and pass.
    int scanned = 0;
    int failedGpus = std::numeric_limits<int>::max();
    for (auto it = m_waiting.begin(); it != m_waiting.end() && scanned <= m_options.backfillDepth;) {
        const int job = it->job;
        ++it;
        const PlacementRequest& request = m_active[static_cast<std::size_t>(job)].request;
        if (tryStart(job))
            continue;
        const bool sized = request.gpuType < 0 && request.gpus > 0;
        const bool hopeless = sized && request.gpus >= failedGpus;
        if (!hopeless && preemptFor(job))
            continue;
        if (sized)
            failedGpus = std::min(failedGpus, request.gpus);
        ++scanned;
        const bool noVictims = m_runningByClass.empty() || m_runningByClass.rbegin()->first <= klassOf(job);
        if (noVictims && nothingElseFits())
            return;
    }
}

} // namespace clusterplanner::core::sched
