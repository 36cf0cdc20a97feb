// SPDX-License-Identifier: GPL-3.0-or-later
// A small CSV reader for trace files: quoted fields, rows numbered from 1 as in a spreadsheet, typed cells that
// throw TraceFormatError naming the row and column.
#pragma once

#include "core/sched/traces.h"

#include <istream>
#include <optional>
#include <string>
#include <vector>

namespace clusterplanner::core::sched {

class CsvReader
{
public:
    /// `source` names the file in messages. With a header, columns are looked up by name; without, by the names
    /// given here in order (headerless published tables such as PAI v2020).
    CsvReader(std::istream& in, std::string source, std::vector<std::string> headerlessColumns = {});

    /// Throws TraceFormatError when a column is missing from the header.
    void require(const std::vector<std::string>& columns) const;
    bool hasColumn(const std::string& name) const;
    /// Moves to the next non-empty row; false at the end. Throws TraceFormatError for a row longer than
    /// limits::kMaxCsvRowBytes, found before more of it is read.
    bool next();
    int row() const { return m_row; }

    std::string text(const std::string& column) const;
    bool isEmpty(const std::string& column) const { return text(column).empty(); }
    double number(const std::string& column) const;
    double nonNegative(const std::string& column) const;
    /// A whole number in [min, max], checked as a double before it is converted (1e10 GPUs is "more than the
    /// limit", never a wrapped int).
    long long wholeNumber(const std::string& column, long long min, long long max) const;
    /// A number, or a "YYYY-MM-DD HH:MM:SS" date-time (UTC) converted to seconds since 1970.
    double time(const std::string& column) const;

    [[noreturn]] void fail(const std::string& column, const std::string& problem) const;

private:
    bool nextLine(std::string& line);
    std::size_t index(const std::string& column) const;

    std::istream& m_in;
    std::string m_source;
    std::vector<std::string> m_columns;
    std::vector<std::string> m_cells;
    int m_row = 0;
};

/// Seconds since 1970-01-01 of "YYYY-MM-DD HH:MM:SS" (or "YYYY-MM-DDTHH:MM:SS"); std::nullopt if malformed.
std::optional<double> parseDateTime(const std::string& text);
/// Parses a whole number or decimal; std::nullopt unless the entire text is one finite number.
std::optional<double> parseNumber(const std::string& text);

} // namespace clusterplanner::core::sched
