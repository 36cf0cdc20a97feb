// SPDX-License-Identifier: GPL-3.0-or-later
// Where the user's own GPU catalog and measured efficiency overrides live: JSON files in the settings folder.
// Core merges and builds the entries (core/probe/localcatalog.h); this class only reads and writes them.
#pragma once

#include <QString>

namespace clusterplanner::ui {

class LocalCatalogFile
{
public:
    /// folder empty: the application's settings folder (QStandardPaths::AppConfigLocation).
    explicit LocalCatalogFile(QString folder = {});

    QString catalogPath() const; ///< local-gpus.json
    QString overridesPath() const; ///< probe-efficiency.json: {"<gpu id>": {"hbm_fraction": ...}}

    /// The file's text, or empty when there is none.
    QString readCatalog() const { return read(catalogPath()); }
    /// Writes atomically; false when the folder or file cannot be written.
    bool writeCatalog(const QString& json) const { return write(catalogPath(), json); }
    QString readOverrides() const { return read(overridesPath()); }
    bool writeOverrides(const QString& json) const { return write(overridesPath(), json); }

private:
    static QString read(const QString& path);
    static bool write(const QString& path, const QString& text);

    QString m_folder;
};

} // namespace clusterplanner::ui
