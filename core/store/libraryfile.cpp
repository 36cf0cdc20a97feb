// SPDX-License-Identifier: GPL-3.0-or-later
// Reading and writing scenario files with library tags, and finding them in a folder.
#include "core/store/libraryfile.h"

#include "core/io/inputlimits.h"
#include "core/io/scenariojson.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace clusterplanner::core {

namespace fs = std::filesystem;

namespace {

constexpr const char* kExtension = ".cplan.json";

std::vector<std::string> readTags(const nlohmann::json& document)
{
    const auto it = document.find("tags");
    if (it == document.end() || it->is_null())
        return {};
    if (!it->is_array())
        throw ScenarioFormatError("tags: must be an array of strings");
    if (it->size() > limits::kMaxTags)
        throw ScenarioFormatError("tags: more than " + std::to_string(limits::kMaxTags) + " tags");
    std::vector<std::string> tags;
    for (std::size_t i = 0; i < it->size(); ++i) {
        if (!(*it)[i].is_string())
            throw ScenarioFormatError("tags[" + std::to_string(i) + "]: must be a string");
        if ((*it)[i].get_ref<const std::string&>().size() > limits::kMaxTagChars)
            throw ScenarioFormatError(
                "tags[" + std::to_string(i) + "]: longer than " + std::to_string(limits::kMaxTagChars) + " characters");
        tags.push_back((*it)[i].get<std::string>());
    }
    return normalizedTags(std::move(tags));
}

std::string trimmed(const std::string& text)
{
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos)
        return {};
    return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

} // namespace

std::string writeLibraryFile(const Scenario& scenario, const std::vector<std::string>& tags)
{
    const nlohmann::json file = {{"format", kScenarioFormatName}, {"version", kScenarioFormatVersion},
        {"tags", normalizedTags(tags)}, {"scenario", scenarioToJson(scenario)}};
    return file.dump(2) + "\n";
}

LibraryFile readLibraryFile(const std::string& text)
{
    LibraryFile file;
    file.scenario = readScenarioFile(text); // validates JSON, header and every field first
    file.tags = readTags(nlohmann::json::parse(text));
    return file;
}

LibraryFile loadLibraryFile(const std::string& path)
{
    std::ifstream stream(path, std::ios::binary);
    if (!stream)
        throw std::runtime_error(path + ": cannot be read (missing or no permission)");
    std::error_code sizeError;
    if (const auto bytes = fs::file_size(path, sizeError); !sizeError && bytes > limits::kMaxDocumentBytes)
        throw ScenarioFormatError(path + ": the file has " + std::to_string(bytes) + " bytes, more than the limit of "
            + std::to_string(limits::kMaxDocumentBytes));
    std::ostringstream text;
    text << stream.rdbuf();
    try {
        return readLibraryFile(text.str());
    } catch (const ScenarioFormatError& error) {
        throw ScenarioFormatError(path + ": " + error.what());
    }
}

void saveLibraryFile(const std::string& path, const Scenario& scenario, const std::vector<std::string>& tags)
{
    const std::string temporary = path + ".part";
    {
        std::ofstream stream(temporary, std::ios::binary | std::ios::trunc);
        stream << writeLibraryFile(scenario, tags);
        stream.close();
        if (!stream)
            throw std::runtime_error(path + ": cannot be written (no space or no permission)");
    }
    std::error_code error;
    fs::rename(temporary, path, error);
    if (error) {
        fs::remove(temporary, error);
        throw std::runtime_error(path + ": cannot be written (" + error.message() + ")");
    }
}

std::vector<std::string> scenarioFilesIn(const std::string& directory)
{
    std::vector<std::string> files;
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(directory, error)) {
        const std::string name = entry.path().filename().string();
        if (entry.is_regular_file() && name.size() > std::string_view(kExtension).size() && name.ends_with(kExtension))
            files.push_back(entry.path().string());
    }
    std::sort(files.begin(), files.end());
    return files;
}

std::vector<std::string> normalizedTags(std::vector<std::string> tags)
{
    for (auto& tag : tags)
        tag = trimmed(tag);
    std::erase_if(tags, [](const std::string& tag) { return tag.empty(); });
    std::sort(tags.begin(), tags.end());
    tags.erase(std::unique(tags.begin(), tags.end()), tags.end());
    return tags;
}

std::string fileSlug(const std::string& name)
{
    std::string slug;
    for (unsigned char c : name) {
        if (std::isalnum(c) && c < 128)
            slug += static_cast<char>(std::tolower(c));
        else if (!slug.empty() && slug.back() != '-')
            slug += '-';
        if (slug.size() >= 60)
            break;
    }
    while (!slug.empty() && slug.back() == '-')
        slug.pop_back();
    return slug.empty() ? "scenario" : slug;
}

} // namespace clusterplanner::core
