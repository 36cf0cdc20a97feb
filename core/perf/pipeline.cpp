// SPDX-License-Identifier: GPL-3.0-or-later
// Pipeline schedules: per-rank op orders (Megatron schedules.py order for 1F1B and interleaved, the ZB-H1 order
// of Qi et al. 2024, DeepSeek-V3's DualPipe) replayed against their data dependencies.
#include "core/perf/pipeline.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <stdexcept>
#include <string>
#include <utility>

namespace clusterplanner::core::perf {

namespace {

struct OrderedOp
{
    PipelineOpKind kind;
    int chunk; ///< interleaved: the model chunk; DualPipe: the direction (0 enters at rank 0, 1 at the last rank)
    int microBatch;
    bool deferredWeight = false; ///< a backward whose weight gradients run later as their own op (zero bubble)
    /// The forward of an overlapped forward-backward pair (DualPipe): it starts once both its input and the pair's
    /// backward's gradient are there, as deepseek-ai/DualPipe waits for both receives before computing either chunk.
    bool startsPair = false;
};

using StageOrder = std::vector<OrderedOp>;

StageOrder gpipeOrder(const PipelineParams& p)
{
    StageOrder order;
    for (int mb = 0; mb < p.microBatches; ++mb)
        order.push_back({PipelineOpKind::Forward, 0, mb});
    for (int mb = 0; mb < p.microBatches; ++mb)
        order.push_back({PipelineOpKind::Backward, 0, mb});
    return order;
}

/// Megatron's k-th forward / backward of a rank in the interleaved schedule: groups of p micro-batches per
/// chunk; backward walks the chunks in reverse. With v = 1 this is plain 1F1B.
OrderedOp interleavedOp(const PipelineParams& p, int k, bool forward)
{
    const int v = p.chunks;
    const int group = (k / p.stages) % v;
    const int mb = (k / (p.stages * v)) * p.stages + k % p.stages;
    return forward ? OrderedOp {PipelineOpKind::Forward, group, mb}
                   : OrderedOp {PipelineOpKind::Backward, v - 1 - group, mb};
}

/// Forwards a rank runs before its first backward (Megatron schedules.py warm-up).
int warmupCount(const PipelineParams& p, int stage)
{
    const int total = p.microBatches * p.chunks;
    const int warmup = p.chunks == 1 ? p.stages - stage - 1 : (p.stages - stage - 1) * 2 + (p.chunks - 1) * p.stages;
    return std::min(warmup, total);
}

StageOrder oneFOneBOrder(const PipelineParams& p, int stage)
{
    const int total = p.microBatches * p.chunks;
    const int warmup = warmupCount(p, stage);
    StageOrder order;
    for (int k = 0; k < warmup; ++k)
        order.push_back(interleavedOp(p, k, true));
    for (int k = 0; k < total - warmup; ++k) {
        order.push_back(interleavedOp(p, warmup + k, true));
        order.push_back(interleavedOp(p, k, false));
    }
    for (int k = total - warmup; k < total; ++k)
        order.push_back(interleavedOp(p, k, false));
    return order;
}

/// ZB-H1: 1F1B order with the weight-gradient ops of stage i deferred by up to i micro-batches, so every stage
/// holds at most p micro-batches (ZB paper §3, "H1"); cool-down runs one W after each B, leftovers at the end.
StageOrder zbH1Order(const PipelineParams& p, int stage)
{
    const int m = p.microBatches;
    const int warmup = std::min(p.stages - stage - 1, m);
    StageOrder order;
    int backwards = 0;
    int weights = 0;
    auto backward = [&](bool coolDown) {
        order.push_back({PipelineOpKind::Backward, 0, backwards++, true});
        if (coolDown || backwards - weights > stage)
            order.push_back({PipelineOpKind::WeightGrad, 0, weights++});
    };
    for (int k = 0; k < warmup; ++k)
        order.push_back({PipelineOpKind::Forward, 0, k});
    for (int k = 0; k < m - warmup; ++k) {
        order.push_back({PipelineOpKind::Forward, 0, warmup + k});
        backward(false);
    }
    while (backwards < m)
        backward(true);
    while (weights < m)
        order.push_back({PipelineOpKind::WeightGrad, 0, weights++});
    return order;
}

/// DualPipe (DeepSeek-V3 report §3.2.1 and Figure 5; deepseek-ai/DualPipe): half the m micro-batches enter at rank 0
/// and half at rank p−1; rank r runs stage r of the first direction and stage p−1−r of the second. A rank's "phase 0"
/// is the direction that enters at its nearer end, h = min(r, p−1−r) its distance from that end and n = m/2. The eight
/// steps of the published schedule:
///   1. 2(p/2 − h − 1) × F0     2. (h + 1) × (F0, F1)     3. (p/2 − h − 1) × (B1 zero-bubble, W, F1)
///   4. (n − p + h + 1) × (F0 B1, F1 B0), each an overlapped forward-backward pair
///   5. (p/2 − h − 1) × (B1, F1 B0)     6. (h + 1) × (B1, B0), the later half zero-bubble
///   7. (p/2 − h − 1) × (W, B0 zero-bubble)     8. (h + 1) × W
/// W runs the oldest deferred weight gradients. An overlapped pair hides communication behind compute, not compute
/// behind compute: its two chunks run one after the other here, and it starts once both have their inputs.
StageOrder dualPipeOrder(const PipelineParams& p, int rank)
{
    const int half = p.stages / 2;
    const int h = std::min(rank, p.stages - 1 - rank);
    const int n = p.microBatches / 2;
    const int secondHalf = rank >= half ? 1 : 0;
    StageOrder order;
    int forwards[2] = {0, 0}, backwards[2] = {0, 0};
    std::deque<std::pair<int, int>> deferred; // (direction, micro-batch) awaiting W
    const auto direction = [&](int phase) { return phase ^ secondHalf; };
    const auto forward = [&](int phase) {
        const int d = direction(phase);
        order.push_back({PipelineOpKind::Forward, d, d * n + forwards[phase]++});
    };
    const auto backward = [&](int phase, bool zeroBubble) {
        const int d = direction(phase);
        const int mb = d * n + backwards[phase]++;
        order.push_back({PipelineOpKind::Backward, d, mb, zeroBubble});
        if (zeroBubble)
            deferred.emplace_back(d, mb);
    };
    const auto pair = [&](int forwardPhase, int backwardPhase) { // one overlapped chunk pair: F waits for B's input
        forward(forwardPhase);
        order.back().startsPair = true;
        backward(backwardPhase, false);
    };
    const auto weight = [&] {
        order.push_back({PipelineOpKind::WeightGrad, deferred.front().first, deferred.front().second});
        deferred.pop_front();
    };
    const int outer = half - h - 1; // steps 3, 5 and 7
    for (int i = 0; i < 2 * outer; ++i)
        forward(0);
    for (int i = 0; i <= h; ++i) {
        forward(0);
        forward(1);
    }
    for (int i = 0; i < outer; ++i) {
        backward(1, true);
        weight();
        forward(1);
    }
    for (int i = 0; i < n - p.stages + h + 1; ++i) {
        pair(0, 1);
        pair(1, 0);
    }
    for (int i = 0; i < outer; ++i) {
        backward(1, false);
        pair(1, 0);
    }
    bool zeroBubble = false;
    for (int i = 0; i <= h; ++i) {
        zeroBubble = zeroBubble || (i == (h + 1) / 2 && h % 2 == 1);
        backward(1, zeroBubble);
        zeroBubble = zeroBubble || (i == (h + 1) / 2 && h % 2 == 0);
        backward(0, zeroBubble);
    }
    for (int i = 0; i < outer; ++i) {
        weight();
        backward(0, true);
    }
    while (!deferred.empty())
        weight();
    return order;
}

StageOrder stageOrder(const PipelineParams& p, int stage)
{
    switch (p.schedule) {
    case PipelineSchedule::GPipe:
        return gpipeOrder(p);
    case PipelineSchedule::ZbH1:
        return zbH1Order(p, stage);
    case PipelineSchedule::DualPipe:
        return dualPipeOrder(p, stage);
    case PipelineSchedule::OneFOneB:
    case PipelineSchedule::Interleaved:
        break;
    }
    return oneFOneBOrder(p, stage);
}

/// Finish times of every op, indexed [virtual stage][micro-batch]; negative = not yet run.
struct DoneTimes
{
    int microBatches;
    std::vector<double> forward, backward;
    DoneTimes(int virtualStages, int m)
        : microBatches(m)
        , forward(std::size_t(virtualStages) * m, -1.0)
        , backward(std::size_t(virtualStages) * m, -1.0)
    { }
    double& f(int vs, int mb) { return forward[std::size_t(vs) * microBatches + mb]; }
    double& b(int vs, int mb) { return backward[std::size_t(vs) * microBatches + mb]; }
};

class Replay
{
public:
    explicit Replay(const PipelineParams& p)
        : m_p(p)
        , m_dualPipe(p.schedule == PipelineSchedule::DualPipe)
        , m_virtualStages(m_dualPipe ? 2 * p.stages : p.stages * p.chunks)
        , m_pathLength(m_dualPipe ? p.stages : m_virtualStages)
        , m_done(m_virtualStages, p.microBatches)
    { }

