// SPDX-License-Identifier: GPL-3.0-or-later
// Type- and range-checked reading of one JSON object's fields, with messages naming the dotted field path.
#include "core/io/jsonfields.h"

#include "core/io/jsontext.h"

#include <cmath>
#include <stdexcept>

namespace clusterplanner::core {

namespace {

using nlohmann::json;

std::string show(long long value)
{
    return std::to_string(value);
}

std::string show(double value)
{
    return json(value).dump();
}

template <typename T>
void checkRange(const JsonFields& r, const char* key, T value, T min, T max)
{
    if (value < min)
        r.fail(key, "must be at least " + show(min) + " (got " + show(value) + ")");
    if (value > max)
        r.fail(key, "must be at most " + show(max) + " (got " + show(value) + ")");
}

} // namespace

JsonFields::JsonFields(const json& object, std::string path, Thrower thrower)
    : m_object(object)
    , m_path(std::move(path))
    , m_throw(thrower)
{
    if (!m_object.is_object()) {
        m_throw((m_path.empty() ? std::string("document") : m_path) + ": must be an object, got " + describe(m_object));
        throw std::logic_error("JsonFields: the thrower returned");
    }
}

void JsonFields::fail(const std::string& key, const std::string& problem) const
{
    m_throw(path(key) + ": " + problem);
    throw std::logic_error("JsonFields: the thrower returned");
}

const json& JsonFields::field(const char* key) const
{
    auto it = m_object.find(key);
    if (it == m_object.end())
        fail(key, "is missing");
    return *it;
}

int JsonFields::integer(const char* key, long long min, long long max) const
{
    const json& value = field(key);
    if (!value.is_number_integer())
        fail(key, "must be a whole number, got " + describe(value));
    // Above 2^63 the value is held unsigned; get<long long>() would wrap it to a negative number.
    if (value.is_number_unsigned() && value.get<unsigned long long>() > static_cast<unsigned long long>(max))
        fail(key, "must be at most " + show(max) + " (got " + value.dump() + ")");
    const auto number = value.get<long long>();
    checkRange(*this, key, number, min, max);
    return static_cast<int>(number);
}

double JsonFields::number(const char* key, double min, double max) const
{
    const json& value = field(key);
    if (!value.is_number())
        fail(key, "must be a number, got " + describe(value));
    const double number = value.get<double>();
    if (!std::isfinite(number))
        fail(key, "must be finite");
    checkRange(*this, key, number, min, max);
    return number;
}

bool JsonFields::boolean(const char* key) const
{
    const json& value = field(key);
    if (!value.is_boolean())
        fail(key, "must be true or false, got " + describe(value));
    return value.get<bool>();
}

std::string JsonFields::text(const char* key, std::size_t maxLength) const
{
    const json& value = field(key);
    if (!value.is_string())
        fail(key, "must be a string, got " + describe(value));
    auto string = value.get<std::string>();
    if (string.size() > maxLength)
        fail(key, "is longer than " + std::to_string(maxLength) + " characters");
    return string;
}

std::string JsonFields::nonEmptyText(const char* key, std::size_t maxLength) const
{
    auto string = text(key, maxLength);
    if (string.empty())
        fail(key, "must not be empty");
    return string;
}

const json& JsonFields::array(const char* key) const
{
    const json& value = field(key);
    if (!value.is_array())
        fail(key, "must be an array, got " + describe(value));
    return value;
}

JsonFields JsonFields::object(const char* key) const
{
    return JsonFields(field(key), path(key), m_throw);
}

JsonFields JsonFields::nested(const json& value, const std::string& fullPath) const
{
    return JsonFields(value, fullPath, m_throw);
}

std::string JsonFields::describe(const json& value)
{
    // Containers are summarised, never printed: printing recurses per level and may be megabytes long.
    const std::string type = value.type_name();
    if (value.is_object())
        return "object with " + std::to_string(value.size()) + " fields";
    if (value.is_array())
        return "array of " + std::to_string(value.size()) + " elements";
    if (value.is_string())
        return "string " + json(excerpt(value.get_ref<const std::string&>())).dump();
    if (value.is_null()) // its dump is its type name: "null", not "null null"
        return "null";
    return type + " " + value.dump();
}

} // namespace clusterplanner::core
