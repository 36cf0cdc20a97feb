// SPDX-License-Identifier: GPL-3.0-or-later
// The library's table layout by version (PRAGMA user_version) and the forward migrations between versions.
#pragma once

namespace clusterplanner::core {

class Database;

/// Version history:
///  1  scenarios, their saved versions, trash, autosave slots.
///  2  scenarios.tags (JSON array of strings) and the results cache table.
inline constexpr int kSchemaVersion = 2;

/// PRAGMA application_id of a ClusterPlanner library ("CPln"), so other programs' databases are never mistaken for
/// an empty library and migrated.
inline constexpr int kLibraryApplicationId = 0x43506c6e;

/// Applies the migrations fromVersion+1 .. toVersion in order and sets user_version to toVersion. The caller holds
/// the write transaction, so a failed step leaves the file as it was. Tests use toVersion < kSchemaVersion to build
/// libraries as an older ClusterPlanner wrote them.
void migrateSchema(Database& database, int fromVersion, int toVersion = kSchemaVersion);

} // namespace clusterplanner::core