    /// recordOps false: the makespan, bubble and peaks without the op list (the summaries' path).
    PipelineTimeline run(bool recordOps = true)
    {
        m_recordOps = recordOps;
        std::vector<StageOrder> orders;
        for (int s = 0; s < m_p.stages; ++s)
            orders.push_back(stageOrder(m_p, s));
        std::vector<std::size_t> next(m_p.stages, 0);
        std::vector<double> free(m_p.stages, 0.0);
        PipelineTimeline timeline;
        timeline.peakInFlight.assign(m_p.stages, 0.0);
        std::vector<double> inFlight(m_p.stages, 0.0);
        bool progress = true;
        while (progress) {
            progress = false;
            for (int s = 0; s < m_p.stages; ++s)
                progress |= advanceStage(s, orders[s], next[s], free[s], inFlight[s], timeline);
        }
        for (int s = 0; s < m_p.stages; ++s)
            if (next[s] != orders[s].size())
                throw std::logic_error("pipeline schedule deadlocked at stage " + std::to_string(s));
        finish(timeline, *std::max_element(free.begin(), free.end()));
        std::stable_sort(timeline.ops.begin(), timeline.ops.end(), [](const PipelineOp& a, const PipelineOp& b) {
            return a.stage != b.stage ? a.stage < b.stage : a.start < b.start;
        });
        return timeline;
    }

private:
    double duration(const OrderedOp& op) const
    {
        const double v = m_p.chunks;
        if (op.kind == PipelineOpKind::Forward)
            return m_p.forward / v;
        if (op.kind == PipelineOpKind::WeightGrad)
            return m_p.weightGrad / v;
        return (op.deferredWeight ? m_p.backward : m_p.backward + m_p.weightGrad) / v;
    }

