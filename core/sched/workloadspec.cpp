// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/sched/workloadspec.h"

#include "core/io/jsonfields.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numbers>
#include <sstream>
#include <stdexcept>

namespace clusterplanner::core::sched {

namespace {

constexpr double kDayS = 86400;
constexpr double kFullGpuMemoryMiB = 80 * 1024; ///< cap of a fractional job scales with an 80 GiB device

/// splitmix64, as in the generator: results do not depend on the standard library.
std::uint64_t mix(std::uint64_t& state)
{
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

double uniform(std::uint64_t& state)
{
    return double(mix(state) >> 11) * 0x1.0p-53;
}

/// Λ(t)/1 for λ(t)/λ = 1 + a·cos(ω(t − p)): t + (a/ω)(sin(ω(t − p)) + sin(ωp)). Increasing for a ≤ 1.
double cumulativeIntensity(double t, double a, double peakS)
{
    const double omega = 2 * std::numbers::pi / kDayS;
    return t + a / omega * (std::sin(omega * (t - peakS)) + std::sin(omega * peakS));
}

/// Λ⁻¹(s) by bisection: Λ(t) lies within t ± 2a/ω, so the root is bracketed by s ± 2a/ω.
double inverseIntensity(double s, double a, double peakS)
{
    const double reach = 2 * a * kDayS / (2 * std::numbers::pi) + 1;
    double lo = std::max(0.0, s - reach);
    double hi = s + reach;
    for (int i = 0; i < 60 && hi - lo > 1e-6; ++i) {
        const double mid = 0.5 * (lo + hi);
        (cumulativeIntensity(mid, a, peakS) < s ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

std::string resolveTracePath(const std::string& path, const std::string& scenarioFolder)
{
    namespace fs = std::filesystem;
    const fs::path p(path);
    if (p.is_relative() && !scenarioFolder.empty()) {
        std::error_code error;
        const fs::path beside = fs::path(scenarioFolder) / p;
        if (fs::exists(beside, error))
            return beside.string();
    }
    return path;
}

WorkloadSource sourceFrom(const JsonFields& r)
{
    const std::string text = r.text("source", 20);
    if (text == "synthetic")
        return WorkloadSource::Synthetic;
    if (text == "trace")
        return WorkloadSource::Trace;
    r.fail("source", "must be \"synthetic\" or \"trace\" (got \"" + text + "\")");
}

std::vector<std::pair<int, double>> gpuMixFrom(const JsonFields& r)
{
    const nlohmann::json& array = r.array("gpu_mix");
    if (array.empty() || array.size() > 64)
        r.fail("gpu_mix", "must list 1 to 64 [gpus, weight] pairs");
    std::vector<std::pair<int, double>> mix;
    double total = 0;
    for (std::size_t i = 0; i < array.size(); ++i) {
        const std::string path = r.path("gpu_mix") + "[" + std::to_string(i) + "]";
        const JsonFields entry = r.nested(array[i], path);
        mix.emplace_back(entry.integer("gpus", 1, 100'000), entry.number("weight", 0, 1e9));
        total += mix.back().second;
    }
    if (total <= 0)
        r.fail("gpu_mix", "needs at least one positive weight");
    return mix;
}

SyntheticWorkloadSpec syntheticFrom(const JsonFields& r)
{
    SyntheticWorkloadSpec s;
    s.jobs = r.integer("jobs", 1, 10'000'000);
    s.seed = static_cast<std::uint64_t>(r.integer("seed", 0, 2'000'000'000));
    s.arrivalsPerHour = r.number("arrivals_per_hour", 1e-6, 1e9);
    s.users = r.integer("users", 1, 1'000'000);
    s.gpuMix = gpuMixFrom(r);
    return s;
}

} // namespace

bool WorkloadSpec::operator==(const WorkloadSpec& o) const
{
    const auto& a = synthetic;
    const auto& b = o.synthetic;
    const bool sameSynthetic = a.jobs == b.jobs && a.seed == b.seed && a.arrivalsPerHour == b.arrivalsPerHour
        && a.gpuMix == b.gpuMix && a.users == b.users && a.runtimeCsvPath == b.runtimeCsvPath
        && a.minDurationS == b.minDurationS && a.maxDurationS == b.maxDurationS && a.overestimate == b.overestimate;
    return source == o.source && tracePath == o.tracePath && traceFormat == o.traceFormat && sameSynthetic
        && diurnalAmplitude == o.diurnalAmplitude && diurnalPeakHour == o.diurnalPeakHour && groups == o.groups
        && fractionalShare == o.fractionalShare;
}

std::string_view toString(WorkloadSource source)
{
    return source == WorkloadSource::Trace ? "trace" : "synthetic";
}

std::string_view toString(TraceFormat format)
{
    switch (format) {
    case TraceFormat::Tiresias:
        return "tiresias";
    case TraceFormat::Philly:
        return "philly";
    case TraceFormat::Pai:
        return "pai";
    case TraceFormat::Helios:
        return "helios";
    }
    return "tiresias";
}

void applyDiurnalPattern(Workload& jobs, double amplitude, double peakHour)
{
    const double a = std::clamp(amplitude, 0.0, 1.0);
    if (a == 0)
        return;
    for (Job& job : jobs)
        job.submitS = inverseIntensity(job.submitS, a, peakHour * 3600);
}

void applyFractionalShare(Workload& jobs, double share, std::uint64_t seed)
{
    if (share <= 0)
        return;
    std::uint64_t state = seed ^ 0x66726163ULL; // a stream of its own, apart from the generator's
    for (Job& job : jobs) {
        if (job.gpus != 1)
            continue;
        const double u = uniform(state);
        const int milli = uniform(state) < 0.5 ? 250 : 500;
        if (u >= share)
            continue;
        job.gpus = 0;
        job.gpuMilli = milli;
        job.gpuMemoryMiB = kFullGpuMemoryMiB * milli / 1000.0;
    }
}

Workload buildWorkload(const WorkloadSpec& spec, int clusterGpus, const std::string& scenarioFolder)
{
    if (spec.source == WorkloadSource::Trace) {
        if (spec.tracePath.empty())
            throw TraceFormatError("workload: no trace file chosen");
        return readTraceFile(resolveTracePath(spec.tracePath, scenarioFolder), spec.traceFormat, clusterGpus);
    }
    Workload jobs = generateWorkload(spec.synthetic);
    applyDiurnalPattern(jobs, spec.diurnalAmplitude, spec.diurnalPeakHour);
    applyFractionalShare(jobs, spec.fractionalShare, spec.synthetic.seed);
    return jobs;
}

std::vector<std::pair<int, double>> parseGpuMix(const std::string& text)
{
    std::vector<std::pair<int, double>> mix;
    double total = 0;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find(',', start), text.size());
        const std::string part = text.substr(start, end - start);
        start = end + 1;
        if (part.find_first_not_of(" \t") == std::string::npos)
            continue;
        int gpus = 0;
        double weight = -1;
        char colon = 0;
        std::istringstream in(part);
        if (!(in >> gpus >> colon >> weight) || colon != ':' || gpus < 1 || gpus > 100'000 || !(weight >= 0)
            || !std::isfinite(weight) || !(in >> std::ws).eof())
            throw std::invalid_argument("GPU mix: \"" + part + "\" is not GPUs:weight (e.g. 8:0.15)");
        mix.emplace_back(gpus, weight);
        total += weight;
    }
    if (total <= 0)
        throw std::invalid_argument("GPU mix: needs at least one GPUs:weight pair with a positive weight");
    return mix;
}

std::string formatGpuMix(const std::vector<std::pair<int, double>>& mix)
{
    std::ostringstream out;
    for (std::size_t i = 0; i < mix.size(); ++i)
        out << (i ? ", " : "") << mix[i].first << ':' << mix[i].second;
    return out.str();
}

nlohmann::json workloadSpecToJson(const WorkloadSpec& spec)
{
    using nlohmann::json;
    json mix = json::array();
    for (const auto& [gpus, weight] : spec.synthetic.gpuMix)
        mix.push_back({{"gpus", gpus}, {"weight", weight}});
    const auto& s = spec.synthetic;
    return {{"source", toString(spec.source)},
        {"trace", {{"path", spec.tracePath}, {"format", toString(spec.traceFormat)}}},
        {"synthetic",
            {{"jobs", s.jobs}, {"seed", s.seed}, {"arrivals_per_hour", s.arrivalsPerHour}, {"users", s.users},
                {"gpu_mix", mix}, {"diurnal_amplitude", spec.diurnalAmplitude},
                {"diurnal_peak_hour", spec.diurnalPeakHour}, {"groups", spec.groups},
                {"fractional_share", spec.fractionalShare}}}};
}

WorkloadSpec workloadSpecFromJson(const JsonFields& r)
{
    WorkloadSpec spec;
    spec.source = sourceFrom(r);
    const JsonFields trace = r.object("trace");
    spec.tracePath = trace.text("path", 4096);
    const std::string format = trace.text("format", 20);
    const auto parsed = traceFormatFromString(format);
    if (!parsed)
        trace.fail("format", "must be tiresias, philly, pai or helios (got \"" + format + "\")");
    spec.traceFormat = *parsed;
    if (spec.source == WorkloadSource::Trace && spec.tracePath.empty())
        trace.fail("path", "is empty, but the workload source is \"trace\"");
    const JsonFields synthetic = r.object("synthetic");
    spec.synthetic = syntheticFrom(synthetic);
    spec.diurnalAmplitude = synthetic.number("diurnal_amplitude", 0, 1);
    spec.diurnalPeakHour = synthetic.number("diurnal_peak_hour", 0, 24);
    spec.groups = synthetic.integer("groups", 1, spec.synthetic.users);
    spec.fractionalShare = synthetic.number("fractional_share", 0, 1);
    return spec;
}

} // namespace clusterplanner::core::sched
