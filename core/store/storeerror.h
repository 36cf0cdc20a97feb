// SPDX-License-Identifier: GPL-3.0-or-later
// The error type of the scenario library, with a category the UI can act on.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace clusterplanner::core {

/// What went wrong with the library file or an operation on it.
enum class StoreProblem {
    None,
    NotADatabase, ///< the file is not an SQLite database at all
    Corrupt, ///< an SQLite database that fails its integrity check
    ForeignDatabase, ///< a healthy SQLite database that belongs to another program
    NewerSchema, ///< written by a newer ClusterPlanner
    ReadOnly, ///< the file or its folder cannot be written
    CannotOpen, ///< the path cannot be opened or created (missing folder, a directory, ...)
    DiskFull, ///< no space left, or the size limit was reached
    Busy, ///< another connection held the write lock longer than the busy timeout
    NotFound, ///< no scenario (or version, or slot) with that id
    InvalidScenario, ///< a scenario that fails the file-format checks, so it is never stored
    Io, ///< an operating-system read/write error
    Other,
};

/// A stable lower-case name, e.g. "disk-full", for JSON output and logs.
std::string_view toString(StoreProblem problem);

/// Thrown by the store. what() says what is wrong and what happened to the data, e.g.
/// "cannot save: the disk is full ... the library is unchanged".
class StoreError : public std::runtime_error
{
public:
    StoreError(StoreProblem problem, const std::string& message)
        : std::runtime_error(message)
        , m_problem(problem)
    { }
    StoreProblem problem() const { return m_problem; }

private:
    StoreProblem m_problem;
};

/// Maps an SQLite result code (primary or extended) to a problem category.
StoreProblem problemFromSqliteCode(int code);

} // namespace clusterplanner::core