    /// The virtual stage an op of rank s runs: interleaved chunk c is stage c·p + s; DualPipe's second direction
    /// runs its stages from the last rank back, stage p + (p − 1 − s) of the two directions' 2p.
    int virtualStage(const OrderedOp& op, int s) const
    {
        if (m_dualPipe)
            return op.chunk == 0 ? s : 2 * m_p.stages - 1 - s;
        return op.chunk * m_p.stages + s;
    }

    /// Finish time of the op this one waits for, or a negative value when that op has not run yet. A micro-batch
    /// passes m_pathLength virtual stages: all of them, or under DualPipe the p of its direction.
    double dependency(const OrderedOp& op, int vs)
    {
        const bool first = vs % m_pathLength == 0, last = vs % m_pathLength == m_pathLength - 1;
        if (op.kind == PipelineOpKind::Forward)
            return first ? 0.0 : m_done.f(vs - 1, op.microBatch);
        if (op.kind == PipelineOpKind::WeightGrad)
            return m_done.b(vs, op.microBatch);
        return last ? m_done.f(vs, op.microBatch) : m_done.b(vs + 1, op.microBatch);
    }

    bool advanceStage(
        int s, const StageOrder& order, std::size_t& next, double& free, double& inFlight, PipelineTimeline& timeline)
    {
        bool progress = false;
        while (next < order.size()) {
            const OrderedOp& op = order[next];
            const int vs = virtualStage(op, s);
            double ready = dependency(op, vs);
            if (op.startsPair && next + 1 < order.size()) {
                const double partner = dependency(order[next + 1], virtualStage(order[next + 1], s));
                ready = partner < 0 ? partner : std::max(ready, partner);
            }
            if (ready < 0)
                break;
            const double start = std::max(free, ready);
            free = start + duration(op);
            if (op.kind == PipelineOpKind::Forward)
                m_done.f(vs, op.microBatch) = free;
            else if (op.kind == PipelineOpKind::Backward)
                m_done.b(vs, op.microBatch) = free;
            trackInFlight(op, inFlight, timeline.peakInFlight[s]);
            if (m_recordOps)
                timeline.ops.push_back({s, op.chunk, op.microBatch, op.kind, start, free});
            ++next;
            progress = true;
        }
        return progress;
    }

