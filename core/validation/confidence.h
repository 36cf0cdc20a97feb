// SPDX-License-Identifier: GPL-3.0-or-later
// Expected error band of a prediction, from the validated runs of the nearest family (framework × GPU generation ×
// dense/MoE), read from data/confidence.json, which `clusterplanner validate --confidence-table` generates from the
// development set and the external checks (docs/methods-time.md §4.8). Never typed by hand, never fitted.
#pragma once

#include "core/model/scenario.h"
#include "core/validation/validationreport.h"

#include <string>
#include <vector>

namespace clusterplanner::core {

/// How close the validated runs behind a band are to the scenario.
enum class BandMatch {
    Family, ///< same framework, GPU generation and dense/MoE
    Generation, ///< other frameworks on the same GPU generation (dense/MoE alike)
    Framework, ///< the same framework on other GPU generations
    Unvalidated, ///< nothing validated near it: the band pools every run of the same dense/MoE kind
};

struct ConfidenceBand
{
    std::string basis; ///< "throughput" or "peak_memory_gib"
    BandMatch match = BandMatch::Unvalidated;
    std::string family; ///< label of the runs the band comes from
    int runs = 0; ///< 0: nothing at all to go on
    int minGpus = 0, maxGpus = 0;
    double signedMedianPercent = 0; ///< + = predictions of this family run too fast / too high
    double medianAbsPercent = 0;
    double p90AbsPercent = 0;
    bool outsideScale = false; ///< the scenario's GPU count is beyond twice the validated range either way
    /// The scenario's own family when it has too few runs for a band of its own (kMinFamilyRuns) and the band was
    /// widened to its GPU generation: how many runs it has and their signed median. 0 runs: not widened.
    int familyRuns = 0;
    double familySignedMedianPercent = 0;
    /// The scenario's model's own validated runs on its GPU generation, any framework (ModelShape: the same model
    /// under another name counts). The band pools a family, which may not hold this model, or may read it quite
    /// otherwise than its other runs (GPT-OSS-120B beside the Megatron MoE runs); 0 runs: none validated.
    int modelRuns = 0;
    std::vector<std::string> modelNames; ///< as the validated cases name the model, sorted
    std::vector<std::string> modelFrameworks; ///< the frameworks of those runs, sorted
    double modelSignedMedianPercent = 0, modelMinPercent = 0, modelMaxPercent = 0;
    std::string statement; ///< one sentence for a user (two where the model's own runs are named)
};

/// Fewer runs than this and a family's band is widened to every framework on its GPU generation: one or two runs
/// give a median and p90 equal to their own errors, a "±0 %" that says nothing about the next run.
inline constexpr int kMinFamilyRuns = 3;

/// One row of the table: a family's signed errors in percent.
struct ConfidenceEntry
{
    CaseFamily family;
    std::string basis;
    std::vector<double> errorsPercent;
    int minGpus = 0, maxGpus = 0;
};

/// The signed errors of one model's runs on one GPU generation, for one basis, whatever their framework.
struct ModelErrors
{
    ModelShape shape;
    std::vector<std::string> names; ///< what the validated cases call it, sorted
    std::string gpuFamily;
    std::string basis;
    std::vector<std::string> frameworks; ///< those its runs used, sorted
    std::vector<double> errorsPercent;
};

struct ConfidenceTable
{
    /// Implicit from the family rows alone: a table without model rows (tests, and files before version 2).
    ConfidenceTable(std::vector<ConfidenceEntry> familyRows = {}, std::vector<ModelErrors> modelRows = {})
        : families(std::move(familyRows))
        , models(std::move(modelRows))
    { }
    std::vector<ConfidenceEntry> families;
    std::vector<ModelErrors> models;
};

/// The table compiled in from data/confidence.json.
const ConfidenceTable& builtinConfidenceTable();
/// Parses a confidence document; throws std::runtime_error naming the entry and field that are wrong.
ConfidenceTable parseConfidenceTable(const std::string& text);
/// The document written by `validate --confidence-table` from one or more reports (dev set, external checks).
std::string confidenceTableJson(const std::vector<ValidationReport>& reports, const std::string& producedBy);

/// Throughput and peak-memory bands of a scenario (in that order), from the given table; none for a GPU the catalog
/// does not know (nothing is predicted for it).
std::vector<ConfidenceBand> confidenceBands(const Scenario& scenario, const ConfidenceTable& table);
std::vector<ConfidenceBand> confidenceBands(const Scenario& scenario);

const char* toString(BandMatch match);

} // namespace clusterplanner::core
