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

/// Dense half-precision tensor throughput: BF16, or FP16 on GPUs without BF16 (V100); 0 when unknown.
double halfPrecisionTflops(const GpuSpec* spec)
{
    if (!spec)
        return 0;
    return spec->bf16Tflops ? *spec->bf16Tflops : spec->fp16Tflops.value_or(0.0);
}

double speedFactor(const SimulationOptions& options, const GpuCatalog& catalog, const std::string& gpuId)
{
    if (auto it = options.gpuSpeed.find(gpuId); it != options.gpuSpeed.end() && it->second > 0)
        return it->second;
    const double reference = halfPrecisionTflops(catalog.find(options.speedReferenceGpu));
    const double own = halfPrecisionTflops(catalog.find(gpuId));
    return reference > 0 && own > 0 ? own / reference : 1.0;
}

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
    for (const std::string& id : m_state.gpuTypeIds())
        m_typeSpeed.push_back(speedFactor(m_options, catalog, id));
    m_placer.setTypeSpeeds(m_typeSpeed, m_options.policy == Policy::Gavel);
}

void Simulator::reset(const Workload& workload)
{
    if (m_eventCount > 0)
        throw std::logic_error("Simulator::run: a Simulator runs one workload; make a new one for the next");
    m_workload = &workload;
    const std::size_t n = workload.size();
    m_active.assign(n, {});
    m_records.assign(n, {});
    m_arrivalOrder.resize(n);
    std::iota(m_arrivalOrder.begin(), m_arrivalOrder.end(), 0);
    std::stable_sort(m_arrivalOrder.begin(), m_arrivalOrder.end(),
        [&](int a, int b) { return workload[std::size_t(a)].submitS < workload[std::size_t(b)].submitS; });
    if (m_options.policy == Policy::Gandiva)
        m_gpuResidents.assign(static_cast<std::size_t>(m_state.totalGpus()), {});
    int users = 0;
    for (std::size_t i = 0; i < n; ++i) {
        initJob(static_cast<int>(i));
        users = std::max(users, workload[i].user + 1);
    }
    m_userGpus.assign(static_cast<std::size_t>(users), 0.0);
    m_userGpuS.assign(static_cast<std::size_t>(users), 0.0);
    m_userSinceS.assign(static_cast<std::size_t>(users), 0.0);
    m_userWaiting.assign(static_cast<std::size_t>(users), {});
    m_gpusByTypeClass.assign(m_state.gpuTypeIds().size(), {});
    initRequestMix();
}

void Simulator::initJob(int index)
{
    const Job& job = (*m_workload)[static_cast<std::size_t>(index)];
    Active& a = m_active[static_cast<std::size_t>(index)];
    PlacementRequest& r = a.request;
    const bool sliced = m_options.policy == Policy::Gandiva;
    r.gpus = std::max(0, job.gpus);
    r.milli = job.gpus > 0 ? 1000 : job.gpuMilli;
    r.gpuMemoryMiB = job.gpuMemoryMiB;
    r.memoryFraction = job.gpus > 0 ? (sliced ? m_options.assumedMemoryFraction : 1.0) : job.gpuMilli / 1000.0;
    r.gpuType = job.gpuType.empty() ? -1 : m_state.gpuTypeIndex(job.gpuType);
    r.cpuCores = job.cpuCores;
    r.memoryGiB = job.memoryGiB;
    r.bandwidthGbps = job.bandwidthGbps;
    a.remainingS = job.durationS;
    JobRecord& rec = m_records[static_cast<std::size_t>(index)];
    rec.jobId = job.id;
    rec.user = job.user;
    rec.gpus = job.gpus;
    rec.gpuMilli = job.gpuMilli;
    rec.submitS = job.submitS;
    rec.durationS = job.durationS;
}

void Simulator::initRequestMix()
{
    // I_frag weighs each request size by its share of the workload's whole-GPU jobs, so the index asks "how much
    // of the free capacity could a typical job not use" instead of "could the smallest waiting job start", which
    // is always "no" while a job waits under a work-conserving policy (FGD, Weng et al. ATC'23).
    std::map<int, int> counts;
    int whole = 0;
    for (const Job& job : *m_workload)
        if (job.gpus > 0) {
            ++counts[job.gpus];
            ++whole;
        }
    m_requestMix.clear();
    for (const auto& [gpus, count] : counts)
        m_requestMix.emplace_back(gpus, double(count) / whole);
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
    JobRecord& rec = m_records[static_cast<std::size_t>(job)];
    rec.note = rejectionReason(job);
    if (!rec.note.empty()) {
        rec.unfinished = true;
        notify(EventKind::Reject, job);
        return;
    }
    m_active[static_cast<std::size_t>(job)].admitted = true;
    enqueue(job);
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
    const double dt = m_nowS - m_userSinceS[user];
    const double halfLifeS = m_options.fairShareHalfLifeS;
    if (!(halfLifeS > 0))
        return m_userGpuS[user] + m_userGpus[user] * dt;
    // Exponentially decayed usage: the old sum halves every half-life, and holding g GPUs for dt adds the
    // integral of g·2^(−(t_now − t)/h) over the interval (Slurm multifactor priority, PriorityDecayHalfLife).
    const double keep = std::exp2(-dt / halfLifeS);
    return m_userGpuS[user] * keep + m_userGpus[user] * halfLifeS / std::log(2.0) * (1.0 - keep);
}

