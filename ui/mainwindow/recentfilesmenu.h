// SPDX-License-Identifier: GPL-3.0-or-later
// File ▸ Open Recent: the most recently used scenario files, kept in Settings.
#pragma once

#include <QMenu>

namespace clusterplanner::ui {

class Settings;

/// Rebuilds itself from Settings::recentFiles() each time it is about to show or refresh() is called; disabled
/// while the list is empty. Emits openRequested(path) when an entry is chosen.
class RecentFilesMenu : public QMenu
{
    Q_OBJECT
public:
    RecentFilesMenu(Settings& settings, QWidget* parent = nullptr);

    void addFile(const QString& path);
    void removeFile(const QString& path);
    void refresh();

Q_SIGNALS:
    void openRequested(const QString& path);

private:
    Settings& m_settings;
};

} // namespace clusterplanner::ui
