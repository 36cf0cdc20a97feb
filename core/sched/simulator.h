// SPDX-License-Identifier: GPL-3.0-or-later
// Discrete-event simulator of a shared GPU cluster under one scheduling policy (docs/methods-scheduling.md §7).
#pragma once

#include "core/sched/clusterstate.h"
#include "core/sched/job.h"
#include "core/sched/placement.h"
#include "core/sched/simulation.h"

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
        int kind; ///< lower runs first at the same time: finish, demote
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

    /// Per-job run-time state.
    struct Active
    {
        PlacementRequest request;
        double remainingS = 0; ///< dedicated-GPU seconds of work left, restart penalties included
        double rate = 0; ///< progress per second while running (1, or less when time-sliced)
        double lastUpdateS = 0;
        double attainedGpuS = 0; ///< Tiresias: GPUs × executed time
        double overheadS = 0; ///< restart penalties added so far
        int level = 0;
        int version = 0; ///< invalidates stale finish/demote events
        bool running = false;
        bool done = false;
        bool admitted = false;
        double estimatedEndS = 0; ///< key in m_runningByEstimatedEnd
        double workS = 0; ///< Σ progress, restart penalties included
        std::vector<GpuSlice> slices;
    };

    void reset(const Workload& workload);
    void admit(int job);
    void processEventsAt(double nowS);
    void schedule();
    void finishRun(double endS);
    void notify(EventKind kind, int job);
    void changeUserGpus(int user, double delta);
    double userUsage(std::size_t user) const;

    // Job lifecycle (simulator.cpp).
    bool tryStart(int job, bool allowShared);
    void start(int job, std::vector<GpuSlice> slices);
    void stop(int job, bool finished);
    void advance(int job);
    void reschedule(int job);
    void updateSharedRates(const std::vector<GpuSlice>& slices);
    int minPendingGpus() const;
    void eraseStartedFromQueue(std::size_t scanned);
    std::string rejectionReason(int job) const;

    // Policies (schedulingpasses.cpp).
    void passOrdered(bool skipBlocked);
    void passFairShare();
    void passBackfill();
    void passPreemptive();
    void passGandiva();
    double reservationTime(int head, int& extraGpus) const;
    bool preemptFor(int job, const std::vector<int>& order, std::size_t position);
    int levelOf(double attainedGpuS) const;

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
    std::vector<int> m_queue; ///< waiting jobs in policy order
    std::vector<int> m_running;
    std::vector<int> m_runningPos; ///< index into m_running, -1 when not running
    std::vector<std::vector<int>> m_gpuResidents; ///< time slicing: jobs on each global GPU
    std::map<int, int> m_pendingGpus; ///< whole-GPU request size → waiting jobs
    int m_pendingFractional = 0; ///< waiting fractional jobs
    std::set<std::pair<double, int>> m_runningByEstimatedEnd; ///< backfilling reservations
    std::vector<double> m_userGpus; ///< fair share: GPUs each user holds now
    std::vector<double> m_userGpuS; ///< fair share: GPU-seconds each user used up to m_userSinceS
    std::vector<double> m_userSinceS;
    double m_nowS = 0;
    double m_lastPassS = 0;
    double m_fragIntegral = 0;
    double m_fragTimeS = 0;
    double m_lastFrag = -1;
    long long m_eventCount = 0;
    long long m_passCount = 0;
};

} // namespace clusterplanner::core::sched