void Simulator::notify(EventKind kind, int job)
{
    ++m_eventCount;
    if (m_observer)
        m_observer(SimEvent {kind, m_nowS, job}, m_state);
}

void Simulator::processEventsAt(double nowS)
{
    while (!m_events.empty() && m_events.top().timeS <= nowS) {
        const Event event = m_events.top();
        m_events.pop();
        if (isStale(event))
            continue;
        if (event.kind == kFinishEvent)
            stop(event.job, StopReason::Finish);
        else if (event.kind == kDemoteEvent)
            demote(event.job);
        else
            promote(event.job);
    }
    const auto& w = *m_workload;
    while (m_nextArrival < m_arrivalOrder.size()
        && w[static_cast<std::size_t>(m_arrivalOrder[m_nextArrival])].submitS <= nowS)
        admit(m_arrivalOrder[m_nextArrival++]);
}

bool Simulator::isStale(const Event& event) const
{
    const Active& a = m_active[static_cast<std::size_t>(event.job)];
    return event.version != a.version || (event.kind == kPromoteEvent ? !a.waiting : !a.running);
}

void Simulator::dropStaleEvents()
{
    // A time-sliced job that speeds up leaves its old finish event behind; the clock must never jump to one.
    while (!m_events.empty() && isStale(m_events.top()))
        m_events.pop();
}

void Simulator::demote(int job)
{
    Active& a = m_active[static_cast<std::size_t>(job)];
    advance(job);
    m_runningByClass.erase({klassOf(job), job});
    countClassGpus(job, -1);
    a.level = levelOf(a.attainedGpuS);
    m_runningByClass.insert({klassOf(job), job});
    countClassGpus(job, +1);
    reschedule(job);
    notify(EventKind::Demote, job);
}

void Simulator::promote(int job)
{
    Active& a = m_active[static_cast<std::size_t>(job)];
    dequeue(job);
    a.level = 0;
    a.attainedGpuS = 0;
    enqueue(job);
    notify(EventKind::Demote, job);
}

int Simulator::levelOf(double attainedGpuS) const
{
    int level = 0;
    for (double threshold : m_options.tiresiasThresholdsGpuS)
        if (attainedGpuS + 1e-6 >= threshold)
            ++level;
    return level;
}

void Simulator::sampleFragmentation(double nextS)
{
    if (m_lastFrag >= 0) {
        m_fragIntegral += m_lastFrag * (nextS - m_lastPassS);
        m_fragTimeS += nextS - m_lastPassS;
    }
}

double Simulator::fragmentationNow() const
{
    // Sampled while jobs wait and GPUs are free: the request-mix-weighted share of free GPUs on nodes too small
    // for a request (docs/methods-scheduling.md §7 I_frag).
    const int free = m_state.freeGpus();
    if (m_pendingGpus.empty() || free == 0)
        return -1.0;
    double stranded = 0;
    for (const auto& [gpus, share] : m_requestMix)
        stranded += share * m_state.strandedFreeGpusFor(gpus);
    return stranded / free;
}

SimulationResult Simulator::run(const Workload& workload)
{
    reset(workload);
    const double firstSubmitS = workload.empty() ? 0.0 : workload[std::size_t(m_arrivalOrder.front())].submitS;
    m_nowS = m_lastPassS = std::max(0.0, firstSubmitS);
    for (;;) {
        dropStaleEvents();
        double next = std::numeric_limits<double>::infinity();
        if (!m_events.empty())
            next = m_events.top().timeS;
        if (m_nextArrival < m_arrivalOrder.size())
            next = std::min(next, workload[std::size_t(m_arrivalOrder[m_nextArrival])].submitS);
        if (!std::isfinite(next) || next > m_options.horizonS)
            break;
        sampleFragmentation(next);
        m_nowS = std::max(m_nowS, next);
        processEventsAt(m_nowS);
        schedule();
        m_lastFrag = fragmentationNow();
        m_lastPassS = m_nowS;
    }
    finishRun(std::isfinite(m_options.horizonS) && m_running > 0 ? m_options.horizonS : m_nowS);
    return collectResult(std::max(0.0, firstSubmitS));
}

SimulationResult Simulator::collectResult(double startS)
{
    SimulationResult result;
    result.startS = startS;
    result.endS = startS;
    for (const JobRecord& rec : m_records)
        for (const Segment& segment : rec.segments)
            result.endS = std::max(result.endS, segment.endS);
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
        double runS = 0;
        for (const Segment& segment : rec.segments)
            runS += segment.endS - segment.startS;
        if (a.admitted)
            rec.queuedS = std::max(0.0, (a.done ? rec.endS : m_nowS) - rec.submitS - runS);
    }
    m_state.finish(m_nowS);
}

} // namespace clusterplanner::core::sched
