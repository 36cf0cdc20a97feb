// SPDX-License-Identifier: GPL-3.0-or-later
// BEGIN IMMEDIATE / COMMIT / ROLLBACK scope guard.
#include "core/store/transaction.h"

#include "core/store/database.h"

namespace clusterplanner::core {

Transaction::Transaction(Database& database)
    : m_database(database)
{
    m_database.exec("BEGIN IMMEDIATE");
}

Transaction::~Transaction()
{
    if (!m_open)
        return;
    try {
        m_database.exec("ROLLBACK");
    } catch (const std::exception&) {
        // SQLite may already have rolled back on its own (e.g. after SQLITE_FULL); there is nothing left to undo.
    }
}

void Transaction::commit()
{
    m_database.exec("COMMIT");
    m_open = false;
}

} // namespace clusterplanner::core
