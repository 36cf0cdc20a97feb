// SPDX-License-Identifier: GPL-3.0-or-later
// The workload of a scenario: a job trace file or a synthetic job stream, as saved in the scenario's optional
// "workload" section (docs/methods-scheduling.md §7 "Workload section").
#pragma once

#include "core/sched/job.h"
#include "core/sched/traces.h"
#include "core/sched/workloadgenerator.h"

#include <nlohmann/json_fwd.hpp>

#include <string>

namespace clusterplanner::core {
class JsonFields;
}

namespace clusterplanner::core::sched {

enum class WorkloadSource { Synthetic, Trace };

struct WorkloadSpec
{
    WorkloadSource source = WorkloadSource::Synthetic;
    /// Trace file; a relative path is read relative to the scenario file's folder first, then the working folder.
    std::string tracePath;
    TraceFormat traceFormat = TraceFormat::Tiresias;
    /// Jobs, seed, Poisson rate, GPU-count mix, users; run times from the Philly lognormal fit.
    SyntheticWorkloadSpec synthetic;
    /// Diurnal pattern: arrival rate λ(t) = λ·(1 + a·cos(2π(t − peak)/1 day)), a in [0, 1]; 0 = constant rate.
    double diurnalAmplitude = 0;
    double diurnalPeakHour = 14; ///< hour of day (from the first arrival) with the most arrivals
    /// Users are split round-robin into this many groups (teams); user u belongs to group u mod groups.
    int groups = 1;
    /// Share of the synthetic 1-GPU jobs made fractional (a quarter or half of one GPU, Alibaba gpu_milli style).
    double fractionalShare = 0;
    bool operator==(const WorkloadSpec&) const;
};

/// "synthetic", "trace".
std::string_view toString(WorkloadSource source);
std::string_view toString(TraceFormat format);

/// Jobs of the spec. Synthetic: generateWorkload, then the diurnal time change and the fractional share, all
/// deterministic for the seed. Trace: readTraceFile (throws TraceFormatError naming the file and row);
/// `scenarioFolder` (may be empty) resolves a relative trace path. clusterGpus > 0 rejects larger trace jobs.
Workload buildWorkload(const WorkloadSpec& spec, int clusterGpus, const std::string& scenarioFolder = {});

/// Moves homogeneous Poisson arrival times onto the diurnal rate by the time-change theorem: t = Λ⁻¹(s) with
/// Λ(t) = ∫₀ᵗ λ(x)/λ dx (docs/methods-scheduling.md §7 "Workload section"). Keeps the order of the jobs.
void applyDiurnalPattern(Workload& jobs, double amplitude, double peakHour);
/// Makes about `share` of the 1-GPU jobs fractional (250 or 500 milli-GPU, memory cap in proportion to 80 GiB).
void applyFractionalShare(Workload& jobs, double share, std::uint64_t seed);

/// "1:0.6, 2:0.1, 8:0.3" (GPUs:weight pairs) and back. parseGpuMix throws std::invalid_argument naming the part
/// that is not a pair of a GPU count in 1..100,000 and a weight ≥ 0, or when no weight is positive.
std::vector<std::pair<int, double>> parseGpuMix(const std::string& text);
std::string formatGpuMix(const std::vector<std::pair<int, double>>& mix);

nlohmann::json workloadSpecToJson(const WorkloadSpec& spec);
/// Reads the section; every failure goes through the reader's thrower with the dotted field path.
WorkloadSpec workloadSpecFromJson(const JsonFields& r);

} // namespace clusterplanner::core::sched
