// SPDX-License-Identifier: GPL-3.0-or-later
// Internal to core/store: opens a library file safely, diagnosing every reason it cannot be used.
#pragma once

#include "core/store/scenariostore.h"

#include <string>
#include <vector>

namespace clusterplanner::core {

/// Implements ScenarioStore::open() and openOrRecover(). Checks happen before the first write (WAL switch,
/// migration), so a file that fails them is left byte-for-byte as it was.
class StoreOpener
{
public:
    StoreOpener(std::string path, StoreOptions options);

    OpenResult open();
    OpenResult openOrRecover();

private:
    ScenarioStore openWritable(std::vector<std::string>& warnings);
    /// openWritable() with its warnings joined into the result's message; throws StoreError like it.
    OpenResult openWritableResult();
    ScenarioStore openReadOnly(const std::string& reason);
    void checkLocation(bool existed) const;
    Database connect(Database::Mode mode) const;
    void inspect(Database& database, bool existed, bool readOnly) const;
    void configure(Database& database) const;
    std::string moveAside() const;

    OpenResult recoverDamaged(const StoreError& error);
    OpenResult fallBackToReadOnly(const StoreError& error);
    OpenResult failure(const StoreError& error, const std::string& outcome) const;
    std::string headline(const StoreError& error) const;

    std::string m_path;
    StoreOptions m_options;
};

} // namespace clusterplanner::core
