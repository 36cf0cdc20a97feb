// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/mainwindow/recentfilesmenu.h"

#include "ui/settings/settings.h"

#include <QDir>
#include <QFileInfo>

namespace clusterplanner::ui {

RecentFilesMenu::RecentFilesMenu(Settings& settings, QWidget* parent)
    : QMenu(tr("Open &Recent"), parent)
    , m_settings(settings)
{
    setObjectName(QStringLiteral("menu.recent"));
    connect(this, &QMenu::aboutToShow, this, &RecentFilesMenu::refresh);
    refresh();
}

void RecentFilesMenu::addFile(const QString& path)
{
    m_settings.addRecentFile(QFileInfo(path).absoluteFilePath());
    refresh();
}

void RecentFilesMenu::removeFile(const QString& path)
{
    m_settings.removeRecentFile(QFileInfo(path).absoluteFilePath());
    refresh();
}

void RecentFilesMenu::refresh()
{
    // Deferred deletion: refresh() also runs from inside an entry's triggered() signal.
    for (QAction* action : actions()) {
        removeAction(action);
        action->deleteLater();
    }
    const QStringList files = m_settings.recentFiles();
    for (int i = 0; i < files.size(); ++i) {
        const QString& path = files[i];
        // "&1" gives keyboard access to the first nine entries.
        const QString prefix = i < 9 ? QStringLiteral("&%1  ").arg(i + 1) : QString();
        QAction* action = addAction(prefix + QFileInfo(path).fileName());
        action->setToolTip(QDir::toNativeSeparators(path));
        action->setStatusTip(QDir::toNativeSeparators(path));
        connect(action, &QAction::triggered, this, [this, path] { Q_EMIT openRequested(path); });
    }
    if (!files.isEmpty()) {
        addSeparator();
        addAction(tr("&Clear List"), this, [this] {
            m_settings.setRecentFiles({});
            refresh();
        });
    }
    setEnabled(!files.isEmpty());
}

} // namespace clusterplanner::ui
