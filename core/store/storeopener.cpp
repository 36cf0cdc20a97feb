// SPDX-License-Identifier: GPL-3.0-or-later
// Opening, checking, migrating and (on request) recovering a library file.
#include "core/store/storeopener.h"

#include "core/store/schema.h"
#include "core/store/timestamp.h"

#include <unistd.h>

#include <filesystem>

namespace clusterplanner::core {

namespace fs = std::filesystem;

namespace {

std::string joined(const std::vector<std::string>& lines)
{
    std::string text;
    for (const auto& line : lines)
        text += (text.empty() ? "" : "\n") + line;
    return text;
}

bool isWritable(const fs::path& path)
{
    return ::access(path.empty() ? "." : path.c_str(), W_OK) == 0;
}

} // namespace

StoreOpener::StoreOpener(std::string path, StoreOptions options)
    : m_path(std::move(path))
    , m_options(std::move(options))
{ }

OpenResult StoreOpener::openWritableResult()
{
    std::vector<std::string> warnings;
    OpenResult result;
    result.store.emplace(openWritable(warnings));
    result.message = joined(warnings);
    return result;
}

OpenResult StoreOpener::open()
{
    try {
        return openWritableResult();
    } catch (const StoreError& error) {
        switch (error.problem()) {
        case StoreProblem::NotADatabase:
        case StoreProblem::Corrupt:
            return failure(error, "The file was left untouched; it can be moved aside to start a new library.");
        case StoreProblem::NewerSchema:
        case StoreProblem::ReadOnly:
            if (fs::exists(m_path))
                return failure(error, "The file was left untouched; it can be opened read-only.");
            [[fallthrough]];
        default:
            return failure(error, "Nothing was changed.");
        }
    }
}

OpenResult StoreOpener::openOrRecover()
{
    try {
        return openWritableResult();
    } catch (const StoreError& error) {
        switch (error.problem()) {
        case StoreProblem::NotADatabase:
        case StoreProblem::Corrupt:
            return recoverDamaged(error);
        case StoreProblem::NewerSchema:
        case StoreProblem::ReadOnly:
            return fallBackToReadOnly(error);
        default:
            return failure(error, "Nothing was changed.");
        }
    }
}

ScenarioStore StoreOpener::openWritable(std::vector<std::string>& warnings)
{
    std::error_code error;
    const bool existed = fs::file_size(m_path, error) > 0 && !error;
    checkLocation(existed);
    Database database = connect(Database::Mode::ReadWriteCreate);
    if (database.isReadOnly())
        throw StoreError(StoreProblem::ReadOnly, "the file is read-only");
    inspect(database, existed, false);
    configure(database);
    ScenarioStore store(std::move(database), {});
    warnings = store.createOrMigrate(m_options.seedDirectory);
    return store;
}

ScenarioStore StoreOpener::openReadOnly(const std::string& reason)
{
    std::optional<Database> database;
    try {
        database = connect(Database::Mode::ReadOnly);
        inspect(*database, true, true);
    } catch (const StoreError& error) {
        // A WAL library in a folder nobody may write to cannot get its shared-memory file; read it as immutable.
        if (error.problem() != StoreProblem::CannotOpen && error.problem() != StoreProblem::ReadOnly)
            throw;
        database = connect(Database::Mode::Immutable);
        inspect(*database, true, true);
    }
    return ScenarioStore(std::move(*database), reason);
}

void StoreOpener::checkLocation(bool existed) const
{
    const fs::path path(m_path);
    std::error_code error;
    if (fs::is_directory(path, error))
        throw StoreError(StoreProblem::CannotOpen, "it is a folder, not a library file");
    const fs::path folder = path.parent_path();
    if (!folder.empty() && !fs::exists(folder, error)) {
        fs::create_directories(folder, error);
        if (error)
            throw StoreError(StoreProblem::CannotOpen,
                "its folder " + folder.string() + " cannot be created (" + error.message() + ")");
    }
    // A bare file name has an empty parent: name the working folder it stands for, never a blank.
    const std::string shown = folder.empty() ? fs::absolute(path, error).parent_path().string() : folder.string();
    if (!isWritable(folder))
        throw StoreError(StoreProblem::ReadOnly,
            existed ? "its folder " + shown + " is read-only"
                    : "its folder " + shown + " is read-only, so no library can be created there");
    if (existed && !isWritable(path))
        throw StoreError(StoreProblem::ReadOnly, "the file is read-only");
}

Database StoreOpener::connect(Database::Mode mode) const
{
    Database database = Database::open(m_path, mode);
    database.setBusyTimeout(m_options.busyTimeoutMs);
    return database;
}

void StoreOpener::inspect(Database& database, bool existed, bool readOnly) const
{
    const long long applicationId = database.pragmaInteger("application_id");
    const long long version = database.pragmaInteger("user_version");
    auto count = database.prepare("SELECT COUNT(*) FROM sqlite_master");
    count.step();
    const bool empty = count.integer(0) == 0;
    if (applicationId != kLibraryApplicationId && !(applicationId == 0 && empty))
        throw StoreError(
            StoreProblem::ForeignDatabase, "it is a database of another program, not a ClusterPlanner library");
    if (version > kSchemaVersion && !readOnly)
        throw StoreError(StoreProblem::NewerSchema,
            "it was written by a newer ClusterPlanner (library schema " + std::to_string(version)
                + "; this version understands up to " + std::to_string(kSchemaVersion) + ")");
    if (readOnly && version < kSchemaVersion)
        throw StoreError(StoreProblem::ReadOnly,
            "it was written by an older ClusterPlanner and must be upgraded, which needs write access");
    if (existed) {
        const std::string check = database.pragmaText("quick_check");
        if (check != "ok")
            throw StoreError(StoreProblem::Corrupt, "it is damaged (the integrity check reports: " + check + ")");
    }
}

void StoreOpener::configure(Database& database) const
{
    // WAL lets readers work while another process writes; NORMAL sync in WAL mode cannot corrupt the file and loses
    // no committed transaction when the program is killed (only, at worst, the last ones on a power cut).
    database.pragmaText("journal_mode = WAL");
    database.exec("PRAGMA foreign_keys = ON");
    database.exec("PRAGMA synchronous = NORMAL");
    if (m_options.maxPageCount)
        database.pragmaInteger("max_page_count = " + std::to_string(*m_options.maxPageCount));
}

std::string StoreOpener::moveAside() const
{
    const std::string base = m_path + ".corrupt-" + fileTimestampUtc();
    std::string aside = base;
    for (int n = 2; fs::exists(aside); ++n)
        aside = base + "-" + std::to_string(n);
    std::error_code error;
    fs::rename(m_path, aside, error);
    if (error)
        throw StoreError(StoreProblem::Io, "it could not be moved aside (" + error.message() + ")");
    // A stale WAL must travel with its file: replayed into the new library it would damage it.
    for (const char* suffix : {"-wal", "-journal"})
        if (fs::exists(m_path + suffix))
            fs::rename(m_path + suffix, aside + suffix, error);
    fs::remove(m_path + "-shm", error);
    return aside;
}

OpenResult StoreOpener::recoverDamaged(const StoreError& damage)
{
    std::string aside;
    try {
        aside = moveAside();
    } catch (const StoreError& error) {
        return failure(damage, "It could not be moved aside either (" + std::string(error.what()) + ").");
    }
    OpenResult result = StoreOpener(m_path, m_options).open();
    result.movedAsidePath = aside;
    const std::string what = headline(damage) + ". It was moved to " + aside;
    if (result.store) {
        result.problem = damage.problem();
        result.message
            = what + " and a new library was started." + (result.message.empty() ? "" : "\n" + result.message);
    } else {
        result.message = what + ", but a new library could not be started either: " + result.message;
    }
    return result;
}

OpenResult StoreOpener::fallBackToReadOnly(const StoreError& error)
{
    const bool newer = error.problem() == StoreProblem::NewerSchema;
    if (!fs::exists(m_path))
        return failure(error, "Nothing was changed.");
    try {
        OpenResult result;
        result.store.emplace(openReadOnly(newer ? "written by a newer ClusterPlanner" : "the location is read-only"));
        result.problem = error.problem();
        result.message = headline(error) + ". It was opened read-only: scenarios can be viewed and exported, not saved"
            + (newer ? "; update ClusterPlanner to change this library." : ".");
        return result;
    } catch (const StoreError& readError) {
        return failure(error, "It cannot be read either (" + std::string(readError.what()) + "). Nothing was changed.");
    }
}

OpenResult StoreOpener::failure(const StoreError& error, const std::string& outcome) const
{
    OpenResult result;
    result.problem = error.problem();
    result.message = headline(error) + ". " + outcome;
    return result;
}

std::string StoreOpener::headline(const StoreError& error) const
{
    return "The library " + m_path + " cannot be used as it is: " + error.what();
}

} // namespace clusterplanner::core
