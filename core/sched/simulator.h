// SPDX-License-Identifier: GPL-3.0-or-later
// Discrete-event simulator of a shared GPU cluster under one scheduling policy (docs/methods-scheduling.md §7).
#pragma once

#include "core/sched/clusterstate.h"
#include "core/sched/job.h"
#include "core/sched/placement.h"
#include "core/sched/simulation.h"

#include <compare>
#include <functional>
#include <map>
#include <queue>
#include <set>
#include <string>
#include <vector>

namespace clusterplanner::core {
class GpuCatalog;
}

namespace clusterplanner::core::sched {

/// Called after every event that changes the cluster (arrival, start, finish, preemption, demotion, rejection),
/// with the state right after it; meant for invariant checks and progress views.
using EventObserver = std::function<void(const SimEvent&, const ClusterState&)>;

/// Kinds of timed events in the simulator's queue (simulator.cpp, joblifecycle.cpp).
inline constexpr int kFinishEvent = 0;
inline constexpr int kDemoteEvent = 1;
inline constexpr int kPromoteEvent = 2;

/// Runs one workload on one cluster. Deterministic: the same inputs give the same result (ties are broken by
/// time, event kind, then job index). Jobs that can never fit the cluster are rejected on arrival and reported
/// unfinished, so strict head-of-line policies cannot block forever.
class Simulator
{
public:
    /// Throws std::invalid_argument for an unknown node type or GPU id in the model.
    Simulator(const ClusterModel& model, const GpuCatalog& catalog, SimulationOptions options);

    void setObserver(EventObserver observer) { m_observer = std::move(observer); }
    /// Runs the workload; call once per Simulator (throws std::logic_error on a second call).
    SimulationResult run(const Workload& workload);

private:
    struct Event
    {
        double timeS;
        int kind; ///< lower runs first at the same time: finish, demote, promote
        int job;
        int version;
        bool operator>(const Event& o) const
        {
            if (timeS != o.timeS)
                return timeS > o.timeS;
            if (kind != o.kind)
                return kind > o.kind;
            return job > o.job;
        }
    };

    /// Order of a waiting job: policy class first (SJF length, priority, Tiresias queue), then submission, then
    /// index, so that every queue is a std::set and a pass reads its head in O(log n).
    struct QueueKey
    {
        double klass = 0;
        double submitS = 0;
        int job = 0;
        auto operator<=>(const QueueKey&) const = default;
    };

    /// Per-job run-time state.
    struct Active
    {
        PlacementRequest request;
        double remainingS = 0; ///< dedicated-GPU seconds of work left, restart penalties included
        double rate = 0; ///< progress per second while running (1, or less when time-sliced)
        double lastUpdateS = 0;
        double attainedGpuS = 0; ///< Tiresias: GPUs × executed time
        double overheadS = 0; ///< restart penalties and lost work added so far
        double sinceCheckpointS = 0; ///< progress since the last checkpoint, lost on preemption
        int level = 0;
        int version = 0; ///< invalidates stale finish/demote/promote events
        bool running = false;
        bool done = false;
        bool admitted = false;
        bool waiting = false;
        QueueKey key; ///< key in the waiting set while waiting, in m_runningByClass while running
        double estimatedEndS = 0; ///< key in m_runningByEstimatedEnd
        double workS = 0; ///< Σ progress, restart penalties included
        std::vector<GpuSlice> slices;
    };

    enum class StopReason { Finish, Preempt, Migrate };

    void reset(const Workload& workload);
    void initJob(int index);
    void initRequestMix();
    void admit(int job);
    void processEventsAt(double nowS);
    bool isStale(const Event& event) const;
    void dropStaleEvents();
    void demote(int job);
    void promote(int job);
    void schedule();
    void finishRun(double endS);
    SimulationResult collectResult(double startS);
    void notify(EventKind kind, int job);
    void changeUserGpus(int user, double delta);
    double userUsage(std::size_t user) const;

