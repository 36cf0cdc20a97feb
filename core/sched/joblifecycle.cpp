// SPDX-License-Identifier: GPL-3.0-or-later
// The life cycle of one simulated job: waiting queues, start, progress, preemption, migration and finish.
#include "core/sched/simulator.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace clusterplanner::core::sched {

int Simulator::klassOf(int job) const
{
    if (m_options.policy == Policy::Tiresias)
        return m_active[static_cast<std::size_t>(job)].level;
    if (m_options.policy == Policy::Priority)
        return -(*m_workload)[static_cast<std::size_t>(job)].priority;
    return 0;
}

Simulator::QueueKey Simulator::keyOf(int job) const
{
    const Job& j = (*m_workload)[static_cast<std::size_t>(job)];
    switch (m_options.policy) {
    case Policy::Sjf:
        return {j.durationS, j.submitS, job};
    case Policy::SjfEstimate:
        return {j.estimate(), j.submitS, job};
    default:
        return {double(klassOf(job)), j.submitS, job};
    }
}

void Simulator::enqueue(int job)
{
    Active& a = m_active[static_cast<std::size_t>(job)];
    a.waiting = true;
    a.key = keyOf(job);
    m_waiting.insert(a.key);
    if (m_options.policy == Policy::FairShare || m_options.policy == Policy::Gavel)
        m_userWaiting[std::size_t((*m_workload)[std::size_t(job)].user)].insert({0, a.key.submitS, job});
    if (a.request.gpus > 0)
        ++m_pendingGpus[a.request.gpus];
    else
        ++m_pendingFractional;
    if (m_options.policy == Policy::Tiresias && m_options.starvationLimitS > 0 && a.level > 0)
        m_events.push({m_nowS + m_options.starvationLimitS, kPromoteEvent, job, ++a.version});
}

void Simulator::dequeue(int job)
{
    Active& a = m_active[static_cast<std::size_t>(job)];
    a.waiting = false;
    m_waiting.erase(a.key);
    if (m_options.policy == Policy::FairShare || m_options.policy == Policy::Gavel)
        m_userWaiting[std::size_t((*m_workload)[std::size_t(job)].user)].erase({0, a.key.submitS, job});
    if (a.request.gpus == 0)
        --m_pendingFractional;
    else if (--m_pendingGpus[a.request.gpus] == 0)
        m_pendingGpus.erase(a.request.gpus);
}

int Simulator::minPendingGpus() const
{
    return m_pendingGpus.empty() ? 0 : m_pendingGpus.begin()->first;
}

bool Simulator::tryStart(int job)
{
    auto slices = m_placer.place(m_active[static_cast<std::size_t>(job)].request, minPendingGpus());
    if (!slices)
        return false;
    start(job, std::move(*slices));
    return true;
}

double Simulator::rateOf(int job) const
{
    // Progress per second on the GPUs the job holds: the GPU type's speed, slowed when it spans nodes.
    const Active& a = m_active[static_cast<std::size_t>(job)];
    const int type = m_state.nodes()[static_cast<std::size_t>(a.slices.front().node)].gpuType;
    double rate = m_typeSpeed[static_cast<std::size_t>(type)];
    const auto nodes = static_cast<double>(a.slices.size());
    if (nodes > 1 && !(*m_workload)[static_cast<std::size_t>(job)].placementInsensitive)
        rate /= 1.0 + m_options.nodeSpanPenalty * (nodes - 1);
    return rate;
}

void Simulator::start(int job, std::vector<GpuSlice> slices)
{
    Active& a = m_active[static_cast<std::size_t>(job)];
    JobRecord& rec = m_records[static_cast<std::size_t>(job)];
    const Job& j = (*m_workload)[static_cast<std::size_t>(job)];
    if (a.waiting)
        dequeue(job);
    for (const auto& slice : slices)
        m_state.allocate(slice, m_nowS);
    if (rec.startS < 0) {
        rec.startS = m_nowS;
    } else {
        a.remainingS += m_options.restartCostS;
        a.overheadS += m_options.restartCostS;
    }
    a.running = true;
    a.lastUpdateS = m_nowS;
    a.slices = slices;
    a.rate = rateOf(job);
    changeUserGpus(j.user, j.gpuShare() * (m_options.policy == Policy::Gavel ? a.rate : 1.0));
    ++m_running;
    m_runningByClass.insert({klassOf(job), job});
    countClassGpus(job, +1);
    if (m_options.policy == Policy::Backfill) {
        a.estimatedEndS = m_nowS + j.estimate() / a.rate;
        m_runningByEstimatedEnd.insert({a.estimatedEndS, job});
    }
    rec.segments.push_back({m_nowS, -1, std::move(slices)});
    if (m_options.policy == Policy::Gandiva && a.request.gpus > 0)
        joinGroup(job);
    else
        reschedule(job);
    notify(EventKind::Start, job);
}

