// SPDX-License-Identifier: GPL-3.0-or-later
// SQLite connection wrapper and the plain-language meaning of its error codes.
#include "core/store/database.h"

#include "core/store/storeerror.h"

#include <sqlite3.h>

#include <utility>

namespace clusterplanner::core {

namespace {

int openFlags(Database::Mode mode)
{
    switch (mode) {
    case Database::Mode::ReadWriteCreate:
        return SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    case Database::Mode::ReadWrite:
        return SQLITE_OPEN_READWRITE;
    case Database::Mode::ReadOnly:
        return SQLITE_OPEN_READONLY;
    case Database::Mode::Immutable:
        break;
    }
    return SQLITE_OPEN_READONLY | SQLITE_OPEN_URI;
}

// "immutable=1" needs a URI; characters with a meaning in URIs are percent-encoded.
std::string immutableUri(const std::string& path)
{
    std::string uri = "file:";
    for (char c : path) {
        if (c == '%' || c == '?' || c == '#') {
            static const char* hex = "0123456789ABCDEF";
            uri += '%';
            uri += hex[(static_cast<unsigned char>(c) >> 4) & 0xf];
            uri += hex[static_cast<unsigned char>(c) & 0xf];
        } else {
            uri += c;
        }
    }
    return uri + "?immutable=1";
}

} // namespace

std::string explainSqliteCode(int code, int busyTimeoutMs)
{
    switch (problemFromSqliteCode(code)) {
    case StoreProblem::Busy:
        return "the library is busy: another ClusterPlanner window or process is writing to it and did not finish "
               "within "
            + std::to_string(busyTimeoutMs) + " ms";
    case StoreProblem::DiskFull:
        return "the disk is full (or the library reached its size limit)";
    case StoreProblem::ReadOnly:
        return "the library file or its folder is read-only";
    case StoreProblem::Corrupt:
        return "the library file is damaged";
    case StoreProblem::NotADatabase:
        return "the file is not a ClusterPlanner library (it is not an SQLite database)";
    case StoreProblem::CannotOpen:
        return "the file cannot be opened or created (missing folder, no permission, or a directory)";
    case StoreProblem::Io:
        return "the disk reported a read or write error";
    default:
        return "the database reported an error";
    }
}

Database Database::open(const std::string& path, Mode mode)
{
    sqlite3* handle = nullptr;
    const std::string name = mode == Mode::Immutable ? immutableUri(path) : path;
    const int code = sqlite3_open_v2(name.c_str(), &handle, openFlags(mode), nullptr);
    Database database(handle, path); // owns the handle even when the open failed
    if (code != SQLITE_OK)
        database.fail(code);
    sqlite3_extended_result_codes(handle, 1);
    return database;
}

Database::Database(sqlite3* handle, std::string path)
    : m_handle(handle)
    , m_path(std::move(path))
{ }

Database::Database(Database&& other) noexcept
    : m_handle(std::exchange(other.m_handle, nullptr))
    , m_path(std::move(other.m_path))
    , m_busyTimeoutMs(other.m_busyTimeoutMs)
{ }

Database& Database::operator=(Database&& other) noexcept
{
    if (this != &other) {
        sqlite3_close_v2(m_handle);
        m_handle = std::exchange(other.m_handle, nullptr);
        m_path = std::move(other.m_path);
        m_busyTimeoutMs = other.m_busyTimeoutMs;
    }
    return *this;
}

Database::~Database()
{
    // close_v2 defers the close until every statement is finalized, so destruction order cannot leak.
    sqlite3_close_v2(m_handle);
}

void Database::exec(std::string_view sql)
{
    const std::string text(sql);
    const int code = sqlite3_exec(m_handle, text.c_str(), nullptr, nullptr, nullptr);
    if (code != SQLITE_OK)
        fail(code);
}

Statement Database::prepare(std::string_view sql)
{
    return Statement(*this, m_handle, sql);
}

std::int64_t Database::lastInsertId() const
{
    return sqlite3_last_insert_rowid(m_handle);
}

int Database::changes() const
{
    return sqlite3_changes(m_handle);
}

void Database::setBusyTimeout(int durationMs)
{
    sqlite3_busy_timeout(m_handle, durationMs);
    m_busyTimeoutMs = durationMs;
}

bool Database::isReadOnly() const
{
    return sqlite3_db_readonly(m_handle, "main") == 1;
}

long long Database::pragmaInteger(std::string_view name)
{
    auto statement = prepare("PRAGMA " + std::string(name));
    return statement.step() ? statement.integer(0) : 0;
}

std::string Database::pragmaText(std::string_view name)
{
    auto statement = prepare("PRAGMA " + std::string(name));
    return statement.step() ? statement.text(0) : std::string();
}

void Database::fail(int code) const
{
    std::string message = explainSqliteCode(code, m_busyTimeoutMs);
    const char* detail = m_handle ? sqlite3_errmsg(m_handle) : sqlite3_errstr(code);
    message += " (SQLite: " + std::string(detail ? detail : sqlite3_errstr(code)) + ")";
    throw StoreError(problemFromSqliteCode(code), message);
}

} // namespace clusterplanner::core
