// SPDX-License-Identifier: GPL-3.0-or-later
// Parsing JSON text with limits checked first (core/io/inputlimits.h) and located, short messages.
#include "core/io/jsontext.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace clusterplanner::core {

namespace {

/// Longest library explanation kept in a message (it quotes the token it stopped at).
constexpr std::size_t kMaxReasonChars = 120;

bool isNumberChar(char c)
{
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

/// strtod reports overflow as ±HUGE_VAL; the JSON library would throw out_of_range.406 without a position.
bool overflowsDouble(std::string_view token)
{
    const std::string copy(token);
    return std::isinf(std::strtod(copy.c_str(), nullptr));
}

/// One pass over the text, tracking strings so that brackets and digits inside them are ignored.
class Scanner
{
public:
    Scanner(std::string_view text, int maxDepth)
        : m_text(text)
        , m_maxDepth(maxDepth)
    { }

    std::optional<JsonTextProblem> run()
    {
        for (m_pos = 0; m_pos < m_text.size() && !m_problem; ++m_pos)
            m_inString ? stringChar() : structureChar();
        return m_problem;
    }

private:
    void stringChar()
    {
        const char c = m_text[m_pos];
        if (c == '\\')
            ++m_pos;
        else if (c == '"')
            m_inString = false;
    }

    void structureChar()
    {
        const char c = m_text[m_pos];
        if (c == '"')
            m_inString = true;
        else if (c == '[' || c == '{')
            open();
        else if (c == ']' || c == '}')
            m_depth = std::max(0, m_depth - 1);
        else if (c == '-' || (c >= '0' && c <= '9'))
            number();
    }

    void open()
    {
        if (++m_depth > m_maxDepth)
            m_problem = JsonTextProblem {m_pos, "nesting deeper than " + std::to_string(m_maxDepth) + " levels"};
    }

    void number()
    {
        std::size_t end = m_pos;
        while (end < m_text.size() && isNumberChar(m_text[end]))
            ++end;
        const auto token = m_text.substr(m_pos, end - m_pos);
        if (overflowsDouble(token))
            m_problem = JsonTextProblem {m_pos, "number " + excerpt(token) + " is out of range (beyond ±1.8e308)"};
        m_pos = end - 1;
    }

    std::string_view m_text;
    int m_maxDepth;
    std::size_t m_pos = 0;
    int m_depth = 0;
    bool m_inString = false;
    std::optional<JsonTextProblem> m_problem;
};

std::string location(std::string_view text, std::size_t byte)
{
    byte = std::min(byte, text.size());
    const auto head = text.substr(0, byte);
    const auto line = std::count(head.begin(), head.end(), '\n') + 1;
    const auto lineStart = head.find_last_of('\n');
    const auto column = lineStart == std::string_view::npos ? byte + 1 : byte - lineStart;
    return "at byte " + std::to_string(byte) + " (line " + std::to_string(line) + ", column " + std::to_string(column)
        + ")";
}

[[noreturn]] void fail(JsonThrower thrower, const std::string& message)
{
    thrower(message);
    throw std::logic_error("parseJsonText: the thrower returned");
}

/// The part of a parse_error after "parse error at line L, column C: ", which our location replaces.
std::string parseReason(const nlohmann::json::parse_error& error)
{
    const std::string text = jsonErrorText(error);
    const auto column = text.find("column ");
    const auto colon = column == std::string::npos ? std::string::npos : text.find(": ", column);
    return colon == std::string::npos ? text : text.substr(colon + 2);
}

} // namespace

std::optional<JsonTextProblem> scanJsonText(std::string_view text, int maxDepth)
{
    return Scanner(text, maxDepth).run();
}

std::string excerpt(std::string_view text, std::size_t maxChars)
{
    if (text.size() <= maxChars)
        return std::string(text);
    std::size_t cut = maxChars;
    // Back off over UTF-8 continuation bytes (10xxxxxx) so that the excerpt stays valid text.
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
        --cut;
    return std::string(text.substr(0, cut)) + "…";
}

std::string jsonErrorText(const nlohmann::json::exception& error)
{
    std::string_view text = error.what();
    if (const auto bracket = text.find("] "); text.starts_with("[json.exception") && bracket != text.npos)
        text.remove_prefix(bracket + 2);
    return excerpt(text, kMaxReasonChars);
}

nlohmann::json parseJsonText(
    std::string_view text, const std::string& source, JsonThrower thrower, std::size_t maxBytes)
{
    const std::string prefix = source.empty() ? std::string() : source + ": ";
    if (text.size() > maxBytes)
        fail(thrower,
            prefix + "the file has " + std::to_string(text.size()) + " bytes, more than the limit of "
                + std::to_string(maxBytes));
    if (const auto problem = scanJsonText(text))
        fail(thrower, prefix + "not valid JSON " + location(text, problem->byte) + ": " + problem->message);
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& error) {
        const std::size_t byte = error.byte > 0 ? error.byte - 1 : 0;
        // The parser ran past the end: by far the most common cause is a file cut short (a partial copy or save).
        const std::string hint = byte >= text.size() ? "the file is truncated or incomplete: " : "";
        fail(thrower, prefix + "not valid JSON " + location(text, byte) + ": " + hint + parseReason(error));
    } catch (const nlohmann::json::exception& error) {
        fail(thrower, prefix + "not valid JSON: " + jsonErrorText(error));
    }
}

} // namespace clusterplanner::core
