// SPDX-License-Identifier: GPL-3.0-or-later
// RAII write transaction: BEGIN IMMEDIATE on construction, ROLLBACK unless commit() was called.
#pragma once

namespace clusterplanner::core {

class Database;

/// Takes the write lock up front (BEGIN IMMEDIATE), so a busy library fails at the start of a change instead of
/// half-way through it. Destroying an uncommitted transaction rolls it back, which is what makes every write
/// all-or-nothing when an exception leaves the scope.
class Transaction
{
public:
    explicit Transaction(Database& database);
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    ~Transaction();

    /// Throws StoreError (e.g. a full disk at commit); the transaction is then rolled back by the destructor.
    void commit();

private:
    Database& m_database;
    bool m_open = true;
};

} // namespace clusterplanner::core
