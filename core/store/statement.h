// SPDX-License-Identifier: GPL-3.0-or-later
// RAII prepared statement: bind parameters, step through rows, read columns.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace clusterplanner::core {

class Database;

/// A compiled statement. Parameters are 1-based (?1, ?2, ...), columns 0-based. Errors throw StoreError.
class Statement
{
public:
    Statement(Statement&& other) noexcept;
    Statement& operator=(Statement&& other) noexcept;
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;
    ~Statement();

    Statement& bind(int index, int value);
    Statement& bind(int index, std::int64_t value);
    Statement& bind(int index, double value);
    Statement& bind(int index, std::string_view value); ///< copied by SQLite
    Statement& bind(int index, const char* value) { return bind(index, std::string_view(value)); }
    Statement& bindNull(int index);

    /// Advances to the next row: true when a row is available, false when the statement is done.
    bool step();
    /// Runs a statement that returns no rows.
    void run();
    /// Makes the statement runnable again; bindings are kept.
    void reset();

    bool isNull(int column) const;
    std::int64_t integer(int column) const;
    double real(int column) const;
    std::string text(int column) const;

private:
    friend class Database;
    Statement(const Database& database, sqlite3* connection, std::string_view sql);
    void check(int code) const;

    const Database* m_database = nullptr;
    sqlite3_stmt* m_statement = nullptr;
};

} // namespace clusterplanner::core
