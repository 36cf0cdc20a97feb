// SPDX-License-Identifier: GPL-3.0-or-later
// clusterplanner validate --cases FILE --truth FILE [--markdown [--title TEXT]] [--efficiency FILE]: predicted vs
// measured, with error summaries.
#include "cli/commandline.h"
#include "cli/commandlist.h"
#include "cli/efficiencyoption.h"
#include "core/validation/confidence.h"
#include "core/validation/validationreport.h"

#include <ostream>

namespace clusterplanner::cli {

using namespace clusterplanner::core; // commands are thin wrappers over the engine

int runValidate(const Args& args, std::ostream& out, std::ostream&)
{
    std::string casesPath, truthPath, efficiencyPath;
    std::optional<std::string> titleOption;
    bool markdown = false;
    auto app = makeCommandApp("validate",
        "Predicted vs measured per case and quantity, with median and p90 errors, as JSON or as the whole "
        "docs/validation.md.",
        {"clusterplanner validate --cases data/validation/dev_cases.json --truth data/validation/dev_truth.json "
         "--markdown"});
    app->add_option("--cases", casesPath, "case file (data/validation/dev_cases.json schema)")
        ->required()
        ->type_name("FILE");
    app->add_option("--truth", truthPath, "measured values (data/validation/dev_truth.json schema)")
        ->required()
        ->type_name("FILE");
    app->add_flag("--markdown", markdown, "print the report as Markdown instead of JSON");
    app->add_option("--title", titleOption, "Markdown heading (default: \"Validation on the development set\")");
    app->add_option("--efficiency", efficiencyPath, "efficiency parameters replacing data/efficiency.json")
        ->type_name("FILE");
    bool confidenceTable = false;
    std::string checkCasesPath, checkTruthPath;
    app->add_flag("--confidence-table", confidenceTable,
        "print data/confidence.json instead: the signed errors per family of these cases and of --check-cases");
    app->add_option("--check-cases", checkCasesPath, "with --confidence-table: external-check cases (data/checks)")
        ->type_name("FILE");
    app->add_option("--check-truth", checkTruthPath, "with --confidence-table: their measured values")
        ->type_name("FILE");
    bool schemaKeysOnly = false;
    app->add_flag("--schema-keys-only", schemaKeysOnly,
        "read only the development-set schema's keys (data/validation/README.md) from the cases, as a case written "
        "to that schema states them: compile, async TP and the MoE dispatcher and overlap are then the planner's");
    parseCommand(*app, args, out);
    const CaseKeys keys = schemaKeysOnly ? CaseKeys::DevelopmentSchema : CaseKeys::All;
    if (checkCasesPath.empty() != checkTruthPath.empty())
        throw UsageError("--check-cases and --check-truth go together");
    const std::string title = titleOption.value_or("Validation on the development set");
    const auto efficiency = efficiencyOption(efficiencyPath);
    const auto cases = readCaseFile(casesPath, keys);
    const auto truths = readValidationTruths(readTextFile(truthPath));
    const ValidationReport report = buildValidationReport(cases, truths, &efficiencyTable(efficiency));
    if (confidenceTable) {
        std::vector<ValidationReport> reports {report};
        std::string producedBy = "clusterplanner validate --cases " + casesPath + " --truth " + truthPath
            + (schemaKeysOnly ? " --schema-keys-only" : "");
        if (!checkCasesPath.empty()) {
            reports.push_back(buildValidationReport(readCaseFile(checkCasesPath, keys),
                readValidationTruths(readTextFile(checkTruthPath)), &efficiencyTable(efficiency)));
            producedBy += " --check-cases " + checkCasesPath + " --check-truth " + checkTruthPath;
        }
        out << confidenceTableJson(reports, producedBy + " --confidence-table");
        return 0;
    }
    if (markdown) // the whole docs/validation.md, so that the committed file is exactly this output
        out << "<!-- Produced by: clusterplanner validate --cases " << casesPath << " --truth " << truthPath
            << (schemaKeysOnly ? " --schema-keys-only" : "") << " --markdown"
            << (titleOption ? " --title \"" + title + "\"" : std::string()) << " -->\n\n# " << title << "\n\n"
            << reportMarkdown(report);
    else
        out << reportJson(report) << "\n";
    return 0;
}

} // namespace clusterplanner::cli
