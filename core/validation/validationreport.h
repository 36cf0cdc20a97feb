// SPDX-License-Identifier: GPL-3.0-or-later
// Predicted vs measured per case and quantity, with median and 90th-percentile absolute errors per quantity.
#pragma once

#include "core/io/validationcase.h"
#include "core/perf/efficiencyparams.h"
#include "core/validation/casefamily.h"

#include <string>
#include <vector>

namespace clusterplanner::core {

struct ValidationRow
{
    std::string id;
    std::string quantity; ///< "peak_memory_gib", "tokens_per_s_per_gpu", ...
    double predicted = 0;
    double measured = 0;
    double errorPercent = 0; ///< 100 · (predicted − measured) / measured
    std::string note; ///< e.g. "reserved" when the truth is a reserved figure
    CaseFamily family; ///< framework × GPU generation × dense/MoE of the case, and its GPU count
};

/// Errors of one family (framework × GPU generation × dense/MoE) for one basis: "throughput" (tokens/s per GPU, or
/// the step time, model TFLOP/s or MFU where the source gives no tokens/s; all expressed as a tokens/s error, +
/// = predicted too fast) or "peak_memory_gib".
struct FamilySummary
{
    CaseFamily family; ///< gpus is unused; see minGpus, maxGpus
    std::string basis;
    std::vector<double> errorsPercent; ///< signed, one per run
    int minGpus = 0, maxGpus = 0;
    double signedMedianPercent() const;
    double medianAbsPercent() const;
    double p90AbsPercent() const;
};

struct QuantitySummary
{
    std::string quantity;
    int count = 0; ///< cases with both a truth and a prediction
    int missing = 0; ///< cases with a truth but no prediction (or a failed case)
    double medianAbsPercent = 0;
    double p90AbsPercent = 0; ///< nearest-rank 90th percentile
};

/// A measured run the memory model says would not fit its GPU. Every validated run ran, so each is a memory
/// error that no measured peak is needed to see (the reserved peak read against what the GPU leaves usable).
struct NotFittingRun
{
    std::string id;
    double peakReservedGiB = 0;
    double usableGiB = 0;
};

struct ValidationReport
{
    std::vector<ValidationRow> rows;
    std::vector<NotFittingRun> notFitting; ///< evaluated cases read as over their GPU's memory, in case order
    int evaluatedCases = 0; ///< cases with a truth that the planner could evaluate
    std::vector<QuantitySummary> summaries; ///< one per quantity, in a fixed order
    std::vector<std::string> failures; ///< "id: error" for cases the planner could not evaluate
};

/// Matches truths to cases by id and compares every quantity both sides have; table = nullptr uses the built-in
/// efficiency parameters.
ValidationReport buildValidationReport(const std::vector<ValidationCase>& cases,
    const std::vector<ValidationTruth>& truths, const perf::EfficiencyTable* table = nullptr);

/// Nearest-rank percentile (q in 0..1) and median of absolute values; 0 for an empty list.
double percentileAbs(std::vector<double> values, double q);
double medianAbs(std::vector<double> values);

/// One error of a validated run: its throughput error (the first of tokens/s, step time, model TFLOP/s, MFU the case
/// has, as a tokens/s error, + = predicted too fast) or its memory error. row points into the report.
struct RunError
{
    const ValidationRow* row = nullptr;
    std::string basis; ///< "throughput" or "peak_memory_gib"
    double errorPercent = 0;
};

/// One throughput error and one memory error per case that has them, in a fixed order.
std::vector<RunError> runErrors(const ValidationReport& report);

/// runErrors grouped by family, families in label order.
std::vector<FamilySummary> familySummaries(const ValidationReport& report);

/// Signed median (the middle value; mean of the two middle ones) of signed values; 0 for an empty list.
double signedMedian(std::vector<double> values);

std::string reportMarkdown(const ValidationReport& report);
std::string reportJson(const ValidationReport& report);

} // namespace clusterplanner::core
