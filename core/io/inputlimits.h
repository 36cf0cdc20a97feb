// SPDX-License-Identifier: GPL-3.0-or-later
// Every size and range limit on input files, in one place (docs/robustness.md has the same table with reasons).
#pragma once

#include <cstddef>

namespace clusterplanner::core::limits {

// Documents. Checked on the raw text before anything is parsed or allocated.

/// Scenario, case, cluster, efficiency and library files. The largest real one is a few hundred KB (the validation
/// set); 16 MiB leaves room for notes and thousands of cases while keeping a parse well under 200 MB of memory.
inline constexpr std::size_t kMaxDocumentBytes = 16u << 20;
/// A Philly cluster_job_log. The published log is about 100 MB; a DOM of it costs several times that.
inline constexpr std::size_t kMaxTraceJsonBytes = 512u << 20;
/// Nesting of JSON objects and arrays. Our formats use at most 6 levels; every reader, printer and copy of a value
/// recurses once per level, so a deep document (100k levels) would overflow the stack (10k under ASan).
inline constexpr int kMaxJsonDepth = 64;
/// One row of a CSV trace. Real rows are under 1 KB; a longer "row" is a binary or a file without newlines.
inline constexpr std::size_t kMaxCsvRowBytes = 1u << 20;

// Messages.

/// Characters of an offending value shown in a message: enough to recognise it, never a 100 KB echo.
inline constexpr std::size_t kMaxExcerptChars = 40;

// Clusters the simulator builds (cluster files, `simulate --gpus`). Checked before any node is created.

/// GPUs in one node: the largest scale-up domain sold (NVL576) with room to spare.
inline constexpr int kMaxGpusPerNode = 1024;
/// GPUs in one simulated cluster: 2^20, about five times the largest cluster built so far. The simulator keeps
/// per-GPU state, so 10M nodes × 1,024 GPUs would take gigabytes and minutes before failing elsewhere.
inline constexpr long long kMaxClusterGpus = 1'048'576;
/// Nodes in one simulated cluster: 2^18; per-node state and placement scans grow with it.
inline constexpr long long kMaxClusterNodes = 262'144;
/// Node types and node groups in a cluster file: a real cluster has a handful.
inline constexpr std::size_t kMaxNodeTypes = 1024;
inline constexpr std::size_t kMaxNodeGroups = 65'536;
/// GPUs and nodes of a planned cluster (a scenario's topology, a cluster file): the scenario's GPU bound (10M). The
/// simulator accepts only kMaxClusterGpus / kMaxClusterNodes of them, checked when it builds its nodes.
inline constexpr long long kMaxPlannedGpus = 10'000'000;
inline constexpr long long kMaxPlannedNodes = 10'000'000;
/// Switching tiers of a scale-out fabric: real ones have 1 to 3 (leaf, spine, core).
inline constexpr std::size_t kMaxFabricTiers = 8;

// Traces.

/// GPUs one trace job may ask for: a whole simulated cluster. Counts are read as 64-bit and checked before they
/// become int, so 2^31 GPUs is an error rather than −2,147,483,648.
inline constexpr long long kMaxJobGpus = kMaxClusterGpus;
/// Job ids in a Tiresias trace are stored as int.
inline constexpr long long kMaxJobId = 2'147'483'647;

// Validation cases.

/// Cases in one file; the development set has about a hundred.
inline constexpr std::size_t kMaxValidationCases = 100'000;

// Library files.

/// Tags on one scenario, and characters in one tag: a tag is a word or two for filtering a list.
inline constexpr std::size_t kMaxTags = 256;
inline constexpr std::size_t kMaxTagChars = 100;

} // namespace clusterplanner::core::limits
