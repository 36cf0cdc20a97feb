// SPDX-License-Identifier: GPL-3.0-or-later
// One scheduling pass per policy: FIFO/SJF, fair share, EASY backfilling, Tiresias/priority preemption, Gandiva.
#include "core/sched/simulator.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

namespace clusterplanner::core::sched {

void Simulator::schedule()
{
    ++m_passCount;
    switch (m_options.policy) {
    case Policy::Fifo:
    case Policy::Sjf:
    case Policy::SjfEstimate:
        return passOrdered(false);
    case Policy::FairShare:
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

void Simulator::passOrdered(bool skipBlocked)
{
    std::size_t scanned = 0;
    for (; scanned < m_queue.size(); ++scanned)
        if (!tryStart(m_queue[scanned], false) && !skipBlocked)
            break;
    eraseStartedFromQueue(scanned);
}

void Simulator::passGandiva()
{
    // Work-conserving FIFO: each waiting job gets free GPUs if any, otherwise a time slice of busy ones.
    for (int job : m_queue)
        tryStart(job, true);
    eraseStartedFromQueue(m_queue.size());
}

void Simulator::passFairShare()
{
    // The user with the smallest used/entitled share goes next (used = GPU-seconds so far, then GPUs held now);
    // FIFO within a user. A user whose next job does not fit is skipped for the rest of the pass so other users
    // can still use free GPUs.
    const std::size_t users = m_userGpus.size();
    std::vector<std::vector<int>> perUser(users);
    for (int job : m_queue)
        perUser[static_cast<std::size_t>((*m_workload)[static_cast<std::size_t>(job)].user)].push_back(job);
    std::vector<std::size_t> next(users, 0);
    auto entitlement = [&](std::size_t u) {
        return u < m_options.userShares.size() && m_options.userShares[u] > 0 ? m_options.userShares[u] : 1.0;
    };
    for (;;) {
        std::size_t best = users;
        std::pair<double, double> bestShare {std::numeric_limits<double>::infinity(), 0.0};
        for (std::size_t u = 0; u < users; ++u) {
            if (next[u] >= perUser[u].size())
                continue;
            const std::pair<double, double> share {userUsage(u) / entitlement(u), m_userGpus[u] / entitlement(u)};
            if (share < bestShare) {
                best = u;
                bestShare = share;
            }
        }
        if (best == users)
            break;
        if (tryStart(perUser[best][next[best]], false))
            ++next[best];
        else
            next[best] = perUser[best].size();
    }
    eraseStartedFromQueue(m_queue.size());
}

double Simulator::reservationTime(int head, int& extraGpus) const
{
    // EASY: the head job's reservation is the earliest estimated end at which enough GPUs of a type it may use
    // are free; GPUs beyond its need at that time are "extra" and may be used by jobs that end later.
    const PlacementRequest& request = m_active[static_cast<std::size_t>(head)].request;
    const int need = std::max(1, request.gpus);
    auto relevant = [&](int type) { return request.gpuType < 0 || type == request.gpuType; };
    int free = 0;
    const int types = static_cast<int>(m_state.gpuTypeIds().size());
    for (int t = 0; t < types; ++t)
        if (relevant(t))
            free += m_state.freeGpus(t);
    double shadow = free >= need ? m_nowS : std::numeric_limits<double>::infinity();
    if (free < need) {
        for (const auto& [endS, job] : m_runningByEstimatedEnd) {
            const Active& a = m_active[static_cast<std::size_t>(job)];
            if (a.request.gpus == 0 || !relevant(m_state.nodes()[std::size_t(a.slices.front().node)].gpuType))
                continue;
            free += a.request.gpus;
            if (free >= need) {
                shadow = std::max(endS, m_nowS);
                break;
            }
        }
    }
    extraGpus = std::max(0, free - need);
    return shadow;
}

void Simulator::passBackfill()
{
    std::size_t position = 0;
    while (position < m_queue.size() && tryStart(m_queue[position], false))
        ++position;
    if (position >= m_queue.size()) {
        eraseStartedFromQueue(position);
        return;
    }
    int extra = 0;
    const double shadowS = reservationTime(m_queue[position], extra);
    const std::size_t last = std::min(m_queue.size(), position + 1 + std::size_t(std::max(0, m_options.backfillDepth)));
    std::size_t scanned = position + 1;
    int free = m_state.freeGpus();
    for (; scanned < last; ++scanned) {
        // Nothing more can start once the free GPUs are fewer than the smallest waiting request.
        if (free == 0 || (m_pendingFractional == 0 && free < minPendingGpus()))
            break;
        const int job = m_queue[scanned];
        const Job& j = (*m_workload)[static_cast<std::size_t>(job)];
        const int gpus = std::max(1, j.gpus);
        if (j.gpus > free)
            continue;
        const bool endsInTime = m_nowS + j.estimate() <= shadowS;
        if (!endsInTime && gpus > extra)
            continue;
        if (tryStart(job, false)) {
            free = m_state.freeGpus();
            if (!endsInTime)
                extra -= gpus;
        }
    }
    eraseStartedFromQueue(scanned);
}

bool Simulator::preemptFor(int job, const std::vector<int>& order, std::size_t position)
{
    // Victims are running jobs of a strictly lower class (Tiresias queue, or priority), lowest first. A dry run
    // releases them one by one until the job would fit, then puts them back: only if it fits are exactly those
    // victims preempted, so no job is ever preempted for nothing (which would thrash under restart costs).
    auto klass = [&](int j) {
        return m_options.policy == Policy::Tiresias ? m_active[static_cast<std::size_t>(j)].level
                                                    : -(*m_workload)[static_cast<std::size_t>(j)].priority;
    };
    const PlacementRequest& request = m_active[static_cast<std::size_t>(job)].request;
    std::vector<int> victims;
    for (std::size_t i = order.size(); i-- > position + 1;) {
        const Active& other = m_active[static_cast<std::size_t>(order[i])];
        const int type
            = m_state.nodes()[static_cast<std::size_t>(other.running ? other.slices.front().node : 0)].gpuType;
        if (other.running && klass(order[i]) > klass(job) && (request.gpuType < 0 || type == request.gpuType))
            victims.push_back(order[i]);
    }
    std::size_t needed = 0;
    for (std::size_t k = 0; k < victims.size() && needed == 0; ++k) {
        for (const auto& slice : m_active[static_cast<std::size_t>(victims[k])].slices)
            m_state.release(slice, m_nowS);
        if (m_placer.place(request, minPendingGpus()))
            needed = k + 1;
    }
    const std::size_t released = needed > 0 ? needed : victims.size();
    for (std::size_t k = released; k-- > 0;)
        for (const auto& slice : m_active[static_cast<std::size_t>(victims[k])].slices)
            m_state.allocate(slice, m_nowS);
    if (needed == 0)
        return false;
    for (std::size_t k = 0; k < needed; ++k)
        stop(victims[k], false);
    return tryStart(job, false);
}

void Simulator::passPreemptive()
{
    std::vector<int> order = m_queue;
    order.insert(order.end(), m_running.begin(), m_running.end());
    auto key = [&](int j) {
        const Job& job = (*m_workload)[static_cast<std::size_t>(j)];
        const int klass
            = m_options.policy == Policy::Tiresias ? m_active[static_cast<std::size_t>(j)].level : -job.priority;
        return std::make_tuple(klass, job.submitS, j);
    };
    std::sort(order.begin(), order.end(), [&](int a, int b) { return key(a) < key(b); });
    for (std::size_t i = 0; i < order.size(); ++i) {
        const int job = order[i];
        if (m_active[static_cast<std::size_t>(job)].running)
            continue;
        if (!tryStart(job, false))
            preemptFor(job, order, i);
    }
    m_queue.clear();
    for (int job : order)
        if (!m_active[static_cast<std::size_t>(job)].running)
            m_queue.push_back(job);
}

} // namespace clusterplanner::core::sched
