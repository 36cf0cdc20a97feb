// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/evaluation/layoutrefit.h"

#include "core/model/layoutcheck.h"

#include <cmath>
#include <vector>

namespace clusterplanner::core {

namespace {

constexpr int kSearchSteps = 4096; // how far nearestValidGpuCounts looks either way

std::vector<int> divisors(int n)
{
    std::vector<int> result;
    for (int d = 1; d <= n / d; ++d) {
        if (n % d != 0)
            continue;
        result.push_back(d);
        if (d != n / d)
            result.push_back(n / d);
    }
    return result;
}

/// How far a layout is from the original: doublings or halvings of the model-parallel degrees, which decide
/// memory per GPU; DP only follows.
double distance(const ParallelLayout& a, const ParallelLayout& b)
{
    return std::abs(std::log2(double(a.tp) / b.tp)) + std::abs(std::log2(double(a.pp) / b.pp))
        + std::abs(std::log2(double(a.cp) / b.cp));
}

bool isValid(const Scenario& scenario, const ParallelLayout& layout, int gpuCount)
{
    TrainingConfig training = scenario.training;
    training.layout = layout;
    return checkLayout(scenario.model, training, gpuCount) == 0;
}

} // namespace

std::optional<ParallelLayout> nearestValidLayout(const Scenario& scenario, int gpuCount)
{
    const ParallelLayout& current = scenario.training.layout;
    if (gpuCount < 1)
        return std::nullopt;
    if (isValid(scenario, current, gpuCount))
        return current;
    std::optional<ParallelLayout> best;
    double bestDistance = 0;
    for (int tp : divisors(gpuCount)) {
        for (int pp : divisors(gpuCount / tp)) {
            for (int cp : divisors(gpuCount / tp / pp)) {
                ParallelLayout candidate = current;
                candidate.tp = tp;
                candidate.pp = pp;
                candidate.cp = cp;
                candidate.dp = gpuCount / tp / pp / cp;
                // A hybrid shard degree follows DP where it still fits, else the states shard over all of it.
                candidate.dpShard = fittingDpShard(candidate, current.dpShard);
                const double d = distance(candidate, current);
                if ((!best || d < bestDistance) && isValid(scenario, candidate, gpuCount)) {
                    best = candidate;
                    bestDistance = d;
                }
            }
        }
    }
    return best;
}

std::pair<int, int> nearestValidGpuCounts(const Scenario& scenario, int gpuCount)
{
    std::pair<int, int> counts {0, 0};
    for (int n = gpuCount - 1; n >= 1 && n > gpuCount - kSearchSteps && !counts.first; --n)
        if (nearestValidLayout(scenario, n))
            counts.first = n;
    for (int n = gpuCount + 1; n < gpuCount + kSearchSteps && !counts.second; ++n)
        if (nearestValidLayout(scenario, n))
            counts.second = n;
    return counts;
}

} // namespace clusterplanner::core
