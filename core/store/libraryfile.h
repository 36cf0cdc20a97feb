// SPDX-License-Identifier: GPL-3.0-or-later
// Scenario files as the library imports and exports them: the *.cplan.json format plus optional "tags".
#pragma once

#include "core/model/scenario.h"

#include <string>
#include <vector>

namespace clusterplanner::core {

/// A scenario file's content. The header may carry "tags": ["..."]; readers of the plain scenario format ignore it.
struct LibraryFile
{
    Scenario scenario;
    std::vector<std::string> tags;
};

std::string writeLibraryFile(const Scenario& scenario, const std::vector<std::string>& tags);
/// Throws ScenarioFormatError naming the field (same checks as readScenarioFile, plus "tags").
LibraryFile readLibraryFile(const std::string& text);

/// Reads a file from disk; errors (ScenarioFormatError, std::runtime_error) start with the path.
LibraryFile loadLibraryFile(const std::string& path);
/// Writes through a temporary file and a rename, so a crash never leaves a half-written file behind.
void saveLibraryFile(const std::string& path, const Scenario& scenario, const std::vector<std::string>& tags);

/// The *.cplan.json files directly in a folder, sorted by name; empty when the folder does not exist.
std::vector<std::string> scenarioFilesIn(const std::string& directory);

/// Tags trimmed of surrounding white space, without empty ones and duplicates, sorted.
std::vector<std::string> normalizedTags(std::vector<std::string> tags);

/// A file-name-safe form of a scenario name: letters, digits and '-' only, at most 60 characters.
std::string fileSlug(const std::string& name);

} // namespace clusterplanner::core
