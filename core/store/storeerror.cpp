// SPDX-License-Identifier: GPL-3.0-or-later
// Names of store problems and the mapping from SQLite result codes.
#include "core/store/storeerror.h"

#include <sqlite3.h>

namespace clusterplanner::core {

std::string_view toString(StoreProblem problem)
{
    switch (problem) {
    case StoreProblem::None:
        return "none";
    case StoreProblem::NotADatabase:
        return "not-a-database";
    case StoreProblem::Corrupt:
        return "corrupt";
    case StoreProblem::ForeignDatabase:
        return "foreign-database";
    case StoreProblem::NewerSchema:
        return "newer-schema";
    case StoreProblem::ReadOnly:
        return "read-only";
    case StoreProblem::CannotOpen:
        return "cannot-open";
    case StoreProblem::DiskFull:
        return "disk-full";
    case StoreProblem::Busy:
        return "busy";
    case StoreProblem::NotFound:
        return "not-found";
    case StoreProblem::InvalidScenario:
        return "invalid-scenario";
    case StoreProblem::Io:
        return "io-error";
    case StoreProblem::Other:
        break;
    }
    return "other";
}

StoreProblem problemFromSqliteCode(int code)
{
    switch (code & 0xff) {
    case SQLITE_NOTADB:
        return StoreProblem::NotADatabase;
    case SQLITE_CORRUPT:
        return StoreProblem::Corrupt;
    case SQLITE_READONLY:
    case SQLITE_PERM:
        return StoreProblem::ReadOnly;
    case SQLITE_CANTOPEN:
        return StoreProblem::CannotOpen;
    case SQLITE_FULL:
        return StoreProblem::DiskFull;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return StoreProblem::Busy;
    case SQLITE_IOERR:
        return StoreProblem::Io;
    default:
        return StoreProblem::Other;
    }
}

} // namespace clusterplanner::core
