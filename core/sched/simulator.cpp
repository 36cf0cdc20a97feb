// SPDX-License-Identifier: GPL-3.0-or-later
// The event loop of the scheduling simulator and the life cycle of a job (start, progress, preemption, finish).
#include "core/sched/simulator.h"

#include "core/model/gpucatalog.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace clusterplanner::core::sched {

namespace {

constexpr int kFinishEvent = 0;
constexpr int kDemoteEvent = 1;

} // namespace

Simulator::Simulator(const ClusterModel& model, const GpuCatalog& catalog, SimulationOptions options)
    : m_options(std::move(options))
    , m_state(model, catalog, m_options.recordTimeline)
    , m_placer(m_state, m_options)
{
    // BALANCED compares each node with the cluster mean, which no fixed order captures: it scans all nodes.
    if (m_options.placement != PlacementStrategy::Balanced)
        m_state.enableLoadIndex(
            m_options.weights.memory, m_options.weights.cpu, m_options.placement == PlacementStrategy::Pack);
}

void Simulator::reset(const Workload& workload)
{
    if (m_eventCount > 0)
        throw std::logic_error("Simulator::run: a Simulator runs one workload; make a new one for the next");
    m_workload = &workload;
    const std::size_t n = workload.size();
    m_active.assign(n, {});
    m_records.assign(n, {});
    m_runningPos.assign(n, -1);
    m_arrivalOrder.resize(n);
    std::iota(m_arrivalOrder.begin(), m_arrivalOrder.end(), 0);
    std::stable_sort(m_arrivalOrder.begin(), m_arrivalOrder.end(),
        [&](int a, int b) { return workload[std::size_t(a)].submitS < workload[std::size_t(b)].submitS; });
    const bool sliced = m_options.policy == Policy::Gandiva;
    if (sliced)
        m_gpuResidents.assign(static_cast<std::size_t>(m_state.totalGpus()), {});
    int users = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const Job& job = workload[i];
        PlacementRequest& r = m_active[i].request;
        r.gpus = std::max(0, job.gpus);
        r.milli = job.gpus > 0 ? 1000 : job.gpuMilli;
        r.gpuMemoryMiB = job.gpuMemoryMiB;
        r.memoryFraction = job.gpus > 0 ? (sliced ? m_options.assumedMemoryFraction : 1.0) : job.gpuMilli / 1000.0;
        r.gpuType = job.gpuType.empty() ? -1 : m_state.gpuTypeIndex(job.gpuType);
        r.cpuCores = job.cpuCores;
        r.memoryGiB = job.memoryGiB;
        r.bandwidthGbps = job.bandwidthGbps;
        m_active[i].remainingS = job.durationS;
        JobRecord& rec = m_records[i];
        rec.jobId = job.id;
        rec.user = job.user;
        rec.gpus = job.gpus;
        rec.gpuMilli = job.gpuMilli;
        rec.submitS = job.submitS;
        rec.durationS = job.durationS;
        users = std::max(users, job.user + 1);
    }
    m_userGpus.assign(static_cast<std::size_t>(users), 0.0);
    m_userGpuS.assign(static_cast<std::size_t>(users), 0.0);
    m_userSinceS.assign(static_cast<std::size_t>(users), 0.0);
}

std::string Simulator::rejectionReason(int job) const
{
    const Job& j = (*m_workload)[static_cast<std::size_t>(job)];
    const PlacementRequest& r = m_active[static_cast<std::size_t>(job)].request;
    if (!(j.durationS >= 0) || !(j.submitS >= 0) || !std::isfinite(j.durationS))
        return "negative or invalid submit time or duration";
    if (!j.gpuType.empty() && r.gpuType < 0)
        return "the cluster has no GPU of type " + j.gpuType;
    if (j.gpus <= 0 && (j.gpuMilli <= 0 || j.gpuMilli >= 1000))
        return "needs whole GPUs or a share of 1..999 milli-GPU";
    const int types = static_cast<int>(m_state.gpuTypeIds().size());
    for (int t = 0; t < types; ++t) {
        if (r.gpuType >= 0 && t != r.gpuType)
            continue;
        if (j.gpus > 0 ? m_state.fitsWhenEmpty(t, j.gpus, m_options.maxNodesPerJob) : m_state.totalGpus(t) > 0)
            return {};
    }
    return "needs " + std::to_string(j.gpus) + " GPUs, more than the cluster can give one job";
}

