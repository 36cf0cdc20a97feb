// SPDX-License-Identifier: GPL-3.0-or-later
// The scenario library: an SQLite file of scenarios, their versions, cached results, autosaves and trash.
#pragma once

#include "core/store/database.h"
#include "core/store/storeerror.h"
#include "core/store/storetypes.h"

#include <optional>
#include <string>
#include <vector>

namespace clusterplanner::core {

struct OpenResult;

struct StoreOptions
{
    /// Folder of *.cplan.json files added (tagged "sample") when a new library is created; empty = none.
    std::string seedDirectory;
    /// How long a write waits for another process's lock before failing with StoreProblem::Busy.
    int busyTimeoutMs = 5000;
    /// Caps the file at this many pages (PRAGMA max_page_count); tests use it to simulate a full disk.
    std::optional<long long> maxPageCount;
};

/// All writes run in one transaction each; every method throws StoreError whose message says what failed and that
/// nothing was changed. Not thread-safe: use one store per thread (several stores, also in several processes, may
/// share one file).
class ScenarioStore
{
public:
    /// Opens or creates the library. Never changes a file it cannot use: a damaged or foreign file, a newer schema,
    /// a read-only location or a full disk give an empty result with problem and message set.
    static OpenResult open(const std::string& path, const StoreOptions& options = {});
    /// Like open(), but moves a damaged file aside to "<path>.corrupt-<timestamp>" and starts a new library, and opens
    /// a newer library or one in a read-only folder read-only. The message says what was done.
    static OpenResult openOrRecover(const std::string& path, const StoreOptions& options = {});

    const std::string& path() const { return m_database.path(); }
    /// True when opened read-only (newer schema, read-only folder); writes then throw StoreProblem::ReadOnly.
    bool isReadOnly() const { return !m_readOnlyReason.empty(); }
    int schemaVersion();

    ScenarioId save(const Scenario& scenario, const std::vector<std::string>& tags = {});
    /// Adds many scenarios in one transaction (import, seeding): all or none.
    std::vector<ScenarioId> saveAll(const std::vector<NewScenario>& scenarios);
    /// Replaces the current state, keeping the previous one as a new version; drops the cached result.
    void update(ScenarioId id, const Scenario& scenario);
    ScenarioRecord load(ScenarioId id);
    std::vector<ListRow> list(const ListQuery& query = {});

    std::vector<VersionInfo> versions(ScenarioId id); ///< newest first
    Scenario loadVersion(ScenarioId id, int version);
    /// Makes an earlier version current again; the state it replaces becomes a version too, so nothing is lost.
    void restoreVersion(ScenarioId id, int version);

    void rename(ScenarioId id, const std::string& name); ///< an update of scenario.name
    /// Copies the current state and tags (not versions or results); name defaults to "<name> (copy)".
    ScenarioId duplicate(ScenarioId id, const std::string& name = {});
    void setTags(ScenarioId id, const std::vector<std::string>& tags); ///< trimmed, de-duplicated, sorted

    void remove(ScenarioId id); ///< moves to the trash
    void restore(ScenarioId id); ///< takes out of the trash
    void purge(ScenarioId id); ///< deletes for good, with versions and result

    void putResult(ScenarioId id, const CachedResult& result);

    /// Stores unsaved edits of an open document in a slot (one per window), replacing the slot's previous content.
    void autosave(const std::string& slot, const Scenario& scenario, std::optional<ScenarioId> id = std::nullopt);
    std::vector<RecoveryEntry> pendingRecovery();
    void clearAutosave(const std::string& slot);

    /// Input fields that differ (scenario JSON flattened to dotted paths) and cached results side by side.
    Comparison compare(const std::vector<ScenarioId>& ids);

    /// PRAGMA integrity_check: "ok" for a healthy file, otherwise SQLite's first findings.
    std::string integrityCheck();

private:
    friend class StoreOpener;
    ScenarioStore(Database database, std::string readOnlyReason);

    template <typename Work>
    auto write(const char* action, Work&& work);
    template <typename Work>
    auto read(const char* action, Work&& work);
    /// Migrates to kSchemaVersion in one transaction and, for a new library, adds the samples; returns warnings.
    std::vector<std::string> createOrMigrate(const std::string& seedDirectory);
    std::vector<std::string> seed(const std::string& directory);
    ScenarioId insert(const Scenario& scenario, const std::vector<std::string>& tags, const std::string& now);
    void replace(ScenarioId id, const Scenario& scenario, const std::string& now);
    std::string currentJson(ScenarioId id);
    void requireExists(ScenarioId id);
    Scenario versionScenario(ScenarioId id, int version);

    Database m_database;
    std::string m_readOnlyReason;
};

struct OpenResult
{
    std::optional<ScenarioStore> store; ///< empty when the library could not be opened
    StoreProblem problem = StoreProblem::None; ///< what was found, also when the store could be opened anyway
    std::string message; ///< what is wrong and what was done about it; empty when all went well
    std::string movedAsidePath; ///< where a damaged file was moved by openOrRecover()
    explicit operator bool() const { return store.has_value(); }
};

} // namespace clusterplanner::core
