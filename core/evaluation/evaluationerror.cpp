// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/evaluation/evaluationerror.h"

#include "core/io/scenariojson.h"

#include <nlohmann/json.hpp>

namespace clusterplanner::core {

std::optional<EvaluationError> checkScenarioFields(const Scenario& scenario)
{
    // A round trip through the reader: whatever it rejects could not be opened again either.
    try {
        scenarioFromJson(scenarioToJson(scenario));
        return std::nullopt;
    } catch (const ScenarioFormatError& error) {
        const std::string what = error.what();
        const auto colon = what.find(": ");
        if (colon == std::string::npos)
            return EvaluationError {{}, what};
        return EvaluationError {what.substr(0, colon), what.substr(colon + 2)};
    } catch (const std::exception& error) { // e.g. a name that is not valid UTF-8 for the JSON writer
        return EvaluationError {{}, error.what()};
    }
}

} // namespace clusterplanner::core