void Simulator::admit(int job)
{
    Active& a = m_active[static_cast<std::size_t>(job)];
    JobRecord& rec = m_records[static_cast<std::size_t>(job)];
    rec.note = rejectionReason(job);
    if (!rec.note.empty()) {
        rec.unfinished = true;
        notify(EventKind::Reject, job);
        return;
    }
    a.admitted = true;
    a.lastUpdateS = m_nowS;
    if (a.request.gpus > 0)
        ++m_pendingGpus[a.request.gpus];
    else
        ++m_pendingFractional;
    const auto& w = *m_workload;
    auto key = [&](int i) {
        const Job& j = w[static_cast<std::size_t>(i)];
        return std::make_tuple(m_options.policy == Policy::Sjf ? j.durationS : j.estimate(), j.submitS, i);
    };
    if (m_options.policy == Policy::Sjf || m_options.policy == Policy::SjfEstimate) {
        auto it = std::upper_bound(m_queue.begin(), m_queue.end(), job, [&](int x, int y) { return key(x) < key(y); });
        m_queue.insert(it, job);
    } else {
        m_queue.push_back(job);
    }
    notify(EventKind::Arrival, job);
}

void Simulator::changeUserGpus(int user, double delta)
{
    const auto u = static_cast<std::size_t>(user);
    m_userGpuS[u] = userUsage(u);
    m_userSinceS[u] = m_nowS;
    m_userGpus[u] += delta;
}

double Simulator::userUsage(std::size_t user) const
{
    return m_userGpuS[user] + m_userGpus[user] * (m_nowS - m_userSinceS[user]);
}

int Simulator::minPendingGpus() const
{
    return m_pendingGpus.empty() ? 0 : m_pendingGpus.begin()->first;
}

void Simulator::notify(EventKind kind, int job)
{
    ++m_eventCount;
    if (m_observer)
        m_observer(SimEvent {kind, m_nowS, job}, m_state);
}

bool Simulator::tryStart(int job, bool allowShared)
{
    const PlacementRequest& request = m_active[static_cast<std::size_t>(job)].request;
    auto slices = m_placer.place(request, minPendingGpus());
    if (!slices && allowShared && request.gpus > 0)
        slices = m_placer.placeShared(request, m_options.timeSliceMaxJobs);
    if (!slices)
        return false;
    start(job, std::move(*slices));
    return true;
}

void Simulator::start(int job, std::vector<GpuSlice> slices)
{
    Active& a = m_active[static_cast<std::size_t>(job)];
    JobRecord& rec = m_records[static_cast<std::size_t>(job)];
    const Job& j = (*m_workload)[static_cast<std::size_t>(job)];
    for (const auto& slice : slices)
        m_state.allocate(slice, m_nowS);
    if (a.request.gpus == 0)
        --m_pendingFractional;
    else if (--m_pendingGpus[a.request.gpus] == 0)
        m_pendingGpus.erase(a.request.gpus);
    if (rec.startS < 0) {
        rec.startS = m_nowS;
    } else {
        a.remainingS += m_options.restartCostS;
        a.overheadS += m_options.restartCostS;
    }
    a.running = true;
    a.rate = 1.0;
    a.lastUpdateS = m_nowS;
    a.slices = slices;
    changeUserGpus(j.user, j.gpuShare());
    m_runningPos[static_cast<std::size_t>(job)] = static_cast<int>(m_running.size());
    m_running.push_back(job);
    if (m_options.policy == Policy::Backfill) {
        a.estimatedEndS = m_nowS + j.estimate();
        m_runningByEstimatedEnd.insert({a.estimatedEndS, job});
    }
    rec.segments.push_back({m_nowS, -1, std::move(slices)});
    if (m_options.policy == Policy::Gandiva) {
        for (const auto& slice : a.slices)
            for (int g : slice.gpus)
                m_gpuResidents[static_cast<std::size_t>(m_state.globalGpu(slice.node, g))].push_back(job);
        updateSharedRates(a.slices);
    } else {
        reschedule(job);
    }
    notify(EventKind::Start, job);
}

