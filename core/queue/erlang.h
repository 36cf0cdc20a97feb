// SPDX-License-Identifier: GPL-3.0-or-later
// M/M/c queue (Erlang C) computed with the Erlang-B recurrence, plus the inverse staffing problem.
#pragma once

namespace clusterplanner::core::queue {

/// Steady-state figures of an M/M/c queue (docs/methods-queueing.md §6). Times are in the unit of 1/arrivalRate.
/// When the queue is unstable (utilization ≥ 1) pWait is 1 and wq, lq, w, l are +infinity.
struct MmcResult
{
    double arrivalRate = 0; ///< λ, jobs per unit time
    double serviceRate = 0; ///< μ, jobs per unit time per server
    long long servers = 0; ///< c
    double offeredLoad = 0; ///< a = λ/μ, in Erlangs
    double utilization = 0; ///< ρ = a/c
    bool stable = false; ///< ρ < 1; otherwise the queue grows without bound
    double pWait = 0; ///< Erlang C: probability that an arriving job waits
    double wq = 0; ///< mean wait in queue
    double lq = 0; ///< mean number waiting
    double w = 0; ///< mean time in system (wait + service)
    double l = 0; ///< mean number in system
};

/// Erlang B (blocking probability of M/M/c/c) by the recurrence B_k = a·B_{k−1}/(k + a·B_{k−1}), O(c), stable
/// in double for c up to at least 100,000. Throws std::invalid_argument for a ≤ 0 or c < 1.
double erlangB(double offeredLoad, long long servers);

/// Erlang C = B_c/(1 − ρ·(1 − B_c)) for ρ < 1, and 1 for ρ ≥ 1. Throws std::invalid_argument for a ≤ 0 or c < 1.
double erlangC(double offeredLoad, long long servers);

/// Solves M/M/c. Throws std::invalid_argument unless λ > 0, μ > 0 (finite) and c ≥ 1.
MmcResult solveMmc(double arrivalRate, double serviceRate, long long servers);

/// P(Wq > t) = C·e^{−(cμ−λ)t} for t ≥ 0 (1 when unstable). Throws std::invalid_argument for t < 0.
double probabilityWaitExceeds(const MmcResult& queue, double waitTime);

/// Smallest c with P(wait) ≤ target, target in (0, 1). Starts at square-root staffing (Halfin–Whitt) and steps
/// ±1, since C falls monotonically with c. Throws std::invalid_argument for bad rates or target.
long long serversForWaitProbability(double arrivalRate, double serviceRate, double targetPWait);

/// Smallest c with mean queue wait Wq ≤ target (target > 0, same time unit as the rates).
long long serversForMeanWait(double arrivalRate, double serviceRate, double targetWq);

/// Allen–Cunneen G/G/c approximation: Wq ≈ Wq(M/M/c)·(Ca² + Cs²)/2, where Ca², Cs² are the squared coefficients
/// of variation of inter-arrival and service times (1 and 1 give M/M/c back). pWait is kept; wq, lq, w and l are
/// rescaled. Throws std::invalid_argument for negative coefficients.
MmcResult allenCunneen(const MmcResult& queue, double arrivalCv2, double serviceCv2);

} // namespace clusterplanner::core::queue