    // Waiting jobs (joblifecycle.cpp).
    QueueKey keyOf(int job) const;
    void enqueue(int job);
    void dequeue(int job);
    int klassOf(int job) const;

    // Job lifecycle (joblifecycle.cpp).
    bool tryStart(int job);
    void start(int job, std::vector<GpuSlice> slices);
    void release(int job);
    void stop(int job, StopReason reason);
    void loseWorkSinceCheckpoint(Active& a) const;
    void advance(int job);
    void reschedule(int job);
    double rateOf(int job) const;
    int minPendingGpus() const;
    std::string rejectionReason(int job) const;
    void sampleFragmentation(double nextS);
    double fragmentationNow() const;

    // Policies (schedulingpasses.cpp).
    void passOrdered();
    void passFairShare();
    bool overQuota(std::size_t user, int job) const;
    std::size_t neediestUser(const std::vector<char>& blocked) const;
    void passBackfill();
    bool backfillAllowed(int job, int head, double shadowS, int& extraGpus);
    void passPreemptive();
    bool nothingElseFits() const;
    double reservationTime(int head, int& extraGpus) const;
    bool enoughVictims(int job) const;
    bool preemptFor(int job);
    bool preemptVictims(int job, const std::vector<int>& victims, const std::vector<GpuSlice>& placement);
    int levelOf(double attainedGpuS) const;

    // Time slicing (timeslicing.cpp).
    void passGandiva();
    bool startShared(int job);
    void unslice();
    void joinGroup(int job);
    void leaveGroup(int job, const std::vector<GpuSlice>& slices);
    void updateGroup(int firstGpu, int gpus);
    int firstGpuOf(const std::vector<GpuSlice>& slices) const;

    SimulationOptions m_options;
    ClusterState m_state;
    Placer m_placer;
    EventObserver m_observer;

    const Workload* m_workload = nullptr;
    std::vector<int> m_arrivalOrder;
    std::size_t m_nextArrival = 0;
    std::priority_queue<Event, std::vector<Event>, std::greater<Event>> m_events;
    std::vector<Active> m_active;
    std::vector<JobRecord> m_records;
    std::set<QueueKey> m_waiting; ///< waiting jobs in policy order
    std::vector<std::set<QueueKey>> m_userWaiting; ///< fair share: each user's waiting jobs, FIFO
    std::set<std::pair<int, int>> m_runningByClass; ///< preemptive policies: (class, job); larger class = victim
    std::vector<std::map<int, long long>> m_gpusByTypeClass; ///< [GPU type][class] → whole GPUs held
    void countClassGpus(int job, int sign);
    int m_running = 0;
    std::vector<std::vector<int>> m_gpuResidents; ///< time slicing: jobs on each global GPU
    std::set<std::pair<int, int>> m_shareable; ///< time slicing: (GPUs, first GPU) of groups with room
    std::set<std::pair<int, int>> m_sliced; ///< time slicing: (GPUs, first GPU) of groups of 2+ jobs
    std::map<int, int> m_pendingGpus; ///< whole-GPU request size → waiting jobs
    int m_pendingFractional = 0; ///< waiting fractional jobs
    std::set<std::pair<double, int>> m_runningByEstimatedEnd; ///< backfilling reservations
    std::vector<double> m_userGpus; ///< fair share: GPUs each user holds now
    std::vector<double> m_userGpuS; ///< fair share: (decayed) GPU-seconds each user used up to m_userSinceS
    std::vector<double> m_userSinceS;
    std::vector<double> m_typeSpeed; ///< job speed on each GPU type (SimulationOptions::gpuSpeed)
    std::vector<std::pair<int, double>> m_requestMix; ///< I_frag: (GPUs, share) of the workload's whole-GPU jobs
    double m_nowS = 0;
    double m_lastPassS = 0;
    double m_fragIntegral = 0;
    double m_fragTimeS = 0;
    double m_lastFrag = -1;
    long long m_eventCount = 0;
    long long m_passCount = 0;
};

} // namespace clusterplanner::core::sched