void Simulator::advance(int job)
{
    Active& a = m_active[static_cast<std::size_t>(job)];
    const double dt = m_nowS - a.lastUpdateS;
    if (a.running && dt > 0) {
        const double work = std::min(a.remainingS, a.rate * dt);
        a.remainingS -= work;
        a.workS += work;
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

void Simulator::updateSharedRates(const std::vector<GpuSlice>& slices)
{
    // Every job on these GPUs progresses at 1/k (less the switch overhead) where k is its busiest GPU's load.
    std::vector<int> affected;
    for (const auto& slice : slices)
        for (int g : slice.gpus)
            for (int other : m_gpuResidents[static_cast<std::size_t>(m_state.globalGpu(slice.node, g))])
                affected.push_back(other);
    std::sort(affected.begin(), affected.end());
    affected.erase(std::unique(affected.begin(), affected.end()), affected.end());
    for (int job : affected) {
        Active& a = m_active[static_cast<std::size_t>(job)];
        advance(job);
        std::size_t k = 1;
        for (const auto& slice : a.slices)
            for (int g : slice.gpus)
                k = std::max(k, m_gpuResidents[static_cast<std::size_t>(m_state.globalGpu(slice.node, g))].size());
        a.rate = k > 1 ? (1.0 - m_options.switchOverhead) / double(k) : 1.0;
        reschedule(job);
    }
}

void Simulator::stop(int job, bool finished)
{
    Active& a = m_active[static_cast<std::size_t>(job)];
    JobRecord& rec = m_records[static_cast<std::size_t>(job)];
    const Job& j = (*m_workload)[static_cast<std::size_t>(job)];
    advance(job);
    for (const auto& slice : a.slices)
        m_state.release(slice, m_nowS);
    changeUserGpus(j.user, -j.gpuShare());
    Segment& segment = rec.segments.back();
    segment.endS = m_nowS;
    rec.allocatedGpuS += (m_nowS - segment.startS) * j.gpuShare();
    const int pos = m_runningPos[static_cast<std::size_t>(job)];
    m_runningPos[static_cast<std::size_t>(m_running.back())] = pos;
    m_running[static_cast<std::size_t>(pos)] = m_running.back();
    m_running.pop_back();
    m_runningPos[static_cast<std::size_t>(job)] = -1;
    if (m_options.policy == Policy::Backfill)
        m_runningByEstimatedEnd.erase({a.estimatedEndS, job});
    a.running = false;
    ++a.version;
    std::vector<GpuSlice> released = std::move(a.slices);
    a.slices.clear();
    if (m_options.policy == Policy::Gandiva) {
        for (const auto& slice : released)
            for (int g : slice.gpus) {
                auto& list = m_gpuResidents[static_cast<std::size_t>(m_state.globalGpu(slice.node, g))];
                list.erase(std::find(list.begin(), list.end(), job));
            }
        updateSharedRates(released);
    }
    if (finished) {
        a.done = true;
        a.remainingS = 0;
        rec.endS = m_nowS;
        notify(EventKind::Finish, job);
        return;
    }
    ++rec.preemptions;
    if (a.request.gpus > 0)
        ++m_pendingGpus[a.request.gpus];
    else
        ++m_pendingFractional;
    m_queue.push_back(job);
    notify(EventKind::Preempt, job);
}

void Simulator::processEventsAt(double nowS)
{
    while (!m_events.empty() && m_events.top().timeS <= nowS) {
        const Event event = m_events.top();
        m_events.pop();
        Active& a = m_active[static_cast<std::size_t>(event.job)];
        if (event.version != a.version || !a.running)
            continue;
        if (event.kind == kFinishEvent) {
            stop(event.job, true);
        } else {
            advance(event.job);
            a.level = levelOf(a.attainedGpuS);
            reschedule(event.job);
            notify(EventKind::Demote, event.job);
        }
    }
    const auto& w = *m_workload;
    while (m_nextArrival < m_arrivalOrder.size()
        && w[static_cast<std::size_t>(m_arrivalOrder[m_nextArrival])].submitS <= nowS)
        admit(m_arrivalOrder[m_nextArrival++]);
}

int Simulator::levelOf(double attainedGpuS) const
{
    int level = 0;
    for (double threshold : m_options.tiresiasThresholdsGpuS)
        if (attainedGpuS + 1e-6 >= threshold)
            ++level;
    return level;
}

void Simulator::eraseStartedFromQueue(std::size_t scanned)
{
    scanned = std::min(scanned, m_queue.size());
    auto end = std::remove_if(m_queue.begin(), m_queue.begin() + static_cast<std::ptrdiff_t>(scanned),
        [&](int job) { return m_active[static_cast<std::size_t>(job)].running; });
    m_queue.erase(end, m_queue.begin() + static_cast<std::ptrdiff_t>(scanned));
}

SimulationResult Simulator::run(const Workload& workload)
{
    reset(workload);
    double firstSubmitS = workload.empty() ? 0.0 : workload[std::size_t(m_arrivalOrder.front())].submitS;
    m_nowS = m_lastPassS = std::max(0.0, firstSubmitS);
    for (;;) {
        double next = std::numeric_limits<double>::infinity();
        if (!m_events.empty())
            next = m_events.top().timeS;
        if (m_nextArrival < m_arrivalOrder.size())
            next = std::min(next, workload[std::size_t(m_arrivalOrder[m_nextArrival])].submitS);
        if (!std::isfinite(next) || next > m_options.horizonS)
            break;
        if (m_lastFrag >= 0) {
            m_fragIntegral += m_lastFrag * (next - m_lastPassS);
            m_fragTimeS += next - m_lastPassS;
        }
        m_nowS = std::max(m_nowS, next);
        processEventsAt(m_nowS);
        schedule();
        // I_frag = queue::gpuFragmentationIndex(free per node, smallest pending request), read from the free-GPU
        // histograms in O(node types) per pass instead of O(nodes); tst_simulator checks that the two agree.
        const int free = m_state.freeGpus();
        m_lastFrag
            = (!m_pendingGpus.empty() && free > 0) ? double(m_state.strandedFreeGpus(minPendingGpus())) / free : -1.0;
        m_lastPassS = m_nowS;
    }
    finishRun(std::isfinite(m_options.horizonS) && !m_running.empty() ? m_options.horizonS : m_nowS);
    SimulationResult result;
    result.startS = std::max(0.0, firstSubmitS);
    result.endS = m_nowS;
    result.events = m_eventCount;
    result.passes = m_passCount;
    result.fragmentationIndex = m_fragTimeS > 0 ? m_fragIntegral / m_fragTimeS : 0.0;
    result.idlePowerFraction = m_options.idlePowerFraction;
    result.nodes = m_state.nodes();
    result.gpuTypeIds = m_state.gpuTypeIds();
    for (int node = 0; node < static_cast<int>(result.nodes.size()); ++node)
        result.utilization.push_back(m_state.averageUtilization(node, result.startS, result.endS));
    result.timeline = m_state.timeline();
    result.jobs = std::move(m_records);
    return result;
}

void Simulator::finishRun(double endS)
{
    m_nowS = std::max(m_nowS, endS);
    for (std::size_t job = 0; job < m_active.size(); ++job) {
        Active& a = m_active[job];
        JobRecord& rec = m_records[job];
        if (a.running) {
            advance(static_cast<int>(job));
            rec.segments.back().endS = m_nowS;
            rec.allocatedGpuS += (m_nowS - rec.segments.back().startS) * (*m_workload)[job].gpuShare();
        }
        if (!a.done)
            rec.unfinished = true;
        rec.serviceS = std::max(0.0, a.workS - a.overheadS);
    }
    m_state.finish(m_nowS);
}

} // namespace clusterplanner::core::sched
