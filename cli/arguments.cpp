// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/arguments.h"

#include <charconv>
#include <cmath>

namespace clusterplanner::cli {

Arguments::Arguments(std::vector<std::string> args)
    : m_args(std::move(args))
    , m_used(m_args.size(), false)
{ }

bool Arguments::flag(const std::string& name)
{
    bool found = false;
    for (std::size_t i = 0; i < m_args.size(); ++i) {
        if (!m_used[i] && m_args[i] == name) {
            m_used[i] = true;
            found = true;
        }
    }
    return found;
}

std::optional<std::string> Arguments::value(const std::string& name)
{
    const std::string prefix = name + "=";
    for (std::size_t i = 0; i < m_args.size(); ++i) {
        if (m_used[i])
            continue;
        if (m_args[i].rfind(prefix, 0) == 0) {
            m_used[i] = true;
            return m_args[i].substr(prefix.size());
        }
        if (m_args[i] == name) {
            if (i + 1 >= m_args.size())
                throw UsageError(name + " needs a value");
            m_used[i] = m_used[i + 1] = true;
            return m_args[i + 1];
        }
    }
    return std::nullopt;
}

std::string Arguments::required(const std::string& name)
{
    auto text = value(name);
    if (!text)
        throw UsageError("missing required option " + name);
    return *text;
}

std::optional<long long> Arguments::optionalInteger(const std::string& name, long long min, long long max)
{
    auto text = value(name);
    if (!text)
        return std::nullopt;
    long long parsed = 0;
    const auto* end = text->data() + text->size();
    auto [ptr, ec] = std::from_chars(text->data(), end, parsed);
    if (ec != std::errc() || ptr != end)
        throw UsageError(name + ": \"" + *text + "\" is not a whole number");
    if (parsed < min || parsed > max)
        throw UsageError(name + ": " + *text + " is outside " + std::to_string(min) + ".." + std::to_string(max));
    return parsed;
}

long long Arguments::integer(const std::string& name, long long fallback, long long min, long long max)
{
    return optionalInteger(name, min, max).value_or(fallback);
}

std::optional<double> Arguments::optionalNumber(const std::string& name, double min, double max)
{
    auto text = value(name);
    if (!text)
        return std::nullopt;
    std::size_t consumed = 0;
    double parsed = 0;
    try {
        parsed = std::stod(*text, &consumed);
    } catch (const std::exception&) {
        consumed = 0;
    }
    if (consumed != text->size() || !std::isfinite(parsed))
        throw UsageError(name + ": \"" + *text + "\" is not a number");
    if (parsed < min || parsed > max)
        throw UsageError(name + ": " + *text + " is outside " + std::to_string(min) + ".." + std::to_string(max));
    return parsed;
}

double Arguments::number(const std::string& name, double fallback, double min, double max)
{
    return optionalNumber(name, min, max).value_or(fallback);
}

std::vector<std::string> Arguments::positionals()
{
    std::vector<std::string> words;
    for (std::size_t i = 0; i < m_args.size(); ++i) {
        if (!m_used[i] && m_args[i].rfind("--", 0) != 0) {
            m_used[i] = true;
            words.push_back(m_args[i]);
        }
    }
    return words;
}

void Arguments::finish() const
{
    for (std::size_t i = 0; i < m_args.size(); ++i)
        if (!m_used[i])
            throw UsageError("unknown argument \"" + m_args[i] + "\"");
}

} // namespace clusterplanner::cli
