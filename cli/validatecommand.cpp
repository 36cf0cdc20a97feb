// SPDX-License-Identifier: GPL-3.0-or-later
// clusterplanner validate --cases FILE --truth FILE [--markdown [--title TEXT]] [--efficiency FILE]: predicted vs
// measured, with error summaries.
#include "cli/arguments.h"
#include "cli/commandlist.h"
#include "cli/efficiencyoption.h"
#include "core/validation/validationreport.h"

#include <ostream>

namespace clusterplanner::cli {

using namespace clusterplanner::core; // commands are thin wrappers over the engine

int runValidate(const Args& args, std::ostream& out, std::ostream&)
{
    Arguments arguments(args);
    const std::string casesPath = arguments.required("--cases");
    const std::string truthPath = arguments.required("--truth");
    const bool markdown = arguments.flag("--markdown");
    const auto titleOption = arguments.value("--title");
    const std::string title = titleOption.value_or("Validation on the development set");
    const auto efficiency = efficiencyOption(arguments);
    arguments.finish();
    const auto cases = readValidationCases(readTextFile(casesPath));
    const auto truths = readValidationTruths(readTextFile(truthPath));
    const ValidationReport report = buildValidationReport(cases, truths, &efficiencyTable(efficiency));
    if (markdown) // the whole docs/validation.md, so that the committed file is exactly this output
        out << "<!-- Produced by: clusterplanner validate --cases " << casesPath << " --truth " << truthPath
            << " --markdown" << (titleOption ? " --title \"" + title + "\"" : std::string()) << " -->\n\n# " << title
            << "\n\n"
            << reportMarkdown(report);
    else
        out << reportJson(report) << "\n";
    return 0;
}

} // namespace clusterplanner::cli