    /// A micro-batch's activations live from its forward to its backward, or to its W where the backward deferred it.
    void trackInFlight(const OrderedOp& op, double& inFlight, double& peak) const
    {
        const double unit = 1.0 / m_p.chunks;
        if (op.kind == PipelineOpKind::Forward)
            inFlight += unit;
        else if (op.kind == PipelineOpKind::WeightGrad || !op.deferredWeight)
            inFlight -= unit;
        peak = std::max(peak, inFlight);
    }

    void finish(PipelineTimeline& timeline, double makespan) const
    {
        PipelineSummary& s = timeline.summary;
        s.makespan = makespan;
        s.idealTime = m_p.microBatches * (m_p.forward + m_p.backward + m_p.weightGrad);
        s.bubbleTime = makespan - s.idealTime;
        s.bubbleFraction = s.bubbleTime / s.idealTime;
        s.bubbleRate = s.bubbleTime / makespan;
        s.worstPeakInFlight = *std::max_element(timeline.peakInFlight.begin(), timeline.peakInFlight.end());
    }

    const PipelineParams& m_p;
    bool m_dualPipe;
    int m_virtualStages;
    int m_pathLength;
    DoneTimes m_done;
    bool m_recordOps = true;
};

/// DualPipe's published schedule runs an even number of ranks on an even number of micro-batches, at least two per
/// rank (deepseek-ai/DualPipe asserts num_chunks >= num_ranks * 2).
bool dualPipeSchedulable(const PipelineParams& p)
{
    return p.stages >= 2 && p.stages % 2 == 0 && p.microBatches % 2 == 0 && p.microBatches >= 2 * p.stages;
}

constexpr double kMaxSimulatedOps = 5e7; ///< stages × micro-batches × chunks the op replay accepts

} // namespace

std::string pipelineProblem(const PipelineParams& p)
{
    auto count = [](int value) { return std::to_string(value); };
    if (p.stages < 1)
        return "stages must be at least 1 (got " + count(p.stages) + ")";
    if (p.microBatches < 1)
        return "micro-batches must be at least 1 (got " + count(p.microBatches) + ")";
    if (p.chunks < 1)
        return "chunks must be at least 1 (got " + count(p.chunks) + ")";
    if (p.chunks > 1 && p.schedule != PipelineSchedule::Interleaved)
        return "chunks > 1 needs the interleaved schedule (got " + count(p.chunks) + " chunks)";
    if (p.schedule == PipelineSchedule::Interleaved && p.microBatches % p.stages != 0)
        return "interleaved 1F1B needs micro-batches divisible by stages (" + count(p.microBatches) + " % "
            + count(p.stages) + " != 0)";
    if (p.schedule == PipelineSchedule::DualPipe && (p.stages < 2 || p.stages % 2 != 0))
        return "DualPipe needs an even number of stages, at least 2 (got " + count(p.stages) + ")";
    if (p.schedule == PipelineSchedule::DualPipe && (p.microBatches % 2 != 0 || p.microBatches < 2 * p.stages))
        return "DualPipe needs an even number of micro-batches, at least 2 × stages = " + count(2 * p.stages) + " (got "
            + count(p.microBatches) + ")";
    if (!(p.forward > 0 && p.backward > 0 && p.weightGrad >= 0))
        return "op times must be positive (forward, backward) and non-negative (weight-gradient)";
    if (!std::isfinite(p.forward) || !std::isfinite(p.backward) || !std::isfinite(p.weightGrad))
        return "op times must be finite";
    return {};
}

bool isSchedulable(const PipelineParams& p)
{
    return p.stages >= 1 && p.microBatches >= 1 && p.chunks >= 1
        && (p.chunks == 1 || p.schedule == PipelineSchedule::Interleaved)
        && (p.schedule != PipelineSchedule::Interleaved || p.microBatches % p.stages == 0)
        && (p.schedule != PipelineSchedule::DualPipe || dualPipeSchedulable(p)) && p.forward > 0 && p.backward > 0
        && p.weightGrad >= 0 && std::isfinite(p.forward) && std::isfinite(p.backward) && std::isfinite(p.weightGrad);
}

bool isSimulable(const PipelineParams& p)
{
    return isSchedulable(p) && double(p.stages) * p.microBatches * p.chunks <= kMaxSimulatedOps;
}

void validatePipeline(const PipelineParams& p)
{
    if (!isSchedulable(p))
        throw std::invalid_argument(pipelineProblem(p));
}

PipelineTimeline simulatePipeline(const PipelineParams& params)
{
    validatePipeline(params);
    if (!isSimulable(params))
        throw std::invalid_argument("pipeline too large to simulate");
    return Replay(params).run();
}

double peakInFlight(const PipelineParams& p, int stage)
{
    const int m = p.microBatches;
    switch (p.schedule) {
    case PipelineSchedule::GPipe:
        return m;
    case PipelineSchedule::ZbH1:
        return std::min(p.stages, m);
    case PipelineSchedule::DualPipe: // every rank: p + 1 stage-micro-batches, its two stages together (Table 2)
        return std::min(p.stages + 1, m);
    case PipelineSchedule::OneFOneB:
    case PipelineSchedule::Interleaved:
        break;
    }
    const int total = m * p.chunks;
    return double(std::min(warmupCount(p, stage) + 1, total)) / p.chunks;
}

namespace {

/// DualPipe: the replay of its published order. Its bubble does not grow with the micro-batches beyond the 2p the
/// schedule needs (the extra ones only lengthen step 4's steady state of overlapped pairs), so 2p are replayed and the
/// rest added as ideal time: O(p²) ops whatever m is. Where W ≤ B it is the report's (p/2 − 1)(F&B + B_full − 3W),
/// F&B = F + B + W and B_full = B + W (docs/methods-time.md §4.46); not everywhere, hence the replay.
PipelineSummary dualPipeSummary(const PipelineParams& p)
{
    // A sweep asks again and again for the same stage times under other DP degrees (other m): remember the last
    // replays of this thread.
    struct Replayed
    {
        int stages;
        double forward, backward, weightGrad;
        PipelineSummary summary;
    };
    thread_local std::array<Replayed, 16> recent {};
    thread_local std::size_t next = 0;
    PipelineSummary s;
    const auto known = std::find_if(recent.begin(), recent.end(), [&](const Replayed& r) {
        return r.stages == p.stages && r.forward == p.forward && r.backward == p.backward
            && r.weightGrad == p.weightGrad;
    });
    if (known != recent.end()) {
        s = known->summary;
    } else {
        PipelineParams least = p;
        least.microBatches = 2 * p.stages;
        s = Replay(least).run(false).summary;
        recent[next++ % recent.size()] = {p.stages, p.forward, p.backward, p.weightGrad, s};
    }
    s.idealTime = p.microBatches * (p.forward + p.backward + p.weightGrad);
    s.makespan = s.idealTime + s.bubbleTime;
    s.bubbleFraction = s.bubbleTime / s.idealTime;
    s.bubbleRate = s.bubbleTime / s.makespan;
    return s;
}

} // namespace

PipelineSummary pipelineSummary(const PipelineParams& p)
{
    validatePipeline(p);
    const double f = p.forward, b = p.backward, w = p.weightGrad;
    const int m = p.microBatches, stages = p.stages;
    const bool zbClosed = m >= stages && w <= f && w <= b; // outside this the ZB-H1 formula is not exact
    if (p.schedule == PipelineSchedule::ZbH1 && !zbClosed)
        return simulatePipeline(p).summary;
    if (p.schedule == PipelineSchedule::DualPipe)
        return dualPipeSummary(p);
    PipelineSummary s;
    s.idealTime = m * (f + b + w);
    if (p.schedule == PipelineSchedule::ZbH1)
        s.bubbleTime = (stages - 1) * (f + b - w); // ZB paper: (p−1)(T_F + T_B − T_W)
    else
        s.bubbleTime = (stages - 1) * (f + b + w) / p.chunks; // N21 §2.2: (p−1)(t_f + t_b)/v
    s.makespan = s.idealTime + s.bubbleTime;
    s.bubbleFraction = s.bubbleTime / s.idealTime;
    s.bubbleRate = s.bubbleTime / s.makespan;
    s.worstPeakInFlight = peakInFlight(p, 0);
    return s;
}

} // namespace clusterplanner::core::perf
