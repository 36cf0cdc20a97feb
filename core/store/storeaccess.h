// SPDX-License-Identifier: GPL-3.0-or-later
// Internal to core/store: ScenarioStore's guards that put every write in a transaction and every error in words.
#pragma once

#include "core/store/scenariostore.h"
#include "core/store/transaction.h"

#include <type_traits>

namespace clusterplanner::core {

/// Runs work inside one write transaction. Any StoreError is re-thrown as "Cannot <action>: <reason>. Nothing was
/// changed." — true because the transaction rolls back when the exception leaves it.
template <typename Work>
auto ScenarioStore::write(const char* action, Work&& work)
{
    if (isReadOnly())
        throw StoreError(StoreProblem::ReadOnly,
            "Cannot " + std::string(action) + ": the library " + path() + " is open read-only (" + m_readOnlyReason
                + "). Nothing was changed.");
    try {
        Transaction transaction(m_database);
        if constexpr (std::is_void_v<decltype(work())>) {
            work();
            transaction.commit();
        } else {
            auto value = work();
            transaction.commit();
            return value;
        }
    } catch (const StoreError& error) {
        throw StoreError(
            error.problem(), "Cannot " + std::string(action) + ": " + error.what() + ". Nothing was changed.");
    }
}

/// Runs a read; the reader sees one consistent snapshot per statement (WAL), so no transaction is needed.
template <typename Work>
auto ScenarioStore::read(const char* action, Work&& work)
{
    try {
        return work();
    } catch (const StoreError& error) {
        throw StoreError(error.problem(), "Cannot " + std::string(action) + ": " + error.what() + ".");
    }
}

} // namespace clusterplanner::core
