// SPDX-License-Identifier: GPL-3.0-or-later
// RAII owner of one SQLite connection (the C API), the only place core/store talks to sqlite3_open.
#pragma once

#include "core/store/statement.h"

#include <cstdint>
#include <string>
#include <string_view>

struct sqlite3;

namespace clusterplanner::core {

class Database
{
public:
    enum class Mode {
        ReadWriteCreate, ///< create the file when missing
        ReadWrite,
        ReadOnly,
        Immutable, ///< read-only, and no locks or -shm file: for a folder nobody can write to
    };

    /// Opens (or creates) the file. Throws StoreError; a failed open leaves no handle behind. Opening never writes
    /// to an existing file.
    static Database open(const std::string& path, Mode mode);

    Database(Database&& other) noexcept;
    Database& operator=(Database&& other) noexcept;
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;
    ~Database();

    /// Runs constant SQL (one or more statements, no parameters). Never pass text that came from a user.
    void exec(std::string_view sql);
    /// Compiles constant SQL with ?N placeholders; values are bound on the Statement.
    Statement prepare(std::string_view sql);

    std::int64_t lastInsertId() const;
    int changes() const;
    /// Waits up to durationMs for another connection's lock before an operation fails with StoreProblem::Busy.
    void setBusyTimeout(int durationMs);
    int busyTimeoutMs() const { return m_busyTimeoutMs; }
    bool isReadOnly() const;
    const std::string& path() const { return m_path; }

    /// PRAGMA helpers; name must be a constant pragma name.
    long long pragmaInteger(std::string_view name);
    std::string pragmaText(std::string_view name);

    /// Throws StoreError for the SQLite result code, with the connection's message and a plain explanation.
    [[noreturn]] void fail(int code) const;

private:
    Database(sqlite3* handle, std::string path);

    sqlite3* m_handle = nullptr;
    std::string m_path;
    int m_busyTimeoutMs = 0;
};

/// A plain-language explanation of an SQLite result code (what it means for the user's library).
std::string explainSqliteCode(int code, int busyTimeoutMs);

} // namespace clusterplanner::core