void Simulator::countClassGpus(int job, int sign)
{
    const Active& a = m_active[static_cast<std::size_t>(job)];
    const int type = m_state.nodes()[static_cast<std::size_t>(a.slices.front().node)].gpuType;
    m_gpusByTypeClass[static_cast<std::size_t>(type)][klassOf(job)] += sign * a.request.gpus;
}

void Simulator::advance(int job)
{
    Active& a = m_active[static_cast<std::size_t>(job)];
    const double dt = m_nowS - a.lastUpdateS;
    if (a.running && dt > 0) {
        const double work = std::min(a.remainingS, a.rate * dt);
        a.remainingS -= work;
        a.workS += work;
        a.sinceCheckpointS += work;
        a.attainedGpuS += (*m_workload)[static_cast<std::size_t>(job)].gpuShare() * dt;
    }
    a.lastUpdateS = m_nowS;
}

void Simulator::reschedule(int job)
{
    Active& a = m_active[static_cast<std::size_t>(job)];
    ++a.version;
    if (!a.running)
        return;
    const double toFinish = a.rate > 0 ? a.remainingS / a.rate : std::numeric_limits<double>::infinity();
    m_events.push({m_nowS + toFinish, kFinishEvent, job, a.version});
    if (m_options.policy != Policy::Tiresias)
        return;
    const auto& thresholds = m_options.tiresiasThresholdsGpuS;
    if (a.level < static_cast<int>(thresholds.size())) {
        const double share = (*m_workload)[static_cast<std::size_t>(job)].gpuShare();
        const double toDemote = (thresholds[static_cast<std::size_t>(a.level)] - a.attainedGpuS) / share;
        if (toDemote < toFinish)
            m_events.push({m_nowS + std::max(0.0, toDemote), kDemoteEvent, job, a.version});
    }
}

void Simulator::release(int job)
{
    Active& a = m_active[static_cast<std::size_t>(job)];
    JobRecord& rec = m_records[static_cast<std::size_t>(job)];
    const Job& j = (*m_workload)[static_cast<std::size_t>(job)];
    advance(job);
    for (const auto& slice : a.slices)
        m_state.release(slice, m_nowS);
    changeUserGpus(j.user, -j.gpuShare() * (m_options.policy == Policy::Gavel ? a.rate : 1.0));
    Segment& segment = rec.segments.back();
    segment.endS = m_nowS;
    rec.allocatedGpuS += (m_nowS - segment.startS) * j.gpuShare();
    --m_running;
    m_runningByClass.erase({klassOf(job), job});
    countClassGpus(job, -1);
    if (m_options.policy == Policy::Backfill)
        m_runningByEstimatedEnd.erase({a.estimatedEndS, job});
    a.running = false;
    ++a.version;
    std::vector<GpuSlice> released = std::move(a.slices);
    a.slices.clear();
    if (m_options.policy == Policy::Gandiva && a.request.gpus > 0)
        leaveGroup(job, released);
}

void Simulator::loseWorkSinceCheckpoint(Active& a) const
{
    const double intervalS = m_options.checkpointIntervalS;
    if (intervalS > 0) {
        const double lostS = std::fmod(a.sinceCheckpointS, intervalS);
        a.remainingS += lostS;
        a.overheadS += lostS;
    }
    a.sinceCheckpointS = 0;
}

void Simulator::stop(int job, StopReason reason)
{
    Active& a = m_active[static_cast<std::size_t>(job)];
    JobRecord& rec = m_records[static_cast<std::size_t>(job)];
    release(job);
    if (reason == StopReason::Finish) {
        a.done = true;
        a.remainingS = 0;
        rec.endS = m_nowS;
        notify(EventKind::Finish, job);
        return;
    }
    if (reason == StopReason::Migrate) {
        a.sinceCheckpointS = 0; // a migration checkpoints on purpose: nothing is lost
        ++rec.migrations;
        enqueue(job);
        return;
    }
    loseWorkSinceCheckpoint(a);
    ++rec.preemptions;
    enqueue(job);
    notify(EventKind::Preempt, job);
}

} // namespace clusterplanner::core::sched
