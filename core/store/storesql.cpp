// SPDX-License-Identifier: GPL-3.0-or-later
// Conversions between the store's rows and values.
#include "core/store/storesql.h"

#include "core/io/scenariojson.h"

namespace clusterplanner::core::storesql {

std::string listSql()
{
    return "SELECT s.id, s.name, s.tags, s.notes, s.gpu_id, s.gpu_count, s.created, s.modified, "
           "r.gpu_count, r.tokens_per_s, r.cost_usd, r.mfu, r.step_time_s "
           "FROM scenarios s LEFT JOIN results r ON r.scenario_id = s.id "
           "WHERE EXISTS (SELECT 1 FROM trash t WHERE t.scenario_id = s.id) = ?1 "
           "AND (?2 = '' OR s.name LIKE ?2 ESCAPE '\\' OR s.tags LIKE ?2 ESCAPE '\\' OR s.notes LIKE ?2 ESCAPE '\\')";
}

std::string likePattern(const std::string& search)
{
    if (search.empty())
        return {};
    std::string pattern = "%";
    for (char c : search) {
        if (c == '%' || c == '_' || c == '\\')
            pattern += '\\';
        pattern += c;
    }
    return pattern + "%";
}

std::string tagsToText(const std::vector<std::string>& tags)
{
    try {
        return nlohmann::json(tags).dump();
    } catch (const nlohmann::json::exception&) {
        throw StoreError(StoreProblem::InvalidScenario, "a tag is not valid UTF-8 text");
    }
}

std::vector<std::string> tagsFromText(const std::string& text)
{
    // Fast path for what tagsToText writes without escapes, ["a","b"]: the list reads this for every row.
    if (text.size() >= 2 && text.front() == '[' && text.back() == ']' && text.find('\\') == std::string::npos) {
        std::vector<std::string> tags;
        std::size_t pos = 1;
        while (pos + 1 < text.size() && text[pos] == '"') {
            const std::size_t end = text.find('"', pos + 1);
            tags.push_back(text.substr(pos + 1, end - pos - 1));
            pos = end + 1;
            if (text[pos] == ',')
                ++pos;
        }
        if (pos + 1 == text.size())
            return tags;
    }
    const auto json = nlohmann::json::parse(text, nullptr, false);
    std::vector<std::string> tags;
    if (json.is_array())
        for (const auto& tag : json)
            if (tag.is_string())
                tags.push_back(tag.get<std::string>());
    return tags;
}

Scenario scenarioFromText(const std::string& text, ScenarioId id)
{
    try {
        return scenarioFromJson(nlohmann::json::parse(text));
    } catch (const std::exception& error) {
        throw StoreError(StoreProblem::Corrupt,
            "scenario " + std::to_string(id) + " in the library cannot be read (" + error.what() + ")");
    }
}

std::string scenarioToText(const Scenario& scenario)
{
    const auto json = scenarioToJson(scenario);
    try {
        scenarioFromJson(json);
        return json.dump();
    } catch (const ScenarioFormatError& error) {
        throw StoreError(StoreProblem::InvalidScenario, std::string("the scenario is not valid: ") + error.what());
    } catch (const nlohmann::json::exception&) {
        throw StoreError(StoreProblem::InvalidScenario, "the scenario's name or notes are not valid UTF-8 text");
    }
}

nlohmann::json detailFromText(const std::string& text)
{
    auto json = nlohmann::json::parse(text, nullptr, false);
    return json.is_discarded() ? nlohmann::json::object() : json;
}

ResultFigures figuresAt(const Statement& statement, int firstColumn)
{
    return {static_cast<int>(statement.integer(firstColumn)), statement.real(firstColumn + 1),
        statement.real(firstColumn + 2), statement.real(firstColumn + 3), statement.real(firstColumn + 4)};
}

StoreError notFound(ScenarioId id)
{
    return StoreError(StoreProblem::NotFound, "there is no scenario with id " + std::to_string(id) + " in the library");
}

} // namespace clusterplanner::core::storesql
