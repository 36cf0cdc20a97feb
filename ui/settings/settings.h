// SPDX-License-Identifier: GPL-3.0-or-later
// Typed access to the application's persistent settings (window layout, recent files, last folder).
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

class QSettings;

namespace clusterplanner::ui {

/// Every settings key, in one place.
namespace SettingsKey {
inline constexpr char WindowGeometry[] = "mainwindow/geometry";
inline constexpr char WindowState[] = "mainwindow/state";
inline constexpr char WindowStateVersion[] = "mainwindow/stateVersion";
inline constexpr char RecentFiles[] = "files/recent";
inline constexpr char LastDirectory[] = "files/lastDirectory";
inline constexpr char DarkPalette[] = "appearance/darkPalette";
} // namespace SettingsKey

/// Wraps a QSettings owned by the caller: the application passes the user's settings (or an INI file given with
/// --settings), tests pass a temporary INI file. Not a singleton.
class Settings
{
public:
    /// Bump when docks are added, renamed or removed: a saved state of another version is ignored.
    /// 2: workspace panels, 3: library panel, 4: machine panel, 5: topology and purchase panels, 6: shared-cluster
    /// panels.
    static constexpr int kWindowStateVersion = 6;
    static constexpr int kMaxRecentFiles = 8;

    explicit Settings(QSettings& settings);

    QByteArray windowGeometry() const;
    void setWindowGeometry(const QByteArray& geometry);
    /// The saved QMainWindow::saveState(), or empty when none was saved for kWindowStateVersion.
    QByteArray windowState() const;
    void setWindowState(const QByteArray& state);

    /// Most recent first, at most kMaxRecentFiles, no duplicates.
    QStringList recentFiles() const;
    void setRecentFiles(const QStringList& files);
    /// Moves or inserts `path` at the front of the list, dropping the oldest beyond kMaxRecentFiles.
    void addRecentFile(const QString& path);
    void removeRecentFile(const QString& path);

    /// Folder of the last opened or saved file; empty when none.
    QString lastDirectory() const;
    void setLastDirectory(const QString& directory);

    bool darkPalette() const;
    void setDarkPalette(bool dark);

    void sync();

private:
    QSettings& m_settings;
};

} // namespace clusterplanner::ui
