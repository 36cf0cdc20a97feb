// SPDX-License-Identifier: GPL-3.0-or-later
// M/M/c queue (Erlang C) computed with the Erlang-B recurrence, plus the inverse staffing problem.
#include "core/queue/erlang.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>
#include <sstream>
#include <stdexcept>
#include <string>

namespace clusterplanner::core::queue {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
// Staffing searches stop here rather than looping for ever on an unreachable target.
constexpr long long kMaxServers = 10'000'000;

std::string describe(double value)
{
    std::ostringstream text;
    text << value;
    return text.str();
}

void requirePositive(double value, const char* what)
{
    if (!std::isfinite(value) || value <= 0)
        throw std::invalid_argument(
            std::string("M/M/c: ") + what + " must be a finite number > 0 (got " + describe(value) + ")");
}

void requireServers(long long servers)
{
    if (servers < 1)
        throw std::invalid_argument("M/M/c: servers must be at least 1 (got " + std::to_string(servers) + ")");
}

/// Standard normal density and distribution function.
double normalPdf(double z)
{
    return std::exp(-0.5 * z * z) / std::sqrt(2 * std::numbers::pi);
}
double normalCdf(double z)
{
    return 0.5 * std::erfc(-z / std::numbers::sqrt2);
}

/// Halfin–Whitt limit of P(wait) for c = a + z·√a servers: 1/(1 + z·Φ(z)/φ(z)). Decreasing in z.
double halfinWhittPWait(double z)
{
    return 1.0 / (1.0 + z * normalCdf(z) / normalPdf(z));
}

/// Largest z in [0, 40] with f(z) ≥ target for a decreasing f, by bisection (the start point of the search).
double solveDecreasing(const std::function<double(double)>& f, double target)
{
    double low = 0;
    double high = 40; // φ(40) underflows: covers every target a double can express
    for (int i = 0; i < 100; ++i) {
        const double mid = 0.5 * (low + high);
        (f(mid) >= target ? low : high) = mid;
    }
    return low;
}

/// Smallest c ≥ minServers with meets(c), walking ±1 from start; meets must be monotone in c.
long long smallestMeeting(const std::function<bool(long long)>& meets, long long start, long long minServers)
{
    if (minServers > kMaxServers)
        throw std::invalid_argument("M/M/c: offered load needs more than " + std::to_string(kMaxServers) + " servers");
    long long c = std::max(start, minServers);
    if (meets(c)) {
        while (c > minServers && meets(c - 1))
            --c;
        return c;
    }
    while (!meets(++c))
        if (c >= kMaxServers)
            throw std::invalid_argument(
                "M/M/c: target cannot be met with up to " + std::to_string(kMaxServers) + " servers");
    return c;
}

/// Square-root staffing start ⌈a + z·√a⌉ and the least stable c (⌊a⌋ + 1).
long long sqrtStaffing(double offeredLoad, double z)
{
    // Clamped so that huge loads reach the kMaxServers check instead of overflowing.
    return std::llround(std::min(2.0 * kMaxServers, std::ceil(offeredLoad + z * std::sqrt(offeredLoad))));
}
long long leastStable(double offeredLoad)
{
    return static_cast<long long>(std::min(2.0 * kMaxServers, std::floor(offeredLoad))) + 1;
}

} // namespace

double erlangB(double offeredLoad, long long servers)
{
    requirePositive(offeredLoad, "offered load");
    requireServers(servers);
    // docs/methods-queueing.md §6: the a^c/c! sums overflow near c = 170; this recurrence stays in [0, 1].
    double b = 1.0;
    for (long long k = 1; k <= servers; ++k)
        b = offeredLoad * b / (static_cast<double>(k) + offeredLoad * b);
    return b;
}

double erlangC(double offeredLoad, long long servers)
{
    const double b = erlangB(offeredLoad, servers);
    const double rho = offeredLoad / static_cast<double>(servers);
    if (rho >= 1)
        return 1.0;
    return b / (1.0 - rho * (1.0 - b));
}

MmcResult solveMmc(double arrivalRate, double serviceRate, long long servers)
{
    requirePositive(arrivalRate, "arrival rate");
    requirePositive(serviceRate, "service rate");
    requireServers(servers);
    MmcResult r {arrivalRate, serviceRate, servers};
    r.offeredLoad = arrivalRate / serviceRate;
    r.utilization = r.offeredLoad / static_cast<double>(servers);
    r.stable = r.utilization < 1;
    r.pWait = erlangC(r.offeredLoad, servers);
    // Seed S0 multiplies by an extra 1/μ here; that is dimensionally wrong (docs/methods-queueing.md §6).
    r.wq = r.stable ? r.pWait / (static_cast<double>(servers) * serviceRate - arrivalRate) : kInfinity;
    r.lq = arrivalRate * r.wq;
    r.w = r.wq + 1.0 / serviceRate;
    r.l = arrivalRate * r.w;
    return r;
}

double probabilityWaitExceeds(const MmcResult& queue, double waitTime)
{
    if (!(waitTime >= 0))
        throw std::invalid_argument("M/M/c: wait time must be ≥ 0 (got " + describe(waitTime) + ")");
    if (!queue.stable)
        return 1.0;
    const double drain = static_cast<double>(queue.servers) * queue.serviceRate - queue.arrivalRate;
    return queue.pWait * std::exp(-drain * waitTime);
}

long long serversForWaitProbability(double arrivalRate, double serviceRate, double targetPWait)
{
    requirePositive(arrivalRate, "arrival rate");
    requirePositive(serviceRate, "service rate");
    if (!(targetPWait > 0 && targetPWait < 1))
        throw std::invalid_argument("M/M/c: target P(wait) must be in (0, 1) (got " + describe(targetPWait) + ")");
    const double a = arrivalRate / serviceRate;
    const double z = solveDecreasing(halfinWhittPWait, targetPWait);
    return smallestMeeting(
        [&](long long c) { return erlangC(a, c) <= targetPWait; }, sqrtStaffing(a, z), leastStable(a));
}

long long serversForMeanWait(double arrivalRate, double serviceRate, double targetWq)
{
    requirePositive(arrivalRate, "arrival rate");
    requirePositive(serviceRate, "service rate");
    requirePositive(targetWq, "target mean wait");
    const double a = arrivalRate / serviceRate;
    // With c = a + z√a the drain rate cμ − λ is μ·z·√a, so Wq·μ·√a ≈ P_HW(z)/z.
    const double z
        = solveDecreasing([](double x) { return halfinWhittPWait(x) / x; }, targetWq * serviceRate * std::sqrt(a));
    return smallestMeeting([&](long long c) { return solveMmc(arrivalRate, serviceRate, c).wq <= targetWq; },
        sqrtStaffing(a, z), leastStable(a));
}

MmcResult allenCunneen(const MmcResult& queue, double arrivalCv2, double serviceCv2)
{
    if (!(arrivalCv2 >= 0) || !(serviceCv2 >= 0) || !std::isfinite(arrivalCv2) || !std::isfinite(serviceCv2))
        throw std::invalid_argument("Allen–Cunneen: squared coefficients of variation must be finite and ≥ 0");
    if (!queue.stable)
        return queue; // already infinite; avoids ∞·0 when both coefficients are 0
    MmcResult r = queue;
    r.wq = queue.wq * (arrivalCv2 + serviceCv2) / 2;
    r.lq = r.arrivalRate * r.wq;
    r.w = r.wq + 1.0 / r.serviceRate;
    r.l = r.arrivalRate * r.w;
    return r;
}

} // namespace clusterplanner::core::queue
