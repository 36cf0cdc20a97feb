// SPDX-License-Identifier: GPL-3.0-or-later
// Pipeline schedules: per-rank op orders (Megatron schedules.py order for 1F1B and interleaved, the ZB-H1 order
// of Qi et al. 2024) replayed against their data dependencies.
#include "core/perf/pipeline.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace clusterplanner::core::perf {

namespace {

struct OrderedOp
{
    PipelineOpKind kind;
    int chunk;
    int microBatch;
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
        order.push_back({PipelineOpKind::Backward, 0, backwards++});
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

StageOrder stageOrder(const PipelineParams& p, int stage)
{
    switch (p.schedule) {
    case PipelineSchedule::GPipe:
        return gpipeOrder(p);
    case PipelineSchedule::ZbH1:
        return zbH1Order(p, stage);
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
        , m_splitW(p.schedule == PipelineSchedule::ZbH1)
        , m_virtualStages(p.stages * p.chunks)
        , m_done(m_virtualStages, p.microBatches)
    { }

    PipelineTimeline run()
    {
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
    double duration(PipelineOpKind kind) const
    {
        const double v = m_p.chunks;
        if (kind == PipelineOpKind::Forward)
            return m_p.forward / v;
        if (kind == PipelineOpKind::WeightGrad)
            return m_p.weightGrad / v;
        return (m_splitW ? m_p.backward : m_p.backward + m_p.weightGrad) / v;
    }

    /// Finish time of the op this one waits for, or a negative value when that op has not run yet.
    double dependency(const OrderedOp& op, int vs)
    {
        if (op.kind == PipelineOpKind::Forward)
            return vs == 0 ? 0.0 : m_done.f(vs - 1, op.microBatch);
        if (op.kind == PipelineOpKind::WeightGrad)
            return m_done.b(vs, op.microBatch);
        return vs == m_virtualStages - 1 ? m_done.f(vs, op.microBatch) : m_done.b(vs + 1, op.microBatch);
    }

    bool advanceStage(
        int s, const StageOrder& order, std::size_t& next, double& free, double& inFlight, PipelineTimeline& timeline)
    {
        bool progress = false;
        while (next < order.size()) {
            const OrderedOp& op = order[next];
            const int vs = op.chunk * m_p.stages + s;
            const double ready = dependency(op, vs);
            if (ready < 0)
                break;
            const double start = std::max(free, ready);
            free = start + duration(op.kind);
            if (op.kind == PipelineOpKind::Forward)
                m_done.f(vs, op.microBatch) = free;
            else if (op.kind == PipelineOpKind::Backward)
                m_done.b(vs, op.microBatch) = free;
            trackInFlight(op.kind, inFlight, timeline.peakInFlight[s]);
            timeline.ops.push_back({s, op.chunk, op.microBatch, op.kind, start, free});
            ++next;
            progress = true;
        }
        return progress;
    }

    void trackInFlight(PipelineOpKind kind, double& inFlight, double& peak) const
    {
        const double unit = 1.0 / m_p.chunks;
        if (kind == PipelineOpKind::Forward)
            inFlight += unit;
        else if (kind == (m_splitW ? PipelineOpKind::WeightGrad : PipelineOpKind::Backward))
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
    bool m_splitW;
    int m_virtualStages;
    DoneTimes m_done;
};

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
        && (p.schedule != PipelineSchedule::Interleaved || p.microBatches % p.stages == 0) && p.forward > 0
        && p.backward > 0 && p.weightGrad >= 0 && std::isfinite(p.forward) && std::isfinite(p.backward)
        && std::isfinite(p.weightGrad);
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
    case PipelineSchedule::OneFOneB:
    case PipelineSchedule::Interleaved:
        break;
    }
    const int total = m * p.chunks;
    return double(std::min(warmupCount(p, stage) + 1, total)) / p.chunks;
}

PipelineSummary pipelineSummary(const PipelineParams& p)
{
    validatePipeline(p);
    const double f = p.forward, b = p.backward, w = p.weightGrad;
    const int m = p.microBatches, stages = p.stages;
    const bool zbClosed = m >= stages && w <= f && w <= b; // outside this the ZB-H1 formula is not exact
    if (p.schedule == PipelineSchedule::ZbH1 && !zbClosed)
        return simulatePipeline(p).summary;
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
