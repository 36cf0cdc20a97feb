// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/sched/workloadgenerator.h"

#include "core/sched/tracecsv.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numbers>

namespace clusterplanner::core::sched {

namespace {

/// splitmix64: a small, well-mixed generator whose output is fixed by the algorithm, not the library.
class Random
{
public:
    explicit Random(std::uint64_t seed)
        : m_state(seed)
    { }

    std::uint64_t next()
    {
        std::uint64_t z = (m_state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    /// Uniform in [0, 1).
    double uniform() { return double(next() >> 11) * 0x1.0p-53; }
    double exponential(double rate) { return -std::log1p(-uniform()) / rate; }
    double normal()
    {
        const double u1 = 1.0 - uniform();
        const double u2 = uniform();
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
    }

private:
    std::uint64_t m_state;
};

int pickGpus(const std::vector<std::pair<int, double>>& mix, double u)
{
    double total = 0;
    for (const auto& [gpus, weight] : mix)
        total += std::max(0.0, weight);
    double acc = 0;
    for (const auto& [gpus, weight] : mix) {
        acc += std::max(0.0, weight) / total;
        if (u < acc)
            return gpus;
    }
    return mix.empty() ? 1 : mix.back().first;
}

} // namespace

std::vector<double> readRuntimeSamples(const std::string& path)
{
    std::vector<double> samples;
    std::ifstream in(path);
    std::string line;
    while (in && std::getline(in, line))
        if (auto value = parseNumber(line.substr(0, line.find(','))); value && *value >= 0)
            samples.push_back(*value);
    return samples;
}

Workload generateWorkload(const SyntheticWorkloadSpec& spec)
{
    const std::vector<double> samples
        = spec.runtimeCsvPath.empty() ? std::vector<double> {} : readRuntimeSamples(spec.runtimeCsvPath);
    // Separate streams so that changing one knob (e.g. the mix) does not reshuffle the others.
    Random arrivals(spec.seed * 4 + 1), sizes(spec.seed * 4 + 2), durations(spec.seed * 4 + 3),
        people(spec.seed * 4 + 4);
    const double ratePerS = std::max(1e-12, spec.arrivalsPerHour / 3600.0);
    Workload jobs;
    jobs.reserve(static_cast<std::size_t>(std::max(0, spec.jobs)));
    double clock = 0;
    for (int i = 0; i < spec.jobs; ++i) {
        clock += arrivals.exponential(ratePerS);
        Job job;
        job.id = i;
        job.submitS = clock;
        job.gpus = pickGpus(spec.gpuMix, sizes.uniform());
        const double raw = samples.empty()
            ? std::exp(kPhillyLogMean + kPhillyLogSigma * durations.normal())
            : samples[std::min(samples.size() - 1, static_cast<std::size_t>(durations.uniform() * samples.size()))];
        job.durationS = std::clamp(std::round(raw), spec.minDurationS, spec.maxDurationS);
        job.estimateS = std::ceil(job.durationS * (1.0 + spec.overestimate * durations.uniform()));
        job.user = static_cast<int>(people.next() % static_cast<std::uint64_t>(std::max(1, spec.users)));
        jobs.push_back(job);
    }
    return jobs;
}

} // namespace clusterplanner::core::sched
