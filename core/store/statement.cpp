// SPDX-License-Identifier: GPL-3.0-or-later
// Prepared statement wrapper over sqlite3_stmt.
#include "core/store/statement.h"

#include "core/store/database.h"

#include <sqlite3.h>

#include <utility>

namespace clusterplanner::core {

Statement::Statement(const Database& database, sqlite3* connection, std::string_view sql)
    : m_database(&database)
{
    const int code = sqlite3_prepare_v2(connection, sql.data(), static_cast<int>(sql.size()), &m_statement, nullptr);
    if (code != SQLITE_OK)
        m_database->fail(code);
}

Statement::Statement(Statement&& other) noexcept
    : m_database(other.m_database)
    , m_statement(std::exchange(other.m_statement, nullptr))
{ }

Statement& Statement::operator=(Statement&& other) noexcept
{
    if (this != &other) {
        sqlite3_finalize(m_statement);
        m_database = other.m_database;
        m_statement = std::exchange(other.m_statement, nullptr);
    }
    return *this;
}

Statement::~Statement()
{
    sqlite3_finalize(m_statement);
}

void Statement::check(int code) const
{
    if (code != SQLITE_OK)
        m_database->fail(code);
}

Statement& Statement::bind(int index, int value)
{
    check(sqlite3_bind_int(m_statement, index, value));
    return *this;
}

Statement& Statement::bind(int index, std::int64_t value)
{
    check(sqlite3_bind_int64(m_statement, index, value));
    return *this;
}

Statement& Statement::bind(int index, double value)
{
    check(sqlite3_bind_double(m_statement, index, value));
    return *this;
}

Statement& Statement::bind(int index, std::string_view value)
{
    check(sqlite3_bind_text64(m_statement, index, value.data(), value.size(), SQLITE_TRANSIENT, SQLITE_UTF8));
    return *this;
}

Statement& Statement::bindNull(int index)
{
    check(sqlite3_bind_null(m_statement, index));
    return *this;
}

bool Statement::step()
{
    const int code = sqlite3_step(m_statement);
    if (code == SQLITE_ROW)
        return true;
    if (code == SQLITE_DONE)
        return false;
    sqlite3_reset(m_statement); // clears the error state so the statement can be retried
    m_database->fail(code);
}

void Statement::run()
{
    while (step()) { }
}

void Statement::reset()
{
    sqlite3_reset(m_statement);
}

bool Statement::isNull(int column) const
{
    return sqlite3_column_type(m_statement, column) == SQLITE_NULL;
}

std::int64_t Statement::integer(int column) const
{
    return sqlite3_column_int64(m_statement, column);
}

double Statement::real(int column) const
{
    return sqlite3_column_double(m_statement, column);
}

std::string Statement::text(int column) const
{
    const auto* bytes = sqlite3_column_text(m_statement, column);
    const int size = sqlite3_column_bytes(m_statement, column);
    return bytes ? std::string(reinterpret_cast<const char*>(bytes), static_cast<std::size_t>(size)) : std::string();
}

} // namespace clusterplanner::core
