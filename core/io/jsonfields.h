// SPDX-License-Identifier: GPL-3.0-or-later
// Type- and range-checked reading of one JSON object's fields, with messages naming the dotted field path.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace clusterplanner::core {

/// Reads the fields of one JSON object. Every failure calls the thrower with "path.key: problem", so each file
/// format keeps its own exception type (ScenarioFormatError, ClusterFormatError).
class JsonFields
{
public:
    /// Must throw; it receives the whole message.
    using Thrower = void (*)(const std::string& message);

    /// Fails with "<path>: must be an object" when `object` is not one. `object` must outlive the reader.
    JsonFields(const nlohmann::json& object, std::string path, Thrower thrower);
    /// Keeps a reference to the object: a temporary would dangle.
    JsonFields(nlohmann::json&&, std::string, Thrower) = delete;

    /// The field itself; fails with "is missing".
    const nlohmann::json& field(const char* key) const;
    int integer(const char* key, long long min, long long max) const; ///< whole number in [min, max]
    double number(const char* key, double min, double max) const; ///< finite number in [min, max]
    bool boolean(const char* key) const;
    std::string text(const char* key, std::size_t maxLength) const;
    std::string nonEmptyText(const char* key, std::size_t maxLength) const;
    const nlohmann::json& array(const char* key) const;
    /// The reader of a nested object, its path extended by key.
    JsonFields object(const char* key) const;
    /// The reader of an arbitrary value (e.g. an array element) under the given full path.
    JsonFields nested(const nlohmann::json& value, const std::string& path) const;

    bool isNull(const char* key) const { return field(key).is_null(); }
    bool has(const char* key) const { return m_object.contains(key); }
    /// "path.key", or key alone at the root.
    std::string path(const std::string& key) const { return m_path.empty() ? key : m_path + "." + key; }
    [[noreturn]] void fail(const std::string& key, const std::string& problem) const;

    /// "type value" for messages: scalars shown (strings cut at limits::kMaxExcerptChars), containers summarised
    /// by their size without recursing into them.
    static std::string describe(const nlohmann::json& value);

private:
    const nlohmann::json& m_object;
    std::string m_path;
    Thrower m_throw;
};

} // namespace clusterplanner::core
