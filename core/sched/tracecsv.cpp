// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/sched/tracecsv.h"

#include "core/io/jsontext.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace clusterplanner::core::sched {

namespace {

std::vector<std::string> splitCsvLine(const std::string& line)
{
    std::vector<std::string> cells(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
            cells.back() += '"';
            ++i;
        } else if (c == '"') {
            quoted = !quoted;
        } else if (c == ',' && !quoted) {
            cells.emplace_back();
        } else if (c != '\r' || quoted) {
            cells.back() += c;
        }
    }
    for (auto& cell : cells) {
        const auto first = cell.find_first_not_of(" \t");
        const auto last = cell.find_last_not_of(" \t");
        cell = first == std::string::npos ? std::string() : cell.substr(first, last - first + 1);
    }
    return cells;
}

enum class LineRead { Line, End, TooLong };

/// std::getline with a length limit: a file without newlines must not be read into memory whole.
LineRead readLine(std::istream& in, std::string& line)
{
    line.clear();
    std::streambuf* buffer = in.rdbuf();
    for (int c = buffer->sbumpc(); c != std::char_traits<char>::eof(); c = buffer->sbumpc()) {
        if (c == '\n')
            return LineRead::Line;
        if (line.size() >= limits::kMaxCsvRowBytes)
            return LineRead::TooLong;
        line += static_cast<char>(c);
    }
    return line.empty() ? LineRead::End : LineRead::Line;
}

long long daysFromCivil(long long y, unsigned m, unsigned d)
{
    // Howard Hinnant's days_from_civil: days since 1970-01-01 in the proleptic Gregorian calendar.
    y -= m <= 2;
    const long long era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<long long>(doe) - 719468;
}

} // namespace

std::optional<double> parseNumber(const std::string& text)
{
    if (text.empty())
        return std::nullopt;
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || !std::isfinite(value))
        return std::nullopt;
    return value;
}

std::optional<double> parseDateTime(const std::string& text)
{
    int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
    char sep = 0;
    if (std::sscanf(text.c_str(), "%4d-%2d-%2d%c%2d:%2d:%2d", &y, &mo, &d, &sep, &h, &mi, &s) != 7
        || (sep != ' ' && sep != 'T') || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60)
        return std::nullopt;
    return double(daysFromCivil(y, unsigned(mo), unsigned(d))) * 86400.0 + h * 3600.0 + mi * 60.0 + s;
}

CsvReader::CsvReader(std::istream& in, std::string source, std::vector<std::string> headerlessColumns)
    : m_in(in)
    , m_source(std::move(source))
    , m_columns(std::move(headerlessColumns))
{
    if (!m_columns.empty())
        return;
    std::string line;
    while (m_columns.empty() && nextLine(line)) {
        if (line.find_first_not_of(" \t\r") != std::string::npos)
            m_columns = splitCsvLine(line);
    }
    if (m_columns.empty())
        throw TraceFormatError(m_source + ": the file is empty (expected a header row)");
}

bool CsvReader::hasColumn(const std::string& name) const
{
    return std::find(m_columns.begin(), m_columns.end(), name) != m_columns.end();
}

void CsvReader::require(const std::vector<std::string>& columns) const
{
    for (const auto& column : columns)
        if (!hasColumn(column))
            throw TraceFormatError(m_source + ": row 1 (the header) has no column \"" + column + "\"");
}

bool CsvReader::next()
{
    std::string line;
    while (nextLine(line)) {
        if (line.find_first_not_of(" \t\r") == std::string::npos)
            continue;
        m_cells = splitCsvLine(line);
        if (m_cells.size() < m_columns.size())
            throw TraceFormatError(m_source + ": row " + std::to_string(m_row) + " has "
                + std::to_string(m_cells.size()) + " columns, expected " + std::to_string(m_columns.size()));
        return true;
    }
    return false;
}

bool CsvReader::nextLine(std::string& line)
{
    const LineRead read = readLine(m_in, line);
    if (read == LineRead::End)
        return false;
    ++m_row;
    if (read == LineRead::TooLong)
        throw TraceFormatError(m_source + ": row " + std::to_string(m_row) + " is longer than "
            + std::to_string(limits::kMaxCsvRowBytes) + " bytes (not a CSV trace?)");
    return true;
}

std::size_t CsvReader::index(const std::string& column) const
{
    return static_cast<std::size_t>(std::find(m_columns.begin(), m_columns.end(), column) - m_columns.begin());
}

std::string CsvReader::text(const std::string& column) const
{
    const std::size_t i = index(column);
    return i < m_cells.size() ? m_cells[i] : std::string();
}

void CsvReader::fail(const std::string& column, const std::string& problem) const
{
    throw TraceFormatError(m_source + ": row " + std::to_string(m_row) + ", column " + column + ": " + problem);
}

double CsvReader::number(const std::string& column) const
{
    const std::string cell = text(column);
    const auto value = parseNumber(cell);
    if (!value)
        fail(column, cell.empty() ? "is empty" : "\"" + excerpt(cell) + "\" is not a number");
    return *value;
}

double CsvReader::nonNegative(const std::string& column) const
{
    const double value = number(column);
    if (value < 0)
        fail(column, "must not be negative (got " + excerpt(text(column)) + ")");
    return value;
}

long long CsvReader::wholeNumber(const std::string& column, long long min, long long max) const
{
    const double value = number(column);
    if (value != std::floor(value))
        fail(column, "must be a whole number (got " + excerpt(text(column)) + ")");
    if (value < static_cast<double>(min))
        fail(column, "must be at least " + std::to_string(min) + " (got " + excerpt(text(column)) + ")");
    if (value > static_cast<double>(max))
        fail(column, "is more than the limit of " + std::to_string(max) + " (got " + excerpt(text(column)) + ")");
    return static_cast<long long>(value);
}

double CsvReader::time(const std::string& column) const
{
    const std::string cell = text(column);
    if (auto dateTime = parseDateTime(cell))
        return *dateTime;
    return nonNegative(column);
}

} // namespace clusterplanner::core::sched
