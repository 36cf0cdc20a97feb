// SPDX-License-Identifier: GPL-3.0-or-later
// Parsing JSON text with the limits of core/io/inputlimits.h checked first, and messages that name the source and
// the byte offset without the JSON library's internals.
#pragma once

#include "core/io/inputlimits.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace clusterplanner::core {

/// Must throw the reader's own exception type; it receives the whole message.
using JsonThrower = void (*)(const std::string& message);

/// A problem found in JSON text before or while parsing it.
struct JsonTextProblem
{
    std::size_t byte = 0; ///< 0-based offset of the offending character
    std::string message; ///< e.g. "nesting deeper than 64 levels"
};

/// Checks the raw text in one pass without allocating: nesting depth and numbers beyond double's range (1e400).
/// Returns the first problem, or std::nullopt.
std::optional<JsonTextProblem> scanJsonText(std::string_view text, int maxDepth = limits::kMaxJsonDepth);

/// Parses `text` after checking its size and scanJsonText. Every failure calls `thrower` with
/// "<source>: not valid JSON at byte N (line L, column C): <problem>", the problem free of library internals.
/// An empty source leaves out "<source>: " (for callers that prefix the file name themselves).
nlohmann::json parseJsonText(std::string_view text, const std::string& source, JsonThrower thrower,
    std::size_t maxBytes = limits::kMaxDocumentBytes);

/// At most `maxChars` bytes of `text`, cut at a UTF-8 character boundary, with "…" when cut.
std::string excerpt(std::string_view text, std::size_t maxChars = limits::kMaxExcerptChars);

/// A JSON library message without its "[json.exception.x.n]" prefix, cut to a short excerpt.
std::string jsonErrorText(const nlohmann::json::exception& error);

} // namespace clusterplanner::core
